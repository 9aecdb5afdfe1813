package dev.drainboard.controller.maintenance;

import dev.drainboard.kubevirt.DrainboardAnnotations;
import dev.drainboard.kubevirt.api.MigrationPhase;
import dev.drainboard.controller.migration.MigrationSlots;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceMigration;
import dev.drainboard.maintenance.MaintenancePlan;
import dev.drainboard.maintenance.MaintenancePlanSpec;
import dev.drainboard.maintenance.MaintenancePlanSpec.AfterDrain;
import dev.drainboard.maintenance.MaintenancePlanStatus;
import dev.drainboard.maintenance.MaintenancePlanStatus.NodePhase;
import dev.drainboard.maintenance.MaintenancePlanStatus.NodeStatus;
import dev.drainboard.maintenance.MaintenancePlanStatus.Phase;
import dev.drainboard.runtime.ControllerManager;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.HttpURLConnection;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Follows maintenance plans while this process leads: one loop thread that, whenever something it waits for changes
 * (a plan, one of the plans' migrations, a node's drain ending, an after-drain pause running out; and every
 * {@link #RESYNC} to catch what no event says, such as an annotation on a node), reads each plan and moves each node
 * of its current batch on as far as it can go (cordon and the plan's migrations; the drain of what is left; the
 * after-drain step; uncordon), and starts the next batch in the same pass once the current one is over. The status is
 * written after every pass, and before a node is cordoned (so {@code cordonedByPlan} survives the leader's death at any
 * point). All state is in the plan's status and the cluster (the plan's migrations carry its name), so a new leader
 * carries on where the last one stopped; only a node's running drain is in memory, and it is simply started again.
 * A started plan holds the finalizer {@link MaintenancePlan#FINALIZER} until it ends: deleting it mid-run aborts it
 * first (docs/maintenance.md).
 */
public final class MaintenanceController implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(MaintenanceController.class);
    /** The look without an event: for what no watched object announces (a node's annotation, a missed event). */
    static final Duration RESYNC = Duration.ofSeconds(2);

    private final KubernetesClient client;
    private final SharedIndexInformer<VirtualMachineInstanceMigration> migrations;
    /** A pass is queued and has not started yet: events arriving meanwhile are folded into it. */
    private final AtomicBoolean queued = new AtomicBoolean();
    private volatile boolean leader;
    private final MaintenanceActions actions;
    private final Clock clock;
    private final ScheduledExecutorService loop = Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().daemon().name("maintenance-plans").factory());

    // Loop thread only.
    private ScheduledFuture<?> ticking;
    /** Running drains by plan and node. */
    private final Map<String, MaintenanceActions.Drain> drains = new HashMap<>();
    /** Migrations this process created for a node's turn (by plan and node), until its informer has seen them. */
    private final Map<String, Set<String>> created = new HashMap<>();
    private boolean unavailableSaid;

    MaintenanceController(KubernetesClient client, SharedIndexInformer<VirtualMachineInstanceMigration> migrations,
                          MaintenanceActions actions, Clock clock) {
        this.client = client;
        this.migrations = migrations;
        this.actions = actions;
        this.clock = clock;
    }

    /** Runs the loop while {@code manager} leads. */
    public static MaintenanceController register(ControllerManager manager,
                                                 SharedIndexInformer<VirtualMachineInstanceMigration> migrations,
                                                 SharedIndexInformer<MaintenancePlan> plans,
                                                 MaintenanceActions actions) {
        MaintenanceController controller = new MaintenanceController(manager.client(), migrations, actions, Clock.systemUTC());
        migrations.addEventHandler(controller.kicker(m -> m.getMetadata().getAnnotations() != null
                && m.getMetadata().getAnnotations().containsKey(DrainboardAnnotations.MAINTENANCE_PLAN)));
        if (plans != null) {
            plans.addEventHandler(controller.kicker(p -> true));
        }
        manager.onLeadershipChange(controller::leading);
        return controller;
    }

    private <T> ResourceEventHandler<T> kicker(java.util.function.Predicate<T> relevant) {
        return new ResourceEventHandler<>() {
            @Override
            public void onAdd(T obj) {
                if (relevant.test(obj)) {
                    kick();
                }
            }

            @Override
            public void onUpdate(T before, T after) {
                if (relevant.test(after)) {
                    kick();
                }
            }

            @Override
            public void onDelete(T obj, boolean finalStateUnknown) {
                if (relevant.test(obj)) {
                    kick();
                }
            }
        };
    }

    /** Queues a pass over the plans (one at most waits: a pass reads everything afresh). */
    void kick() {
        if (leader && queued.compareAndSet(false, true)) {
            try {
                loop.execute(() -> {
                    queued.set(false);
                    if (leader) {
                        tickSafely();
                    }
                });
            } catch (RejectedExecutionException e) {
                // closed
            }
        }
    }

    void leading(boolean leader) {
        this.leader = leader;
        try {
            loop.execute(() -> {
                if (leader && ticking == null) {
                    unavailableSaid = false;
                    ticking = loop.scheduleWithFixedDelay(this::kick, 0, RESYNC.toMillis(), TimeUnit.MILLISECONDS);
                } else if (!leader && ticking != null) {
                    ticking.cancel(false);
                    ticking = null;
                    created.clear();
                    // The new leader starts them again; two drains of one node would only repeat evictions.
                    drains.values().forEach(MaintenanceActions.Drain::cancel);
                    drains.clear();
                }
            });
        } catch (RejectedExecutionException e) {
            // closed
        }
    }

    private void tickSafely() {
        try {
            tick();
        } catch (KubernetesClientException e) {
            if ((e.getCode() == HttpURLConnection.HTTP_NOT_FOUND || e.getCode() == HttpURLConnection.HTTP_FORBIDDEN)) {
                if (!unavailableSaid) {
                    LOG.info("maintenance plans are not followed: {}", e.getMessage());
                    unavailableSaid = true;
                }
            } else {
                LOG.warn("maintenance plans: {}", e.getMessage());
            }
        } catch (RuntimeException e) {
            LOG.warn("maintenance plans failed", e);
        }
    }

    private void tick() {
        if (!migrations.hasSynced()) {
            return;
        }
        List<MaintenancePlan> plans = client.resources(MaintenancePlan.class).list().getItems();
        Set<String> names = new HashSet<>();
        for (MaintenancePlan plan : plans) {
            names.add(plan.name());
            try {
                if (plan.finished()) {
                    release(plan);
                    continue;
                }
                if (plan.getMetadata().getDeletionTimestamp() != null) {
                    deleted(plan);
                    continue;
                }
                reconcile(plan);
            } catch (KubernetesClientException e) {
                LOG.warn("maintenance plan {}: {}", plan.name(), e.getMessage());
            } catch (RuntimeException e) {
                LOG.warn("maintenance plan {} failed", plan.name(), e);
            }
        }
        drains.keySet().removeIf(k -> {
            boolean gone = !names.contains(k.substring(0, k.indexOf('/')));
            if (gone) {
                drains.get(k).cancel();
            }
            return gone;
        });
    }

    private void reconcile(MaintenancePlan plan) {
        MaintenancePlanSpec spec = plan.getSpec();
        MaintenancePlanStatus status = plan.getStatus();
        MaintenancePlanSpec.Action action = spec == null ? MaintenancePlanSpec.Action.Run : spec.actionOrRun();
        if (status == null || status.phase() == null || status.phase() == Phase.Planning) {
            start(plan, action);
            return;
        }
        if (action == MaintenancePlanSpec.Action.Abort || status.phase() == Phase.Aborting) {
            if (abort(plan)) {
                release(plan);
            }
            return;
        }
        Working w = new Working(plan);
        w.countMigrations();
        if (action == MaintenancePlanSpec.Action.Pause) {
            // Nothing new starts; migrations and drains under way go on.
            w.phase = Phase.Paused;
            w.message = "paused: no node takes a further step until spec.action is Run again";
            w.write();
            return;
        }
        if (w.phase == Phase.Paused) {
            w.phase = Phase.Running;
            w.message = "resumed";
        }
        w.advance();
        w.write();
        if (w.phase.finished()) {
            release(plan);
        }
    }

    /** A new plan: checked, its nodes found, worked out, and written as Running (or Paused) with every node Waiting. */
    private void start(MaintenancePlan plan, MaintenancePlanSpec.Action action) {
        MaintenancePlanSpec spec = plan.getSpec();
        String now = time(clock.instant());
        if (action == MaintenancePlanSpec.Action.Abort) {
            writeStatus(plan, new MaintenancePlanStatus(Phase.Aborted, "aborted before it started", null, null, null,
                    List.of(), 0, now, now));
            return;
        }
        String invalid = spec == null ? "spec is missing" : spec.invalidBecause();
        List<String> nodes = null;
        if (invalid == null) {
            try {
                nodes = actions.nodes(spec);
            } catch (IllegalArgumentException e) {
                invalid = e.getMessage();
            }
        }
        if (invalid != null) {
            writeStatus(plan, new MaintenancePlanStatus(Phase.Failed, invalid, null, null, null, List.of(), 0, now, now));
            return;
        }
        MaintenanceActions.Planned planned = actions.plan(spec, nodes, Set.of(), List.of());
        List<NodeStatus> nodeStatuses = new ArrayList<>();
        for (List<String> batch : planned.plan().batches()) {
            for (String node : batch) {
                MaintenanceActions.NodePart part = planned.node(node);
                nodeStatuses.add(new NodeStatus(node, part.batch(), NodePhase.Waiting, null,
                        part.predictedStartSeconds(), part.predictedSeconds(), null, null, null, null,
                        part.targets().size(), 0, part.skipped()));
            }
        }
        String message = "planned: " + planned.plan().migrations() + " migrations in " + planned.plan().batches().size()
                + " batches, about " + Math.round(planned.plan().seconds()) + " s"
                + (planned.plan().stranded().isEmpty() ? "" : "; " + planned.plan().stranded().size() + " VMIs cannot move");
        hold(plan);
        writeStatus(plan, new MaintenancePlanStatus(action == MaintenancePlanSpec.Action.Pause ? Phase.Paused : Phase.Running,
                message, actions.timeScale(), progress(nodeStatuses), planned.plan(), nodeStatuses, 0, now, null));
    }

    /**
     * A plan deleted before it ended: aborted as {@code spec.action: Abort} would (its migrations cancelled, the nodes
     * it cordoned uncordoned), then let go. Without the finalizer the plan would be gone at once and its current node
     * left cordoned, with nothing left to say so.
     */
    private void deleted(MaintenancePlan plan) {
        if (plan.getStatus() != null && plan.getStatus().phase() != null && plan.getStatus().phase() != Phase.Planning) {
            if (!abort(plan)) {
                return; // tried again on the next pass
            }
        }
        release(plan);
    }

    private boolean holdsFinalizer(MaintenancePlan plan) {
        List<String> f = plan.getMetadata().getFinalizers();
        return f != null && f.contains(MaintenancePlan.FINALIZER);
    }

    /** Holds the plan until it ends (so deleting it mid-run undoes its part first). */
    private void hold(MaintenancePlan plan) {
        if (holdsFinalizer(plan)) {
            return;
        }
        MaintenancePlan held = client.resources(MaintenancePlan.class).withName(plan.name()).edit(p -> {
            List<String> f = p.getMetadata().getFinalizers() == null ? new ArrayList<>() : new ArrayList<>(p.getMetadata().getFinalizers());
            if (!f.contains(MaintenancePlan.FINALIZER)) {
                f.add(MaintenancePlan.FINALIZER);
            }
            p.getMetadata().setFinalizers(f);
            return p;
        });
        plan.getMetadata().setFinalizers(held.getMetadata().getFinalizers());
        plan.getMetadata().setResourceVersion(held.getMetadata().getResourceVersion());
    }

    /** Lets an ended (or deleted) plan go: nothing of it is left to undo. */
    private void release(MaintenancePlan plan) {
        if (!holdsFinalizer(plan)) {
            return;
        }
        try {
            client.resources(MaintenancePlan.class).withName(plan.name()).edit(p -> {
                List<String> f = p.getMetadata().getFinalizers() == null ? new ArrayList<>() : new ArrayList<>(p.getMetadata().getFinalizers());
                f.remove(MaintenancePlan.FINALIZER);
                p.getMetadata().setFinalizers(f);
                return p;
            });
        } catch (KubernetesClientException e) {
            if (e.getCode() != HttpURLConnection.HTTP_NOT_FOUND) {
                throw e;
            }
        }
    }

    /** Stops taking nodes, cancels what the plan has under way, uncordons what it cordoned; true once aborted. */
    private boolean abort(MaintenancePlan plan) {
        Working w = new Working(plan);
        w.countMigrations();
        List<String> problems = new ArrayList<>();
        for (int i = 0; i < w.nodes.size(); i++) {
            NodeStatus n = w.nodes.get(i);
            if (n.phaseOrWaiting().over()) {
                continue;
            }
            boolean started = n.phaseOrWaiting() != NodePhase.Waiting;
            try {
                MaintenanceActions.Drain drain = drains.remove(key(plan, n.name()));
                if (drain != null) {
                    drain.cancel();
                }
                if (started) {
                    for (VirtualMachineInstanceMigration m : planMigrations(plan.name(), n.name())) {
                        if (!m.isFinal()) {
                            actions.cancelMigration(m.getMetadata().getNamespace(), m.getMetadata().getName());
                        }
                    }
                    actions.clearEvacuationMarks(n.name());
                    if (n.cordoned() && actions.unschedulable(n.name()) != null) {
                        actions.uncordon(n.name());
                    }
                }
                w.nodes.set(i, w.with(n, NodePhase.Skipped, started ? "aborted while " + n.phaseOrWaiting()
                        + (n.cordoned() ? "; uncordoned" : "") : "aborted before its turn"));
            } catch (RuntimeException e) {
                problems.add(n.name() + ": " + e.getMessage());
            }
        }
        if (problems.isEmpty()) {
            w.phase = Phase.Aborted;
            w.message = "aborted: " + w.done() + " of " + w.nodes.size() + " nodes maintained";
            w.finishedAt = time(clock.instant());
        } else {
            w.phase = Phase.Aborting;
            w.message = "aborting, tried again: " + String.join("; ", problems);
        }
        w.write();
        return problems.isEmpty();
    }

    /** A node's migrations to create ({@code ns/vmi → target node}) and its status notes so far. */
    private record Creations(List<Map.Entry<String, String>> targets, List<String> notes) {
    }

    /** One migration of a batch to create: the node's index in the status, {@code ns/vmi → target node}. */
    private record Creation(int index, Map.Entry<String, String> target) {
    }

    /** The plan's status being worked on in one tick. */
    private final class Working {
        final MaintenancePlan plan;
        MaintenancePlanStatus before;
        Phase phase;
        String message;
        final List<NodeStatus> nodes;
        String finishedAt;
        int migrationsMade;

        /** Nodes that began in this pass (by index): the migrations to create for them, and what to say. */
        private final Map<Integer, Creations> toCreate = new LinkedHashMap<>();

        Working(MaintenancePlan plan) {
            this.plan = plan;
            this.before = plan.getStatus();
            this.phase = before.phase();
            this.message = before.message();
            this.nodes = new ArrayList<>(before.nodes());
            this.finishedAt = before.finishedAt();
        }

        double scale() {
            return before.timeScale() == null || before.timeScale() <= 0 ? 1.0 : before.timeScale();
        }

        /** Each started node's migrations that have succeeded since its turn began (the plan's and the drain's). */
        void countMigrations() {
            migrationsMade = 0;
            for (int i = 0; i < nodes.size(); i++) {
                NodeStatus n = nodes.get(i);
                if (n.startedAt() == null) {
                    continue;
                }
                int made = n.phaseOrWaiting() == NodePhase.Done && n.migrationsMade() != null ? n.migrationsMade()
                        : succeededFrom(n.name(), Instant.parse(n.startedAt()));
                migrationsMade += made;
                if (!Objects.equals(made, n.migrationsMade())) {
                    nodes.set(i, copy(n).migrationsMade(made).build());
                }
            }
        }

        /**
         * Each node of the current batch as far on as it can go now; once the batch is over, the next one starts in
         * the same pass (no wait for another event); the plan's end once every node is over.
         */
        void advance() {
            int last = -1;
            while (true) {
                int batch = nodes.stream().filter(n -> !n.phaseOrWaiting().over()).mapToInt(n -> n.batch() == null ? 0 : n.batch())
                        .min().orElse(-1);
                if (batch < 0) {
                    finish();
                    return;
                }
                if (batch == last) {
                    return; // the batch waits for something
                }
                last = batch;
                for (int i = 0; i < nodes.size(); i++) {
                    NodeStatus n = nodes.get(i);
                    if (!Objects.equals(n.batch(), batch)) {
                        continue;
                    }
                    // A node goes on while its steps finish at once (drained with nothing left: uncordoned now).
                    for (int steps = 0; steps < 4 && !n.phaseOrWaiting().over(); steps++) {
                        NodeStatus next = step(i, n);
                        nodes.set(i, next);
                        if (next.phaseOrWaiting() == NodePhase.Failed) {
                            phase = Phase.Failed;
                            message = "node " + n.name() + " failed: " + next.message() + "; the plan stops here";
                            finishedAt = time(clock.instant());
                            toCreate.clear();
                            return;
                        }
                        if (next.phaseOrWaiting() == n.phaseOrWaiting() || toCreate.containsKey(i)) {
                            break; // waits, or began: its migrations come with the batch's, below
                        }
                        n = next;
                    }
                }
                createBatchMigrations();
            }
        }

        private void finish() {
            finishedAt = time(clock.instant());
            List<String> skipped = nodes.stream().filter(n -> n.phaseOrWaiting() != NodePhase.Done)
                    .map(n -> n.name() + (n.message() == null ? "" : " (" + n.message() + ")")).toList();
            if (skipped.isEmpty()) {
                phase = Phase.Succeeded;
                message = "every node maintained: " + migrationsMade + " migrations (" + before.plan().migrations() + " planned)";
            } else {
                phase = Phase.Failed;
                message = (nodes.size() - skipped.size()) + " of " + nodes.size() + " nodes maintained; not maintained: "
                        + String.join(", ", skipped);
            }
        }

        private NodeStatus step(int index, NodeStatus n) {
            Instant now = clock.instant();
            return switch (n.phaseOrWaiting()) {
                case Waiting -> begin(index, n, now);
                case Draining -> draining(n, now);
                case AfterDrain -> afterDrain(n, now);
                case Uncordoning -> uncordon(n, now);
                default -> n;
            };
        }

        /**
         * The node's turn: its targets worked out again on the cluster as it is; the status written as Draining with
         * whether the plan is the one cordoning it; cordon; the plan's migrations.
         */
        private NodeStatus begin(int index, NodeStatus n, Instant now) {
            Boolean wasCordoned = actions.unschedulable(n.name());
            if (wasCordoned == null) {
                return gone(n, now, "before its turn");
            }
            Set<String> maintained = new HashSet<>();
            nodes.stream().filter(x -> x.phaseOrWaiting() == NodePhase.Done).forEach(x -> maintained.add(x.name()));
            List<List<String>> rest = new ArrayList<>();
            for (List<String> b : before.plan().batches()) {
                List<String> left = b.stream().filter(name -> nodes.stream().anyMatch(x -> x.name().equals(name)
                        && !x.phaseOrWaiting().over())).toList();
                if (!left.isEmpty()) {
                    rest.add(left);
                }
            }
            List<String> all = nodes.stream().map(NodeStatus::name).toList();
            MaintenanceActions.Planned replan = actions.plan(plan.getSpec(), all, maintained, rest);
            MaintenanceActions.NodePart part = replan.node(n.name());
            if (part == null) {
                return copy(n).phase(NodePhase.Skipped).message("no longer in the cluster").finishedAt(time(now)).build();
            }
            if (part.skipped() != null) {
                return copy(n).phase(NodePhase.Skipped).message(part.skipped()).finishedAt(time(now)).build();
            }
            List<String> changed = replanned(n.name(), part.targets());
            // Said before it is done: a leader that dies after the cordon leaves a status that still owns it (a new
            // leader sees Draining, cordons again if need be and uncordons at the end). Said after, the cordon
            // would look like someone else's to the next leader, and the node would stay cordoned.
            boolean cordonedByUs = !wasCordoned;
            nodes.set(index, copy(n).phase(NodePhase.Draining).cordonedByPlan(cordonedByUs).startedAt(time(now))
                    .migrationsPredicted(part.targets().size()).migrationsMade(0).message("cordoning").build());
            writeNow();
            actions.cordon(n.name());
            Set<String> underWay = new HashSet<>();
            for (VirtualMachineInstanceMigration m : migrations.getStore().list()) {
                if (!m.isFinal() && m.getSpec() != null) {
                    underWay.add(m.getMetadata().getNamespace() + "/" + m.getSpec().getVmiName());
                }
            }
            List<Map.Entry<String, String>> toMigrate = new ArrayList<>();
            for (var target : new java.util.TreeMap<>(part.targets()).entrySet()) {
                if (!underWay.contains(target.getKey())) {
                    toMigrate.add(target);
                }
            }
            List<String> notes = new ArrayList<>();
            if (!changed.isEmpty()) {
                notes.add("re-planned at its turn (the cluster changed): " + String.join(", ", changed));
            }
            if (!toMigrate.isEmpty()) {
                toCreate.put(index, new Creations(toMigrate, notes));
            }
            return copy(n).phase(NodePhase.Draining).cordonedByPlan(cordonedByUs).startedAt(time(now))
                    .migrationsPredicted(part.targets().size()).migrationsMade(0)
                    .message(notes.isEmpty() ? "migrating " + part.targets().size() + " VMIs" : String.join("; ", notes))
                    .build();
        }

        /**
         * The migrations of the nodes that began in this pass, created one of each node in turn
         * ({@link MigrationSlots#interleaved}, the order the estimate starts them in): the migration queue serves
         * equals first come, first served, so the nodes share the cluster's slots and end together. Created node
         * after node, the first nodes would take every slot and the last ones end alone, later.
         */
        private void createBatchMigrations() {
            List<List<Creation>> byNode = new ArrayList<>();
            toCreate.forEach((index, c) -> byNode.add(c.targets().stream().map(t -> new Creation(index, t)).toList()));
            Map<Integer, List<String>> refused = new HashMap<>();
            for (Creation c : MigrationSlots.interleaved(byNode)) {
                String node = nodes.get(c.index()).name();
                String vmi = c.target().getKey();
                int slash = vmi.indexOf('/');
                try {
                    String name = actions.migrate(plan.name(), vmi.substring(0, slash), vmi.substring(slash + 1), node,
                            c.target().getValue());
                    created.computeIfAbsent(key(plan, node), k -> new HashSet<>()).add(vmi.substring(0, slash) + "/" + name);
                } catch (RuntimeException ex) {
                    // The drain's eviction moves it all the same, wherever the scheduler puts it.
                    refused.computeIfAbsent(c.index(), k -> new ArrayList<>()).add(vmi + ": " + ex.getMessage());
                }
            }
            refused.forEach((index, why) -> {
                List<String> notes = new ArrayList<>(toCreate.get(index).notes());
                notes.add("migrations refused, left to the drain: " + String.join("; ", why));
                nodes.set(index, copy(nodes.get(index)).message(String.join("; ", notes)).build());
            });
            toCreate.clear();
        }

        /** What changed against the plan as it was written: {@code ns/vm → new (planned old)}. */
        private List<String> replanned(String node, Map<String, String> targets) {
            Map<String, String> planned = new LinkedHashMap<>();
            for (MaintenancePlanStatus.VmHops vm : before.plan().vms()) {
                List<String> hops = vm.hops();
                for (int i = 0; i + 1 < hops.size(); i++) {
                    if (hops.get(i).equals(node)) {
                        planned.put(vm.namespace() + "/" + vm.name(), hops.get(i + 1));
                    }
                }
            }
            List<String> changed = new ArrayList<>();
            for (var e : new java.util.TreeMap<>(targets).entrySet()) {
                String was = planned.get(e.getKey());
                if (!e.getValue().equals(was)) {
                    changed.add(e.getKey() + " → " + e.getValue() + (was == null ? " (not planned to move from here)" : " (planned " + was + ")"));
                }
            }
            for (String vm : planned.keySet()) {
                if (!targets.containsKey(vm)) {
                    changed.add(vm + " no longer moves from here");
                }
            }
            return changed;
        }

        /** The plan's migrations first; once none is under way, the drain of what is left. */
        private NodeStatus draining(NodeStatus n, Instant now) {
            String key = key(plan, n.name());
            Set<String> unseen = created.get(key);
            if (unseen != null) {
                // The drain must not start before the migrations just created are in the cache as under way.
                unseen.removeIf(k -> migrations.getStore().getByKey(k) != null);
                if (!unseen.isEmpty()) {
                    return n;
                }
                created.remove(key);
            }
            for (VirtualMachineInstanceMigration m : planMigrations(plan.name(), n.name())) {
                if (!m.isFinal()) {
                    return n;
                }
            }
            MaintenanceActions.Drain drain = drains.get(key);
            if (drain == null) {
                // The drain cordons too: a node whose turn began under a leader that died before its cordon.
                drain = actions.drain(n.name());
                drains.put(key, drain);
                drain.result().whenComplete((r, e) -> kick());
                if (!drain.result().isDone()) {
                    return copy(n).message("draining what is left through the eviction API").build();
                }
            }
            if (!drain.result().isDone()) {
                return n;
            }
            drains.remove(key);
            String failed = drain.result().join();
            if (failed != null && actions.unschedulable(n.name()) == null) {
                return gone(n, now, "while it was drained");
            }
            if (failed != null) {
                return copy(n).phase(NodePhase.Failed).message("drain: " + failed
                        + (n.cordoned() ? "; left cordoned" : "")).finishedAt(time(now)).build();
            }
            AfterDrain after = plan.getSpec().afterDrainOrNone();
            String what = switch (after.typeOrNone()) {
                case None -> "drained";
                case Pause -> "drained; pausing " + after.pause();
                case WaitForAnnotation -> "drained; waiting for annotation " + after.annotation() + " on the node";
            };
            return copy(n).phase(NodePhase.AfterDrain).drainedAt(time(now)).message(what).build();
        }

        private NodeStatus afterDrain(NodeStatus n, Instant now) {
            AfterDrain after = plan.getSpec().afterDrainOrNone();
            boolean ready = switch (after.typeOrNone()) {
                case None -> true;
                // Measured on the cluster's clock: a time-scaled cluster pauses its pause / scale.
                case Pause -> {
                    Instant end = n.drainedAt() == null ? now : Instant.parse(n.drainedAt())
                            .plusMillis((long) (after.pauseDuration().toMillis() / scale()));
                    if (now.isBefore(end)) {
                        kickAfter(Duration.between(now, end));
                        yield false;
                    }
                    yield true;
                }
                case WaitForAnnotation -> {
                    if (actions.unschedulable(n.name()) == null) {
                        yield true; // gone: said by the uncordon step
                    }
                    yield actions.hasAnnotation(n.name(), after.annotation());
                }
            };
            return ready ? uncordon(copy(n).phase(NodePhase.Uncordoning).build(), now) : n;
        }

        private NodeStatus uncordon(NodeStatus n, Instant now) {
            if (actions.unschedulable(n.name()) == null) {
                return gone(n, now, "after its drain");
            }
            if (n.cordoned()) {
                actions.uncordon(n.name());
            }
            Double actual = n.startedAt() == null ? null
                    : Duration.between(Instant.parse(n.startedAt()), now).toMillis() / 1000.0 * scale();
            return copy(n).phase(NodePhase.Done).finishedAt(time(now)).actualSeconds(actual)
                    .message(n.cordoned() ? "maintained; uncordoned" : "maintained; it was cordoned before the plan, left cordoned")
                    .build();
        }

        /** A node deleted from the cluster during the plan: skipped with why, never tried again. */
        private NodeStatus gone(NodeStatus n, Instant now, String when) {
            drains.remove(key(plan, n.name()));
            for (VirtualMachineInstanceMigration m : planMigrations(plan.name(), n.name())) {
                if (!m.isFinal()) {
                    actions.cancelMigration(m.getMetadata().getNamespace(), m.getMetadata().getName());
                }
            }
            return copy(n).phase(NodePhase.Skipped).message("node " + n.name() + " was deleted from the cluster " + when)
                    .finishedAt(time(now)).build();
        }

        /** Writes the status as it is now, mid-pass (before an action that the status must own). */
        void writeNow() {
            MaintenancePlanStatus next = new MaintenancePlanStatus(phase, message, before.timeScale(), progress(nodes),
                    before.plan(), nodes, migrationsMade, before.startedAt(), finishedAt);
            MaintenancePlan written = writeStatus(plan, next);
            if (written != null) {
                plan.getMetadata().setResourceVersion(written.getMetadata().getResourceVersion());
            }
            before = next;
        }

        NodeStatus with(NodeStatus n, NodePhase phase, String message) {
            return copy(n).phase(phase).message(message).finishedAt(time(clock.instant())).build();
        }

        long done() {
            return nodes.stream().filter(n -> n.phaseOrWaiting() == NodePhase.Done).count();
        }

        void write() {
            MaintenancePlanStatus next = new MaintenancePlanStatus(phase, message, before.timeScale(), progress(nodes),
                    before.plan(), nodes, migrationsMade, before.startedAt(), finishedAt);
            if (!next.equals(before)) {
                writeNow();
            }
        }
    }

    /** Migrations the plan created for the VMIs leaving this node. */
    private List<VirtualMachineInstanceMigration> planMigrations(String plan, String node) {
        return migrations.getStore().list().stream().filter(m -> {
            Map<String, String> a = m.getMetadata().getAnnotations();
            return a != null && plan.equals(a.get(DrainboardAnnotations.MAINTENANCE_PLAN))
                    && node.equals(a.get(DrainboardAnnotations.MAINTENANCE_NODE));
        }).toList();
    }

    /** Migrations off this node that succeeded and were created at or after {@code since} (whoever created them). */
    private int succeededFrom(String node, Instant since) {
        int count = 0;
        Instant from = since.truncatedTo(ChronoUnit.SECONDS); // creation times have whole seconds
        for (VirtualMachineInstanceMigration m : migrations.getStore().list()) {
            if (m.phase().orElse(null) != MigrationPhase.SUCCEEDED || m.getStatus().getMigrationState() == null
                    || !node.equals(m.getStatus().getMigrationState().getSourceNode())) {
                continue;
            }
            String created = m.getMetadata().getCreationTimestamp();
            if (created != null && !Instant.parse(created).isBefore(from)) {
                count++;
            }
        }
        return count;
    }

    /** Replaces the status (the controller owns it); on a conflict reads the plan again once and replaces it there. */
    private MaintenancePlan writeStatus(MaintenancePlan plan, MaintenancePlanStatus status) {
        MaintenancePlan next = new MaintenancePlan();
        next.setMetadata(plan.getMetadata());
        next.setSpec(plan.getSpec());
        next.setStatus(status);
        try {
            return client.resources(MaintenancePlan.class).resource(next).updateStatus();
        } catch (KubernetesClientException e) {
            if (e.getCode() != HttpURLConnection.HTTP_CONFLICT) {
                throw e;
            }
        }
        MaintenancePlan fresh = client.resources(MaintenancePlan.class).withName(plan.name()).get();
        if (fresh != null) {
            fresh.setStatus(status);
            return client.resources(MaintenancePlan.class).resource(fresh).updateStatus();
        }
        return null;
    }

    /** A pass after {@code delay} (an after-drain pause running out). */
    private void kickAfter(Duration delay) {
        try {
            loop.schedule(this::kick, Math.max(1, delay.toMillis()), TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            // closed
        }
    }

    static String progress(List<NodeStatus> nodes) {
        return nodes.stream().filter(n -> n.phaseOrWaiting() == NodePhase.Done).count() + "/" + nodes.size();
    }

    private static String key(MaintenancePlan plan, String node) {
        return plan.name() + "/" + node;
    }

    static String time(Instant t) {
        return DateTimeFormatter.ISO_INSTANT.format(t.truncatedTo(ChronoUnit.MILLIS));
    }

    static NodeStatusBuilder copy(NodeStatus n) {
        return new NodeStatusBuilder(n);
    }

    /** A node's status with some fields changed. */
    static final class NodeStatusBuilder {
        private final NodeStatus n;
        private NodePhase phase;
        private Boolean cordonedByPlan;
        private Double actualSeconds;
        private String startedAt;
        private String drainedAt;
        private String finishedAt;
        private Integer migrationsPredicted;
        private Integer migrationsMade;
        private String message;

        NodeStatusBuilder(NodeStatus n) {
            this.n = n;
            phase = n.phase();
            cordonedByPlan = n.cordonedByPlan();
            actualSeconds = n.actualSeconds();
            startedAt = n.startedAt();
            drainedAt = n.drainedAt();
            finishedAt = n.finishedAt();
            migrationsPredicted = n.migrationsPredicted();
            migrationsMade = n.migrationsMade();
            message = n.message();
        }

        NodeStatusBuilder phase(NodePhase v) { phase = v; return this; }
        NodeStatusBuilder cordonedByPlan(boolean v) { cordonedByPlan = v; return this; }
        NodeStatusBuilder actualSeconds(Double v) { actualSeconds = v; return this; }
        NodeStatusBuilder startedAt(String v) { startedAt = v; return this; }
        NodeStatusBuilder drainedAt(String v) { drainedAt = v; return this; }
        NodeStatusBuilder finishedAt(String v) { finishedAt = v; return this; }
        NodeStatusBuilder migrationsPredicted(int v) { migrationsPredicted = v; return this; }
        NodeStatusBuilder migrationsMade(int v) { migrationsMade = v; return this; }
        NodeStatusBuilder message(String v) { message = v; return this; }

        NodeStatus build() {
            return new NodeStatus(n.name(), n.batch(), phase, cordonedByPlan, n.predictedStartSeconds(),
                    n.predictedSeconds(), actualSeconds, startedAt, drainedAt, finishedAt, migrationsPredicted,
                    migrationsMade, message);
        }
    }

    @Override
    public void close() {
        try {
            loop.submit(() -> {
                drains.values().forEach(MaintenanceActions.Drain::cancel);
                drains.clear();
            }).get(5, TimeUnit.SECONDS);
        } catch (Exception e) {
            // closing anyway
        }
        loop.shutdownNow();
    }
}
