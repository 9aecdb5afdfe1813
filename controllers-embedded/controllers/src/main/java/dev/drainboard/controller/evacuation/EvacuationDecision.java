package dev.drainboard.controller.evacuation;

import dev.drainboard.architecture.Pure;
import dev.drainboard.kubevirt.DrainboardAnnotations;
import dev.drainboard.controller.migration.MigrationSlots;
import dev.drainboard.kubevirt.DeschedulerAnnotations;
import dev.drainboard.kubevirt.api.EvictionStrategy;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceMigration;
import dev.drainboard.kubevirt.config.ClusterConfig;
import dev.drainboard.runtime.Keys;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Taint;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * KubeVirt's evacuation {@code sync} for one node ({@code pkg/virt-controller/watch/drain/evacuation/evacuation.go}),
 * with the migration limits it applied up to v1.8 (docs/behaviour.md, "Evacuation throttle"): which VMIs to migrate
 * now, which to warn about, and when to look again. Pure.
 *
 * <pre>
 * candidates   every VMI on the node when it carries the drain taint (key nodeDrainTaintKey, effect NoSchedule),
 *              else the VMIs marked with status.evacuationNodeName == their node
 * skipped      final or deleted; not migratable-on-eviction (LiveMigrate, or LiveMigrateIfPossible while
 *              migratable); already has an unfinished VMIM; more than one active pod (old pods still going)
 * warned       LiveMigrate without LiveMigratable=True ("not migrateable"), at most once a minute each
 * free slots   {@link MigrationSlots}: min(parallelMigrationsPerCluster − in flight, parallelOutboundMigrationsPerNode
 *              − in flight from here), every unfinished VMIM in flight
 * fair share   when other nodes wait for the same cluster slots, the slots go one by one to the node with the most
 *              candidates left (then fewer in flight, then name): the nodes of a multi-node drain finish together
 *              instead of one node keeping its slots while another waits with all its VMIs for the end
 * no slot      wait; the controller re-queues the node when a migration ends, and after 5 s at the latest
 * </pre>
 *
 * <p>With the migration priority queue on ({@link ClusterConfig#migrationPriorityQueue()}: v1.9, or v1.7–v1.8 with
 * its gate) none of the throttling applies: every candidate gets its VMIM at once, with a priority, no warning is
 * recorded, and the migration controller holds the VMIMs Pending until their turn ({@link MigrationSlots#turns}).
 *
 * <p>"In flight" counts every unfinished VMIM, Pending ones too ({@link MigrationSlots#unfinished}, where it says
 * why): a VMIM this controller creates then always fits the limits.
 */
@Pure
public final class EvacuationDecision {

    /** KubeVirt's re-check when no slot is free. */
    public static final Duration NO_SLOT_RECHECK = Duration.ofSeconds(5);
    /** How often KubeVirt refreshes the "not migrateable" warning, so that it stays among the events. */
    public static final Duration WARNING_REFRESH = Duration.ofMinutes(1);

    /**
     * @param node             the node (its taints)
     * @param vmisOnNode       VMIs with {@code status.nodeName} == the node
     * @param unfinished       every VMIM in the cluster that is not final ({@link MigrationSlots#unfinished})
     * @param vmiNodes         {@code namespace/name} → {@code status.nodeName} of every VMI (to place in-flight VMIMs)
     * @param activePods       {@code namespace/name} of a VMI → pods of it neither Succeeded nor Failed
     * @param lastWarned       {@code namespace/name} → when the "not migrateable" event was last recorded
     */
    public record Input(Node node, List<VirtualMachineInstance> vmisOnNode, List<VirtualMachineInstanceMigration> unfinished,
                        Map<String, String> vmiNodes, Map<String, Integer> activePods, ClusterConfig config,
                        Map<String, Instant> lastWarned, Instant now, List<Rival> rivals) {

        /** A node with no other node waiting for a slot. */
        public Input(Node node, List<VirtualMachineInstance> vmisOnNode, List<VirtualMachineInstanceMigration> unfinished,
                     Map<String, String> vmiNodes, Map<String, Integer> activePods, ClusterConfig config,
                     Map<String, Instant> lastWarned, Instant now) {
            this(node, vmisOnNode, unfinished, vmiNodes, activePods, config, lastWarned, now, List.of());
        }
    }

    /** Another node waiting for a slot, with the number of its VMIs that could start migrating now. */
    public record Rival(String node, int candidates) {
    }

    /**
     * @param migrate      VMIs to create a VMIM for now, with the cause each VMIM records
     * @param warn         non-migratable candidates to record the warning on
     * @param waitForSlot  candidates are left that get no slot now (none is free, or rivals take them)
     * @param requeueAfter when to look again (null: only on events)
     * @param yieldTo      rivals given cluster slots this node could have used: they should look at once
     */
    public record Plan(List<Candidate> migrate, List<VirtualMachineInstance> warn, boolean waitForSlot,
                       Duration requeueAfter, List<String> yieldTo) {
        static final Plan NOTHING = new Plan(List.of(), List.of(), false, null, List.of());
    }

    public record Candidate(VirtualMachineInstance vmi, String cause) {
    }

    private EvacuationDecision() {
    }

    public static Plan decide(Input in) {
        String node = in.node().getMetadata().getName();
        Selection selection = select(in.node(), in.vmisOnNode(), migrating(in.unfinished()), in.activePods(), in.config());
        List<Candidate> candidates = selection.candidates();
        List<VirtualMachineInstance> notMigratable = selection.notMigratable();
        if (candidates.isEmpty() && notMigratable.isEmpty()) {
            return Plan.NOTHING;
        }

        if (in.config().migrationPriorityQueue()) {
            // KubeVirt v1.7+ with the queue on: no throttling here; every candidate gets its VMIM at once and the
            // migration controller starts them by priority within the limits. The non-migratable ones are left alone.
            return new Plan(List.copyOf(candidates), List.of(), false, null, List.of());
        }
        MigrationSlots.Limits limits = MigrationSlots.Limits.of(in.config().migrations());
        MigrationSlots.InFlight inFlight = MigrationSlots.inFlight(in.unfinished(), node, in.vmiNodes()::get);
        int freeSlots = limits.free(inFlight);
        if (freeSlots <= 0) {
            return new Plan(List.of(), List.of(), !candidates.isEmpty(), NO_SLOT_RECHECK, List.of());
        }
        int perNode = limits.perSourceNode();
        List<Claim> claims = new ArrayList<>();
        Claim self = new Claim(node, candidates.size(), inFlight.fromNode(), perNode);
        claims.add(self);
        for (Rival rival : in.rivals()) {
            if (!rival.node().equals(node)) {
                int fromRival = MigrationSlots.fromNode(in.unfinished(), rival.node(), in.vmiNodes()::get);
                claims.add(new Claim(rival.node(), rival.candidates(), fromRival, perNode));
            }
        }
        shareOut(claims, limits.freeInCluster(inFlight.inCluster()));
        List<Candidate> migrate = candidates.subList(0, Math.min(self.given, candidates.size()));
        if (migrate.size() < Math.min(freeSlots, candidates.size())) {
            // Rivals with more VMIs left take the cluster's slots: this node waits, they look at once.
            List<String> yieldTo = claims.stream().filter(c -> c != self && c.given > 0).map(c -> c.node).toList();
            return new Plan(List.copyOf(migrate), List.of(), true, NO_SLOT_RECHECK, yieldTo);
        }
        int left = freeSlots - migrate.size();
        List<VirtualMachineInstance> warn = notMigratable.subList(0, Math.min(left, notMigratable.size())).stream()
                .filter(vmi -> {
                    Instant last = in.lastWarned().get(Keys.of(vmi));
                    return last == null || !in.now().isBefore(last.plus(WARNING_REFRESH));
                })
                .toList();
        // Keep the warning in the event log while the VMIs stay: look again in a minute.
        Duration requeue = left > 0 && !notMigratable.isEmpty() ? WARNING_REFRESH : null;
        return new Plan(List.copyOf(migrate), warn, false, requeue, List.of());
    }

    /** What a node's pass would start: its candidates, in name order, and the LiveMigrate VMIs that cannot move. */
    record Selection(List<Candidate> candidates, List<VirtualMachineInstance> notMigratable) {
    }

    /** The number of VMIs on {@code node} that could start migrating now (for the node's {@link Rival}). */
    public static int candidateCount(Node node, List<VirtualMachineInstance> vmisOnNode,
                                     List<VirtualMachineInstanceMigration> unfinished, Map<String, Integer> activePods,
                                     ClusterConfig config) {
        return select(node, vmisOnNode, migrating(unfinished), activePods, config).candidates().size();
    }

    private static Set<String> migrating(List<VirtualMachineInstanceMigration> unfinished) {
        return unfinished.stream()
                .filter(m -> m.getSpec() != null && m.getSpec().getVmiName() != null)
                .map(m -> Keys.of(m.getMetadata().getNamespace(), m.getSpec().getVmiName()))
                .collect(Collectors.toSet());
    }

    private static Selection select(Node node, List<VirtualMachineInstance> vmisOnNode, Set<String> migrating,
                                    Map<String, Integer> activePods, ClusterConfig config) {
        String name = node.getMetadata().getName();
        boolean tainted = hasDrainTaint(node, config.migrations().nodeDrainTaintKey());
        List<Candidate> candidates = new ArrayList<>();
        List<VirtualMachineInstance> notMigratable = new ArrayList<>();
        vmisOnNode.stream().sorted(Comparator.comparing(Keys::of)).forEach(vmi -> {
            boolean marked = vmi.isMarkedForEviction() && name.equals(vmi.getStatus().getEvacuationNodeName());
            if (!tainted && !marked) {
                return;
            }
            if (vmi.isFinal() || vmi.getMetadata().getDeletionTimestamp() != null) {
                return;
            }
            if (!migratableOnEviction(config, vmi)) {
                return;
            }
            if (!vmi.isMigratable()) {
                notMigratable.add(vmi);
                return;
            }
            String key = Keys.of(vmi);
            if (migrating.contains(key) || activePods.getOrDefault(key, 0) > 1) {
                return;
            }
            candidates.add(new Candidate(vmi, cause(vmi, tainted && !marked)));
        });
        return new Selection(candidates, notMigratable);
    }

    /** One node's claim on the cluster's free slots. */
    static final class Claim {
        final String node;
        final int candidates;
        final int inFlight;
        final int room;
        int given;

        Claim(String node, int candidates, int inFlight, int perNode) {
            this.node = node;
            this.candidates = candidates;
            this.inFlight = inFlight;
            this.room = Math.max(0, perNode - inFlight);
        }

        boolean canTake() {
            return given < room && given < candidates;
        }
    }

    /**
     * Hands out {@code free} cluster slots one at a time, each to the claim with the most candidates still without a
     * slot; ties go to the node with fewer migrations in flight, then to the first name. Every pass computes the
     * same shares from the same state, so the nodes agree on who goes next.
     */
    static void shareOut(List<Claim> claims, int free) {
        Comparator<Claim> first = Comparator.<Claim>comparingInt(c -> c.candidates - c.given).reversed()
                .thenComparingInt(c -> c.inFlight + c.given)
                .thenComparing(c -> c.node);
        for (int slot = 0; slot < free; slot++) {
            Claim next = claims.stream().filter(Claim::canTake).min(first).orElse(null);
            if (next == null) {
                return;
            }
            next.given++;
        }
    }

    /**
     * Whether a change of this VMI can give its node's pass anything to do: only a VMI marked for evacuation, or one
     * on a node with the drain taint, is ever a candidate ({@code node} null: not known yet, its arrival queues it).
     */
    public static boolean concernsEvacuation(VirtualMachineInstance vmi, Node node, String taintKey) {
        return vmi.isMarkedForEviction() || (node != null && hasDrainTaint(node, taintKey));
    }

    /** The drain taint: key {@code nodeDrainTaintKey}, effect NoSchedule, any value. */
    public static boolean hasDrainTaint(Node node, String taintKey) {
        List<Taint> taints = node.getSpec() == null ? null : node.getSpec().getTaints();
        return taints != null && taints.stream()
                .anyMatch(t -> Objects.equals(taintKey, t.getKey()) && "NoSchedule".equals(t.getEffect()));
    }

    /**
     * As KubeVirt's {@code VMIMigratableOnEviction} ({@code pkg/util/migrations/migrations.go}): LiveMigrate always;
     * LiveMigrateIfPossible while migratable; None and External never.
     */
    public static boolean migratableOnEviction(ClusterConfig config, VirtualMachineInstance vmi) {
        EvictionStrategy strategy = config.evictionStrategyFor(vmi);
        return strategy == EvictionStrategy.LIVE_MIGRATE
                || (strategy == EvictionStrategy.LIVE_MIGRATE_IF_POSSIBLE && vmi.isMigratable());
    }

    /** Why the VMIM is made: the marker's own cause when it left one, else what marked the VMI. */
    static String cause(VirtualMachineInstance vmi, boolean byTaint) {
        if (byTaint) {
            return DrainboardAnnotations.CAUSE_NODE_DRAIN_TAINT;
        }
        Map<String, String> annotations = vmi.getMetadata().getAnnotations();
        String given = annotations == null ? null : annotations.get(DrainboardAnnotations.EVACUATION_CAUSE);
        if (given != null && !given.isBlank()) {
            return given;
        }
        if (DeschedulerAnnotations.evictedByDescheduler(vmi)) {
            return DrainboardAnnotations.CAUSE_DESCHEDULER;
        }
        return DrainboardAnnotations.CAUSE_API_EVICTION;
    }
}
