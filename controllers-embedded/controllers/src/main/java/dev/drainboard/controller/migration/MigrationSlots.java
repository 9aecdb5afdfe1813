package dev.drainboard.controller.migration;

import dev.drainboard.architecture.Pure;
import dev.drainboard.kubevirt.api.MigrationPhase;
import dev.drainboard.kubevirt.KubeVirtValues;
import dev.drainboard.kubevirt.api.MigrationState;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceMigration;
import dev.drainboard.kubevirt.config.MigrationConfig;
import dev.drainboard.runtime.Keys;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * The migration limits ({@code parallelMigrationsPerCluster}, {@code parallelOutboundMigrationsPerNode}): which
 * VMIMs take a slot, which node a migration leaves from, and how many slots are free. The one place both the
 * evacuation controller (before it creates VMIMs) and the migration controller (before it starts one) count;
 * the drain estimate is meant to count here too. Pure: callers read the caches and pass what they found.
 *
 * <pre>
 * standing of a VMIM
 *   FINISHED  Succeeded or Failed
 *   STARTED   past Pending, or no phase / Pending with its target pod created
 *   QUEUED    no phase / Pending without a target pod; WaitingForSync, Synchronizing (decentralized, not ours)
 * what takes a slot
 *   before a migration starts (its target pod is created)   the STARTED ones, itself excluded
 *   before the evacuation creates a VMIM                    every unfinished one, QUEUED too (queue off only:
 *                                                           with the priority queue it creates them all at once)
 * free slots = min(parallelMigrationsPerCluster − in the cluster, parallelOutboundMigrationsPerNode − from the node)
 * priority queue: the QUEUED VMIMs take the free slots in queue order ({@link #turns})
 * </pre>
 *
 * <p>The first rule is KubeVirt's ({@code findRunningMigrations} in pkg/virt-controller/watch/migration/migration.go:
 * a VMIM that {@code IsRunning}, or one whose target pods exist). The evacuation counts queued VMIMs too, where
 * KubeVirt's evacuation controller counts only running ones and lets the migration controller hold the rest back:
 * that way a VMIM it creates always fits the limits, and at no moment do more VMIMs wait than there are slots.
 *
 * <p>Both controllers pass the VMIMs of {@code FreshMigrations}: the cache plus this process's own writes it does not
 * show yet, so a VMIM just created or just finished counts (or stops counting) at once. The migration controller
 * likewise counts a target pod as created from the moment its create returned, before the pod cache shows it.
 */
@Pure
public final class MigrationSlots {

    /** Where a VMIM stands towards the limits. */
    public enum Standing {
        FINISHED, QUEUED, STARTED
    }

    /** The two limits, from the cluster's migration configuration. */
    public record Limits(int perCluster, int perSourceNode) {

        public static Limits of(MigrationConfig config) {
            return new Limits(config.parallelMigrationsPerCluster(), config.parallelOutboundMigrationsPerNode());
        }

        /** Slots the cluster has left (negative when more migrations run than allowed). */
        public int freeInCluster(int inCluster) {
            return perCluster - inCluster;
        }

        /** Slots a source node has left (negative when more migrations leave it than allowed). */
        public int freeOnNode(int fromNode) {
            return perSourceNode - fromNode;
        }

        /** Migrations that may start from the node now; zero or less: none. */
        public int free(InFlight inFlight) {
            return Math.min(freeInCluster(inFlight.inCluster()), freeOnNode(inFlight.fromNode()));
        }
    }

    /** Slots taken: in the whole cluster, and by migrations leaving one node. */
    public record InFlight(int inCluster, int fromNode) {
    }

    private MigrationSlots() {
    }

    /**
     * @param targetPodCreated the VMIM's target pod exists (in the pod cache, or created by this process and not
     *                         yet seen there); only asked for a VMIM that has not gone past Pending
     */
    public static Standing standing(VirtualMachineInstanceMigration m, Predicate<VirtualMachineInstanceMigration> targetPodCreated) {
        MigrationPhase phase = m.phase().orElse(null);
        if (phase == null || phase == MigrationPhase.PENDING) {
            return targetPodCreated.test(m) ? Standing.STARTED : Standing.QUEUED;
        }
        if (phase.isFinal()) {
            return Standing.FINISHED;
        }
        return phase == MigrationPhase.WAITING_FOR_SYNC || phase == MigrationPhase.SYNCHRONIZING ? Standing.QUEUED : Standing.STARTED;
    }

    /** What a migration about to start counts: the started VMIMs (leave the one deciding out of {@code migrations}). */
    public static List<VirtualMachineInstanceMigration> started(Collection<VirtualMachineInstanceMigration> migrations,
                                                                Predicate<VirtualMachineInstanceMigration> targetPodCreated) {
        return migrations.stream().filter(m -> standing(m, targetPodCreated) == Standing.STARTED).toList();
    }

    /** What the evacuation counts before it creates VMIMs: every unfinished VMIM, started or queued. */
    public static List<VirtualMachineInstanceMigration> unfinished(Collection<VirtualMachineInstanceMigration> migrations) {
        return migrations.stream().filter(m -> !m.isFinal()).toList();
    }

    /**
     * The slots {@code holding} take, in the cluster and from {@code node}.
     *
     * @param nodeOfVmi the node a VMI ({@code namespace/name}) runs on, null when unknown
     */
    public static InFlight inFlight(Collection<VirtualMachineInstanceMigration> holding, String node,
                                    Function<String, String> nodeOfVmi) {
        return new InFlight(holding.size(), fromNode(holding, node, nodeOfVmi));
    }

    /** How many of {@code holding} move a VMI away from {@code node}. */
    public static int fromNode(Collection<VirtualMachineInstanceMigration> holding, String node, Function<String, String> nodeOfVmi) {
        if (node == null) {
            return 0;
        }
        return (int) holding.stream().filter(m -> node.equals(sourceNode(m, nodeOfVmi))).count();
    }

    /**
     * The node a VMIM moves its VMI away from: the migration state's source node once the hand-off wrote it (the VMI
     * may have moved on since), else the node its VMI runs on now; null when neither is known.
     */
    public static String sourceNode(VirtualMachineInstanceMigration m, Function<String, String> nodeOfVmi) {
        MigrationState state = m.getStatus() == null ? null : m.getStatus().getMigrationState();
        if (state != null && state.getSourceNode() != null) {
            return state.getSourceNode();
        }
        if (m.getSpec() == null || m.getSpec().getVmiName() == null) {
            return null;
        }
        return nodeOfVmi.apply(Keys.of(m.getMetadata().getNamespace(), m.getSpec().getVmiName()));
    }

    /**
     * A VMIM waiting in the migration priority queue: its key, its queue priority
     * ({@link KubeVirtValues#queuePriority}), when it was created (to the second), its place in the order VMIMs reached
     * the controller (0 when unknown), and the node it would leave (null when unknown).
     */
    public record Queued(String key, int priority, String created, long arrival, String sourceNode) {

        public Queued(String key, int priority, String created, String sourceNode) {
            this(key, priority, created, 0, sourceNode);
        }

        /** The queue's view of a VMIM ({@code nodeOfVmi} as for {@link #sourceNode}). */
        public static Queued of(VirtualMachineInstanceMigration m, Function<String, String> nodeOfVmi) {
            return new Queued(Keys.of(m), KubeVirtValues.queuePriority(m.getSpec() == null ? null : m.getSpec().getPriority()),
                    Objects.requireNonNullElse(m.getMetadata().getCreationTimestamp(), ""), MigrationSlots.sourceNode(m, nodeOfVmi));
        }

        /** As {@link #of(VirtualMachineInstanceMigration, Function)}, with its place in the order of arrival. */
        public static Queued of(VirtualMachineInstanceMigration m, Function<String, String> nodeOfVmi, long arrival) {
            Queued q = of(m, nodeOfVmi);
            return new Queued(q.key(), q.priority(), q.created(), arrival, q.sourceNode());
        }
    }

    /** Why a queued VMIM does not start now; {@code RUNS} when it does. */
    public enum Wait {
        RUNS, CLUSTER_LIMIT, SOURCE_NODE_LIMIT
    }

    /**
     * A queued VMIM's turn: where it stands in the queue (0 first) and whether it starts now or what holds it.
     *
     * @param ahead how many queued VMIMs before it start now (so take slots it might have had)
     */
    public record Turn(Queued vmim, int position, Wait reason, int ahead) {
        public boolean runs() {
            return reason == Wait.RUNS;
        }
    }

    /**
     * The queue order of the migration priority queue: higher priority first (KubeVirt's controller-runtime priority
     * queue in pkg/virt-controller/watch/migration/migration.go), then the older VMIM, then the first to reach the
     * controller, then the name. KubeVirt sorts by priority alone ({@code reEnqueueHighestPriorityPendingMigrations}),
     * so equals come in no set order there; first come, first served here lets migrations created one node after
     * another in turn ({@link #interleaved}) share the slots between those nodes.
     */
    public static final Comparator<Queued> QUEUE_ORDER = Comparator.comparingInt(Queued::priority).reversed()
            .thenComparing(Queued::created)
            .thenComparingLong(Queued::arrival)
            .thenComparing(Queued::key);

    /**
     * The nodes' migrations in turns, one of each node at a time: the order in which nodes drained together share
     * the cluster's slots (the evacuation gives each node its share; with the priority queue the migrations of all
     * nodes are created side by side as the evictions mark their VMIs). The drain estimate starts its transfers in this order, and a maintenance plan's executor
     * creates a batch's migrations in it. Node after node instead would keep the last node's migrations waiting while
     * the first ones hold their per-node slots.
     */
    public static <T> List<T> interleaved(List<? extends List<? extends T>> byNode) {
        List<T> out = new ArrayList<>();
        int longest = byNode.stream().mapToInt(List::size).max().orElse(0);
        for (int round = 0; round < longest; round++) {
            for (List<? extends T> node : byNode) {
                if (round < node.size()) {
                    out.add(node.get(round));
                }
            }
        }
        return out;
    }

    /**
     * Which queued VMIMs start now and why the others wait, with the migration priority queue on: in
     * {@link #QUEUE_ORDER}, each takes a slot while the cluster and its source node have one left after the started
     * migrations and those before it; one whose node is full does not hold back those behind it from other nodes.
     * The migration controller lets a Pending VMIM create its target pod only when its turn {@link Turn#runs()}; the
     * drain estimate starts its transfers the same way; a view saying why a VMIM is Pending can read the same turns.
     *
     * @param queued           Pending VMIMs without a target pod, ready to start but for the limits (any order)
     * @param startedInCluster the started migrations ({@link #started})
     * @param startedFromNode  of those, how many leave a node
     * @return every queued VMIM's turn, in queue order
     */
    public static List<Turn> turns(Collection<Queued> queued, int startedInCluster, Map<String, Integer> startedFromNode,
                                   Limits limits) {
        List<Queued> order = queued.stream().sorted(QUEUE_ORDER).toList();
        Map<String, Integer> fromNode = new HashMap<>(startedFromNode);
        int inCluster = startedInCluster;
        int runs = 0;
        List<Turn> turns = new ArrayList<>(order.size());
        for (int i = 0; i < order.size(); i++) {
            Queued q = order.get(i);
            Wait wait;
            if (limits.freeInCluster(inCluster) <= 0) {
                wait = Wait.CLUSTER_LIMIT;
            } else if (q.sourceNode() != null && limits.freeOnNode(fromNode.getOrDefault(q.sourceNode(), 0)) <= 0) {
                wait = Wait.SOURCE_NODE_LIMIT;
            } else {
                wait = Wait.RUNS;
            }
            turns.add(new Turn(q, i, wait, runs));
            if (wait == Wait.RUNS) {
                runs++;
                inCluster++;
                if (q.sourceNode() != null) {
                    fromNode.merge(q.sourceNode(), 1, Integer::sum);
                }
            }
        }
        return turns;
    }

    /** How many of {@code holding} leave each node (keys: nodes; VMIMs of unknown node left out). */
    public static Map<String, Integer> byNode(Collection<VirtualMachineInstanceMigration> holding, Function<String, String> nodeOfVmi) {
        Map<String, Integer> byNode = new HashMap<>();
        for (VirtualMachineInstanceMigration m : holding) {
            String node = sourceNode(m, nodeOfVmi);
            if (node != null) {
                byNode.merge(node, 1, Integer::sum);
            }
        }
        return byNode;
    }

    /**
     * The Pending VMIMs to look at again when a migration ends, with the queue on: the first {@code limit}
     * ({@code parallelMigrationsPerCluster}) in queue order (KubeVirt's {@code reEnqueueHighestPriorityPendingMigrations}).
     */
    public static List<String> nextInQueue(Collection<Queued> pending, int limit) {
        return pending.stream().sorted(QUEUE_ORDER).limit(Math.max(0, limit)).map(Queued::key).toList();
    }
}
