package dev.drainboard.ops.maintenance;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.drainboard.architecture.Pure;
import dev.drainboard.controller.migration.MigrationSlots;
import dev.drainboard.handler.NodeHandler;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.maintenance.MaintenancePlanStatus.VmNote;
import dev.drainboard.ops.DrainEstimate;
import dev.drainboard.ops.DrainInputs;
import dev.drainboard.ops.DrainPreview;
import dev.drainboard.ops.MigrationOverhead;
import dev.drainboard.ops.PlacementDecision;
import dev.drainboard.ops.PlacementInputs;
import dev.drainboard.ops.PodOutcome;
import dev.drainboard.ops.PodPreview;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The order in which to maintain nodes and where each VM goes, so that a VM moves once where possible.
 *
 * <p>Batch after batch ({@code maxUnavailable} nodes at a time) it takes the nodes whose VMs are cheapest to move
 * (fewest live migrations, then least memory: an empty node first), drains them on paper as {@link DrainPreview}
 * would, and places every VM that leaves with {@link PlacementDecision#place} on the nodes already maintained (or
 * outside the plan) first, and only where none fits on a node still to be maintained, which means it moves again at
 * that node's turn (listed in {@code movedMoreThanOnce} with why). The cluster it plans on changes as it goes: the
 * VMs sit where the plan sent them. A node holding a VM that cannot move (not live-migratable, strategy None or
 * External, nowhere to fit, or a pod kubectl would refuse to drain) is skipped, not drained, and its VMs are
 * {@code stranded} with why. Times come from {@link DrainEstimate} (the drain preview's estimate) per batch, the
 * batch's nodes drained together through the migration slots, plus a fixed after-drain pause; batches run one after
 * the other.
 */
@Pure
public final class MaintenancePlanDecision {

    private static final ObjectMapper JSON = new ObjectMapper();

    private MaintenancePlanDecision() {
    }

    /**
     * What a node's turn costs beyond its migrations, in seconds of the control plane's own (unscaled) time: the
     * executor's re-plan and status writes, the cordon, the migrations' creation, the drain of what is left after
     * them (the migrated VMIs' source pods ending, other pods evicted), the uncordon. Measured by
     * {@code MaintenanceBenchmark} (docs/benchmarks.md, "Rolling maintenance": a turn's actual time less its
     * predicted migrations). A time-scaled cluster does not shorten it, so in real time it counts
     * {@link dev.drainboard.kubevirt.config.ClusterConfig#timeScale} times.
     */
    public static final double TURN_SECONDS = 1.3;

    public static MaintenancePlanPreview decide(MaintenanceInputs in) {
        return new Planning(in).run(false);
    }

    /**
     * Only the first batch of {@code in.order()} (a running plan's next turn): the same targets as {@link #decide}
     * gives it (a batch's placement depends on the batches before it only), without working out every later batch.
     */
    public static MaintenancePlanPreview decideNext(MaintenanceInputs in) {
        if (in.order().isEmpty()) {
            throw new IllegalArgumentException("decideNext needs the order of the batches left");
        }
        return new Planning(in).run(true);
    }

    /** The simulated cluster and what has been decided so far. */
    private static final class Planning {
        private final MaintenanceInputs in;
        private final Map<String, Pod> pods = new LinkedHashMap<>();
        private final Map<String, VirtualMachineInstance> vmis = new LinkedHashMap<>();
        private final Set<String> maintained;
        private final Set<String> outsidePlan = new LinkedHashSet<>();
        private final Map<String, List<String>> hops = new LinkedHashMap<>();
        private final Map<String, List<String>> againBecause = new LinkedHashMap<>();
        private final List<VmNote> stranded = new ArrayList<>();
        private final List<MaintenancePlanPreview.NodePlan> nodePlans = new ArrayList<>();
        private final List<List<String>> batches = new ArrayList<>();
        private final MigrationOverhead.Observed overhead;
        private int migrations;
        private double clock;

        Planning(MaintenanceInputs in) {
            this.in = in;
            in.cluster().pods().forEach(p -> pods.put(key(p.getMetadata().getNamespace(), p.getMetadata().getName()), p));
            in.vmis().forEach(v -> vmis.put(key(v.getMetadata().getNamespace(), v.getMetadata().getName()), v));
            maintained = new LinkedHashSet<>(in.maintained());
            Set<String> plan = new HashSet<>(in.nodes());
            for (Node n : in.cluster().nodes()) {
                if (!plan.contains(n.getMetadata().getName())) {
                    outsidePlan.add(n.getMetadata().getName());
                }
            }
            overhead = in.nodes().isEmpty() ? MigrationOverhead.NONE
                    : DrainPreview.overhead(List.of(drainInputs(in.nodes().getFirst())), in.cluster());
        }

        MaintenancePlanPreview run(boolean firstOnly) {
            List<String> remaining = new ArrayList<>(in.nodes().stream().distinct().filter(n -> !maintained.contains(n)).toList());
            List<List<String>> fixed = new ArrayList<>(in.order());
            while (!remaining.isEmpty()) {
                List<String> batch;
                if (!fixed.isEmpty()) {
                    batch = fixed.removeFirst().stream().filter(remaining::contains).toList();
                    if (batch.isEmpty()) {
                        continue;
                    }
                } else {
                    batch = choose(remaining);
                }
                maintain(batch);
                remaining.removeAll(batch);
                if (firstOnly) {
                    break;
                }
            }
            List<MaintenancePlanPreview.VmPlan> vms = new ArrayList<>();
            List<VmNote> again = new ArrayList<>();
            hops.forEach((vmi, h) -> {
                int slash = vmi.indexOf('/');
                String ns = vmi.substring(0, slash);
                String name = vmi.substring(slash + 1);
                vms.add(new MaintenancePlanPreview.VmPlan(ns, name, h));
                if (h.size() > 2) {
                    again.add(new VmNote(ns, name, h.getFirst(), "moves " + (h.size() - 1) + " times ("
                            + String.join(" → ", h) + "): " + String.join("; ", againBecause.getOrDefault(vmi, List.of()))));
                }
            });
            return new MaintenancePlanPreview(batches, nodePlans, vms, migrations, clock, again, stranded);
        }

        /**
         * The next batch: the nodes cheapest to drain now, those that would be skipped last (their turn changes
         * nothing), then the order given.
         */
        private List<String> choose(List<String> remaining) {
            record Cost(String node, boolean skipped, int vmis, long memory, int index) {
            }
            List<Cost> costs = new ArrayList<>();
            for (int i = 0; i < remaining.size(); i++) {
                String node = remaining.get(i);
                DrainInputs di = drainInputs(node);
                DrainPreview preview = DrainPreview.compute(di);
                int count = 0;
                long memory = 0;
                for (PodPreview p : preview.pods()) {
                    if (p.outcome() == PodOutcome.LIVE_MIGRATION && p.vmi() != null) {
                        VirtualMachineInstance vmi = vmis.get(key(p.namespace(), p.vmi()));
                        if (vmi != null) {
                            count++;
                            memory += NodeHandler.definitionOf(vmi).memoryBytes();
                        }
                    }
                }
                costs.add(new Cost(node, !skipReasons(preview, di).isEmpty(), count, memory, i));
            }
            costs.sort(Comparator.comparing(Cost::skipped).thenComparingInt(Cost::vmis).thenComparingLong(Cost::memory)
                    .thenComparingInt(Cost::index));
            return costs.stream().limit(in.maxUnavailable()).map(Cost::node).toList();
        }

        /** One batch on paper: what cannot move skips its node; the rest moves, and the batch's time is worked out. */
        private void maintain(List<String> batch) {
            Map<String, String> skipped = new LinkedHashMap<>();
            Map<String, List<VmNote>> strandedOf = new LinkedHashMap<>();
            List<PlacementDecision.Placed> placed;
            Map<String, DrainInputs> inputs = new LinkedHashMap<>();
            Map<String, DrainPreview> previews = new LinkedHashMap<>();
            while (true) {
                List<String> active = batch.stream().filter(n -> !skipped.containsKey(n)).toList();
                List<PlacementDecision.Move> moves = new ArrayList<>();
                Map<PlacementDecision.Move, String> nodeOf = new HashMap<>();
                for (String node : active) {
                    DrainInputs di = inputs.computeIfAbsent(node, this::drainInputs);
                    DrainPreview preview = previews.computeIfAbsent(node, n -> DrainPreview.compute(di));
                    List<VmNote> why = skipReasons(preview, di);
                    if (!why.isEmpty()) {
                        skipped.put(node, skipMessage(why));
                        strandedOf.put(node, why);
                        continue;
                    }
                    for (PodPreview p : preview.pods()) {
                        DrainPreview.move(p, di).ifPresent(m -> {
                            moves.add(m);
                            nodeOf.put(m, node);
                        });
                    }
                }
                Set<String> drained = new HashSet<>(batch.stream().filter(n -> !skipped.containsKey(n)).toList());
                Set<String> preferred = new HashSet<>(maintained);
                preferred.addAll(outsidePlan);
                preferred.removeAll(drained);
                placed = PlacementDecision.place(in.cluster().nodes(), List.copyOf(pods.values()), drained, moves, preferred);
                boolean again = false;
                for (PlacementDecision.Placed p : placed) {
                    if (p.stranded()) {
                        String node = nodeOf.get(p.move());
                        String what = p.move().migration() ? "no node can take its migration target pod: "
                                : "its replacement has nowhere to run: ";
                        strandedOf.computeIfAbsent(node, n -> new ArrayList<>()).add(new VmNote(p.move().namespace(),
                                p.move().name(), node, what + p.message()));
                        if (!skipped.containsKey(node)) {
                            skipped.put(node, null);
                            again = true;
                        }
                    }
                }
                if (!again) {
                    break;
                }
                // A node left out changes what the others' moves meet: place them again without it.
                skipped.replaceAll((n, m) -> m == null ? skipMessage(strandedOf.get(n)) : m);
            }
            skipped.replaceAll((n, m) -> m == null ? skipMessage(strandedOf.get(n)) : m);
            strandedOf.forEach((node, notes) -> notes.forEach(note -> stranded.add(new VmNote(note.namespace(),
                    note.name(), note.node(), note.reason() + "; node " + node + " is skipped (not drained)"))));

            int batchIndex = batches.size();
            batches.add(List.copyOf(batch));
            Map<String, List<MaintenancePlanPreview.Migration>> migrationsOf = new LinkedHashMap<>();
            Map<String, List<DrainEstimate.Transfer>> transfersOf = new LinkedHashMap<>();
            for (String node : batch) {
                migrationsOf.put(node, new ArrayList<>());
                transfersOf.put(node, new ArrayList<>());
            }
            Map<String, Map<String, String>> nodeAnnotations = new HashMap<>();
            in.cluster().nodes().forEach(n -> nodeAnnotations.put(n.getMetadata().getName(),
                    n.getMetadata().getAnnotations() == null ? Map.of() : n.getMetadata().getAnnotations()));
            for (PlacementDecision.Placed p : placed) {
                Pod leaving = p.move().leaving();
                String from = leaving.getSpec().getNodeName();
                String podKey = key(leaving.getMetadata().getNamespace(), leaving.getMetadata().getName());
                Pod landed = copy(leaving, Pod.class);
                landed.getSpec().setNodeName(p.node());
                pods.put(podKey, landed);
                if (!p.move().migration()) {
                    continue;
                }
                String vmiKey = key(p.move().namespace(), p.move().name());
                VirtualMachineInstance vmi = vmis.get(vmiKey);
                transfersOf.get(from).add(DrainPreview.transfer(from, vmi, in.config().migrations(),
                        nodeAnnotations.get(from), in.cluster()));
                VirtualMachineInstance moved = copy(vmi, VirtualMachineInstance.class);
                moved.getStatus().setNodeName(p.node());
                vmis.put(vmiKey, moved);
                migrations++;
                migrationsOf.get(from).add(new MaintenancePlanPreview.Migration(p.move().namespace(), p.move().name(), from, p.node()));
                hops.computeIfAbsent(vmiKey, k -> new ArrayList<>(List.of(from))).add(p.node());
                if (!maintained.contains(p.node()) && !outsidePlan.contains(p.node())) {
                    againBecause.computeIfAbsent(vmiKey, k -> new ArrayList<>()).add("when " + from + " is drained "
                            + (p.preferredMiss() == null ? "no node is maintained yet"
                            : "no maintained node can take it (" + p.preferredMiss() + ")")
                            + ", so it goes to " + p.node() + ", maintained later");
                }
            }
            List<List<DrainEstimate.Transfer>> byNode = new ArrayList<>(transfersOf.values());
            DrainEstimate.Estimate estimate = DrainEstimate.of(MigrationSlots.interleaved(byNode),
                    MigrationSlots.Limits.of(in.config().migrations()), overhead);
            double pause = in.afterDrain().toMillis() / 1000.0 + TURN_SECONDS * in.config().timeScale();
            double longest = 0;
            for (String node : batch) {
                String skip = skipped.get(node);
                double seconds = skip != null ? 0 : estimate.forNode(node) + pause;
                longest = Math.max(longest, seconds);
                int evictions = skip != null ? 0 : (int) previews.get(node).toEvict().stream()
                        .filter(p -> p.outcome() != PodOutcome.LIVE_MIGRATION).count();
                nodePlans.add(new MaintenancePlanPreview.NodePlan(node, batchIndex, skip, clock, seconds,
                        migrationsOf.get(node), evictions));
                if (skip == null) {
                    maintained.add(node);
                }
            }
            clock += longest;
        }

        /** Why this node's drain would leave a VM behind or not start at all (empty: it can be drained). */
        private List<VmNote> skipReasons(DrainPreview preview, DrainInputs di) {
            List<VmNote> why = new ArrayList<>();
            for (String error : preview.errors()) {
                why.add(new VmNote("", "", di.node(), "the drain refuses to start: " + error));
            }
            for (var b : preview.blockers()) {
                why.add(new VmNote(b.namespace(), b.name(), di.node(), b.reason()));
            }
            Set<String> listed = new HashSet<>();
            preview.blockers().forEach(b -> listed.add(key(b.namespace(), b.name())));
            for (PodPreview p : preview.pods()) {
                boolean shutDown = switch (p.outcome()) {
                    case EVICTED_VM_RESTARTS, EVICTED_VMI_LOST, EVICTED_VMI_REPLACED, REFUSED -> true;
                    default -> false;
                };
                if (shutDown && p.vmi() != null && listed.add(key(p.namespace(), p.vmi()))) {
                    why.add(new VmNote(p.namespace(), p.vmi(), di.node(), "cannot live-migrate: " + p.reason()));
                }
            }
            return why;
        }

        private static String skipMessage(List<VmNote> why) {
            List<String> names = why.stream().filter(n -> !n.name().isEmpty()).map(n -> n.namespace() + "/" + n.name()).toList();
            if (names.isEmpty()) {
                return why.isEmpty() ? "skipped" : why.getFirst().reason();
            }
            return "skipped: " + (names.size() == 1 ? "VMI " : "VMIs ") + String.join(", ", names) + " cannot move";
        }

        private DrainInputs drainInputs(String node) {
            List<Pod> onNode = pods.values().stream()
                    .filter(p -> p.getSpec() != null && node.equals(p.getSpec().getNodeName())).toList();
            return new DrainInputs(node, onNode, List.copyOf(vmis.values()), in.vms(), in.budgets(), in.config(),
                    in.options(), in.now(), in.migrations());
        }
    }

    static String key(String namespace, String name) {
        return namespace + "/" + name;
    }

    private static <T> T copy(T object, Class<T> type) {
        return JSON.convertValue(object, type);
    }

    /** A node's planned targets, VMI ({@code namespace/name}) → node; empty when the node is not in the plan. */
    public static Map<String, String> targets(MaintenancePlanPreview plan, String node) {
        return plan.node(node).map(MaintenancePlanPreview.NodePlan::targets).orElse(Map.of());
    }

}
