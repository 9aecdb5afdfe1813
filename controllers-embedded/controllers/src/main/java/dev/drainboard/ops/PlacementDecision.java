package dev.drainboard.ops;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drainboard.architecture.Pure;
import dev.drainboard.scheduling.NodeState;
import dev.drainboard.scheduling.SchedulingDecision;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Whether everything a drain moves has somewhere to go: each VMI that live-migrates (its target pod) and each pod or
 * VMI that is recreated (its new pod) is placed, in order, with kube-scheduler's own fit
 * ({@link SchedulingDecision}) on the cluster as it will be: the drained nodes cordoned, the recreated pods gone from
 * them, and every pod placed so far counted where it landed, so ten VMs that each fit alone but not together are
 * caught. A migration's source pod stays on its node while the migration runs, and the target pod's anti-affinity
 * to it (KubeVirt's {@code createTargetPod}) keeps the target off the source node.
 */
@Pure
public final class PlacementDecision {

    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * One thing to place.
     *
     * @param kind        what the operator knows it as: {@link Blocker#VMI} or {@link Blocker#POD}
     * @param leaving     the pod now on a drained node (for a migration: the source pod, which stays until the end)
     * @param replacement the pod the scheduler will be asked to place (a migration's target pod, or the new pod)
     * @param migration   whether the leaving pod stays while the replacement starts (live migration)
     */
    public record Move(String kind, String namespace, String name, Pod leaving, Pod replacement, boolean migration) {
        public Move {
            Objects.requireNonNull(kind, "kind");
            Objects.requireNonNull(namespace, "namespace");
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(leaving, "leaving");
            Objects.requireNonNull(replacement, "replacement");
        }
    }

    /** A move that fits nowhere, with kube-scheduler's message. */
    public record Stranded(Move move, String message) {
    }

    /**
     * Where a move lands: {@code node}, or null with kube-scheduler's {@code message} when it fits nowhere;
     * {@code preferredMiss} is the scheduler's message when none of the preferred nodes could take it (null when one
     * did, or when none were preferred).
     */
    public record Placed(Move move, String node, String message, String preferredMiss) {
        public boolean stranded() {
            return node == null;
        }
    }

    private PlacementDecision() {
    }

    /**
     * @param nodes   every node of the cluster
     * @param pods    the pods of the cluster (those bound to a node and not finished hold resources)
     * @param drained the nodes being drained together (unschedulable from now on)
     * @param moves   in the order they happen
     */
    public static List<Stranded> decide(List<Node> nodes, List<Pod> pods, Set<String> drained, List<Move> moves) {
        return place(nodes, pods, drained, moves, Set.of()).stream().filter(Placed::stranded)
                .map(p -> new Stranded(p.move(), p.message())).toList();
    }

    /**
     * Each move placed as {@link #decide} places it, but first on the {@code preferred} nodes alone (the others as if
     * cordoned, their pods still counted, so anti-affinity over wider topologies holds), and only where none of them
     * fits on any node: a maintenance plan sends a VM to a node already maintained when it can.
     */
    public static List<Placed> place(List<Node> nodes, List<Pod> pods, Set<String> drained, List<Move> moves,
                                     Set<String> preferred) {
        Set<String> recreated = new HashSet<>();
        for (Move m : moves) {
            if (!m.migration()) {
                recreated.add(key(m.leaving()));
            }
        }
        Map<String, List<JsonNode>> byNode = new HashMap<>();
        for (Pod p : pods) {
            String nodeName = p.getSpec() == null ? null : p.getSpec().getNodeName();
            if (nodeName == null || nodeName.isEmpty() || DrainPreview.isFinished(p) || recreated.contains(key(p))) {
                continue;
            }
            byNode.computeIfAbsent(nodeName, n -> new ArrayList<>()).add(JSON.valueToTree(p));
        }
        Map<String, NodeState> states = new LinkedHashMap<>();
        for (Node n : nodes) {
            ObjectNode node = JSON.valueToTree(n);
            String name = n.getMetadata().getName();
            if (drained.contains(name)) {
                spec(node).put("unschedulable", true); // the drain cordons it first
            }
            states.put(name, NodeState.of(node, byNode.getOrDefault(name, List.of())));
        }
        List<Placed> placed = new ArrayList<>();
        for (Move m : moves) {
            ObjectNode pod = JSON.valueToTree(m.replacement());
            spec(pod).remove("nodeName");
            String preferredMiss = null;
            if (!preferred.isEmpty()) {
                List<NodeState> onlyPreferred = new ArrayList<>();
                for (NodeState s : states.values()) {
                    onlyPreferred.add(preferred.contains(s.name()) ? s : cordoned(s));
                }
                switch (SchedulingDecision.decide(pod, onlyPreferred)) {
                    case SchedulingDecision.Bind bind -> {
                        states.computeIfPresent(bind.nodeName(), (n, s) -> s.with(pod));
                        placed.add(new Placed(m, bind.nodeName(), null, null));
                        continue;
                    }
                    case SchedulingDecision.Unschedulable none -> preferredMiss = none.message();
                }
            }
            switch (SchedulingDecision.decide(pod, List.copyOf(states.values()))) {
                case SchedulingDecision.Bind bind -> {
                    states.computeIfPresent(bind.nodeName(), (n, s) -> s.with(pod));
                    placed.add(new Placed(m, bind.nodeName(), null, preferredMiss));
                }
                case SchedulingDecision.Unschedulable none -> placed.add(new Placed(m, null, none.message(), preferredMiss));
            }
        }
        return placed;
    }

    /** The node as the scheduler sees it once cordoned, with the same pods. */
    private static NodeState cordoned(NodeState s) {
        if (s.node().path("spec").path("unschedulable").asBoolean(false)) {
            return s;
        }
        ObjectNode node = s.node().deepCopy();
        spec(node).put("unschedulable", true);
        return new NodeState(node, s.pods(), s.requested(), s.nonZeroRequested(), s.podsWithAntiAffinity(),
                s.allocatable(), s.maxPods(), s.taints());
    }

    private static ObjectNode spec(ObjectNode object) {
        return object.get("spec") instanceof ObjectNode spec ? spec : object.putObject("spec");
    }

    private static String key(Pod p) {
        return p.getMetadata().getNamespace() + "/" + p.getMetadata().getName();
    }
}
