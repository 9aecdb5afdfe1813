package dev.drainboard.controller.migration;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drainboard.controller.disruptionbudget.DisruptionBudgetDecision;
import dev.drainboard.controller.disruptionbudget.DisruptionBudgets;
import dev.drainboard.controller.informers.SharedInformers;
import dev.drainboard.controller.vmi.LauncherPodState;
import dev.drainboard.kubevirt.DrainboardAnnotations;
import dev.drainboard.kubevirt.KubeVirtAnnotations;
import dev.drainboard.kubevirt.KubeVirtConditions;
import dev.drainboard.kubevirt.KubeVirtDefaults;
import dev.drainboard.kubevirt.KubeVirtEventReasons;
import dev.drainboard.kubevirt.KubeVirtFinalizers;
import dev.drainboard.kubevirt.KubeVirtLabels;
import dev.drainboard.kubevirt.KubeVirtMessages;
import dev.drainboard.kubevirt.DeschedulerAnnotations;
import dev.drainboard.kubevirt.api.Condition;
import dev.drainboard.kubevirt.api.MigrationPhase;
import dev.drainboard.kubevirt.api.MigrationState;
import dev.drainboard.kubevirt.api.MigrationPolicy;
import io.fabric8.kubernetes.api.model.Namespace;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceMigration;
import dev.drainboard.kubevirt.config.ClusterConfig;
import dev.drainboard.kubevirt.config.ClusterConfigSource;
import dev.drainboard.runtime.ControllerLoop;
import dev.drainboard.runtime.ControllerManager;
import dev.drainboard.runtime.EventComponents;
import dev.drainboard.runtime.EventRecorder;
import dev.drainboard.runtime.Expectations;
import dev.drainboard.runtime.Keys;
import dev.drainboard.runtime.LeanWrites;
import dev.drainboard.runtime.PatchTargets;
import dev.drainboard.runtime.ObjectEvents;
import dev.drainboard.runtime.Result;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The migration controller: carries each VMIM through its phases ({@link MigrationDecision}, pure) and makes the
 * writes the decision asks for: the VMIM's metadata and status, the VMI's PDB, the target pod, the hand-off on the
 * VMI, the descheduler annotation on the source pod. Keys are VMIM {@code namespace/name}s.
 *
 * <p>When a VMIM ends, the VMIMs held back by the migration limits are queued again at once, and the finished
 * VMIMs of its VMI beyond the 5 newest are deleted (as KubeVirt's {@code garbageCollectFinalizedMigrations}).
 *
 * <p>With the migration priority queue on ({@code ClusterConfig#migrationPriorityQueue}), a Pending VMIM starts
 * only on its turn ({@link MigrationSlots#turns}: priority, then age, within the limits), and a freed slot queues
 * the next ones in that order rather than every waiting VMIM.
 */
public final class MigrationController {

    private static final Logger LOG = LoggerFactory.getLogger(MigrationController.class);
    private static final ObjectMapper JSON = Serialization.jsonMapper();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    public static final String NAME = "migration";
    /** Runs the writes made alongside a pass's own (see {@link #writtenAlongside}); they only wait for the API. */
    private static final ExecutorService SIDE_WRITES = Executors.newVirtualThreadPerTaskExecutor();

    private final KubernetesClient client;
    private final SharedInformers informers;
    private final SharedIndexInformer<PodDisruptionBudget> budgets;
    private final ClusterConfigSource config;
    private final MigrationTimings timings;
    private final EventRecorder events;
    private final Clock clock;
    /** Writes whose answer is not needed: no GET before a patch, no decoding after. */
    private final LeanWrites writes;
    private final Expectations<String> podCreations = new Expectations<>();
    private final Set<String> waitingForCapacity = ConcurrentHashMap.newKeySet();
    /**
     * UIDs of VMIMs whose target pod this controller created but the cache does not show yet. They hold a slot from
     * the moment of creation: another VMIM deciding meanwhile must count them.
     */
    private final Set<String> startedNotSeen = ConcurrentHashMap.newKeySet();
    /** Passes that may start a migration check the limits and create the target pod one at a time. */
    private final Object slots = new Object();
    /**
     * The order VMIMs reached this controller, by UID. KubeVirt's queue serves VMIMs of equal priority in no set order
     * ({@code reEnqueueHighestPriorityPendingMigrations} sorts by priority alone); here the first to come is served
     * first, so migrations created round-robin over several nodes (a maintenance plan's batch) share the cluster's
     * slots between those nodes, as the plan's estimate assumes, rather than in the order their names sort.
     */
    private final Map<String, Long> arrival = new ConcurrentHashMap<>();
    private final AtomicLong arrivals = new AtomicLong();
    private ControllerLoop<String> loop;

    private MigrationController(ControllerManager manager, SharedInformers informers, ClusterConfigSource config,
                                MigrationTimings timings) {
        this.client = manager.client();
        this.informers = informers;
        this.config = config;
        this.timings = timings;
        this.events = manager.eventRecorder(EventComponents.MIGRATION);
        this.clock = Clock.systemUTC();
        this.writes = new LeanWrites(client);
        this.budgets = manager.informer(PodDisruptionBudget.class);
    }

    /** Builds the controller on the shared informers (and the PDB informer) and registers its loop. */
    public static MigrationController register(ControllerManager manager, SharedInformers informers,
                                               ClusterConfigSource config, MigrationTimings timings) {
        MigrationController c = new MigrationController(manager, informers, config, timings);
        c.loop = ControllerLoop.<String>builder(NAME, c::reconcile)
                .workers(KubeVirtDefaults.CONTROLLER_THREADS)
                .watch(informers.migrations(), Keys::of)
                .watchAll(informers.vmis(), vmi -> c.unfinishedOf(Keys.of(vmi)))
                .watchAll(informers.pods(), c::keysOfPod)
                .watchAll(c.budgets, pdb -> DisruptionBudgets.controllingVmi(pdb)
                        .map(ref -> c.unfinishedOf(Keys.of(pdb.getMetadata().getNamespace(), ref.getName())))
                        .orElse(List.of()))
                .build();
        c.observe();
        // A VMIM created or finished by this process: act on it now, not when the watch brings it back.
        informers.freshMigrations().addWriteListener(m -> {
            c.arrived(m);
            if (m.isFinal()) {
                c.capacityFreed();
            } else if (m.phase().isEmpty()) {
                c.loop.enqueue(Keys.of(m));
            }
        });
        manager.register(c.loop);
        return c;
    }

    public ControllerLoop<String> loop() {
        return loop;
    }

    private List<String> unfinishedOf(String vmiKey) {
        return informers.migrationsOf(vmiKey).stream().filter(m -> !m.isFinal()).map(Keys::of).toList();
    }

    private Collection<String> keysOfPod(Pod pod) {
        String job = jobKey(pod);
        if (job != null) {
            return List.of(job);
        }
        return SharedInformers.controllingVmiKey(pod).map(this::unfinishedOf).orElse(List.of());
    }

    /** The VMIM a target pod was made for ({@code kubevirt.io/migrationJobName}), or null. */
    private static String jobKey(Pod pod) {
        Map<String, String> annotations = pod.getMetadata().getAnnotations();
        String job = annotations == null || !LauncherPodState.isMigrationTarget(pod) ? null : annotations.get(KubeVirtAnnotations.MIGRATION_JOB_NAME);
        return job == null ? null : Keys.of(pod.getMetadata().getNamespace(), job);
    }

    private void observe() {
        informers.pods().addEventHandler(ObjectEvents.<Pod>handler().added(pod -> {
            String job = jobKey(pod);
            if (job != null) {
                podCreations.creationObserved(job);
                startedNotSeen.remove(label(pod, KubeVirtLabels.MIGRATION_JOB_UID));
            }
        }));
        informers.migrations().addEventHandler(ObjectEvents.<VirtualMachineInstanceMigration>handler()
                .added(this::arrived)
                .updated((before, after) -> {
                    if (!before.isFinal() && after.isFinal()) {
                        startedNotSeen.remove(after.getMetadata().getUid());
                        capacityFreed();
                    }
                })
                .deleted(m -> {
                    arrival.remove(m.getMetadata().getUid());
                    startedNotSeen.remove(m.getMetadata().getUid());
                    capacityFreed();
                }));
    }

    /**
     * A slot was freed. Without the priority queue every VMIM waiting for one looks again; with it, the first
     * {@code parallelMigrationsPerCluster} Pending ones in queue order (as KubeVirt's
     * {@code reEnqueueHighestPriorityPendingMigrations}) and every one whose turn has come, so a freed slot is taken
     * within a pass rather than at the next 1–5 s re-check.
     */
    private void capacityFreed() {
        ClusterConfig cfg = config.current();
        if (!cfg.migrationPriorityQueue()) {
            for (String key : Set.copyOf(waitingForCapacity)) {
                loop.enqueue(key);
            }
            return;
        }
        List<MigrationSlots.Queued> queued = queued(informers.freshMigrations().list(), null);
        Set<String> keys = new java.util.LinkedHashSet<>(MigrationSlots.nextInQueue(queued,
                cfg.migrations().parallelMigrationsPerCluster()));
        for (MigrationSlots.Turn turn : turns(queued, cfg)) {
            if (turn.runs()) {
                keys.add(turn.vmim().key());
            }
        }
        keys.forEach(loop::enqueue);
    }

    /**
     * The VMIMs in the priority queue: no phase or Pending, no target pod yet, not being deleted, their VMI running
     * (one that is not cannot start, and must not hold a slot from those behind it); {@code self} always.
     */
    private List<MigrationSlots.Queued> queued(Collection<VirtualMachineInstanceMigration> all, VirtualMachineInstanceMigration self) {
        List<MigrationSlots.Queued> queued = new ArrayList<>();
        for (VirtualMachineInstanceMigration m : all) {
            boolean isSelf = self != null && Objects.equals(m.getMetadata().getUid(), self.getMetadata().getUid());
            if (isSelf || (MigrationSlots.standing(m, this::targetPodCreated) == MigrationSlots.Standing.QUEUED
                    && m.phase().map(p -> p == MigrationPhase.PENDING).orElse(true)
                    && m.getMetadata().getDeletionTimestamp() == null
                    && vmiRunning(m))) {
                queued.add(MigrationSlots.Queued.of(m, this::nodeOfVmi, arrived(m)));
            }
        }
        return queued;
    }

    /** The VMIM's place in the order of arrival (numbered on first sight). */
    private long arrived(VirtualMachineInstanceMigration m) {
        return arrival.computeIfAbsent(m.getMetadata().getUid(), uid -> arrivals.incrementAndGet());
    }

    private boolean vmiRunning(VirtualMachineInstanceMigration m) {
        if (m.getSpec() == null || m.getSpec().getVmiName() == null) {
            return false;
        }
        VirtualMachineInstance vmi = informers.vmis().getStore().getByKey(Keys.of(m.getMetadata().getNamespace(), m.getSpec().getVmiName()));
        return vmi != null && vmi.phase().orElse(null) == dev.drainboard.kubevirt.api.VmiPhase.RUNNING;
    }

    private List<MigrationSlots.Turn> turns(List<MigrationSlots.Queued> queued, ClusterConfig cfg) {
        List<VirtualMachineInstanceMigration> started = MigrationSlots.started(informers.freshMigrations().list(), this::targetPodCreated);
        return MigrationSlots.turns(queued, started.size(), MigrationSlots.byNode(started, this::nodeOfVmi),
                MigrationSlots.Limits.of(cfg.migrations()));
    }

    /** This VMIM's turn in the priority queue; null when the queue is off or the VMIM is not waiting to start. */
    private MigrationSlots.Turn turnOf(VirtualMachineInstanceMigration vmim, List<Pod> targets, ClusterConfig cfg) {
        boolean waiting = vmim.phase().map(p -> p == MigrationPhase.PENDING).orElse(true) && targets.isEmpty()
                && !startedNotSeen.contains(vmim.getMetadata().getUid());
        if (!cfg.migrationPriorityQueue() || !waiting) {
            return null;
        }
        String key = Keys.of(vmim);
        return turns(queued(informers.freshMigrations().list(), vmim), cfg).stream()
                .filter(t -> t.vmim().key().equals(key)).findFirst().orElse(null);
    }

    Result reconcile(String key) {
        VirtualMachineInstanceMigration vmim = informers.freshMigrations().get(key);
        if (vmim == null) {
            podCreations.delete(key);
            waitingForCapacity.remove(key);
            return Result.done();
        }
        if (!podCreations.satisfied(key)) {
            return Result.requeue(); // our target pod is not in the cache yet
        }
        if (vmim.phase().map(p -> p == MigrationPhase.PENDING).orElse(true)) {
            synchronized (slots) {
                return reconcile(key, vmim);
            }
        }
        return reconcile(key, vmim);
    }

    private Result reconcile(String key, VirtualMachineInstanceMigration vmim) {
        String ns = vmim.getMetadata().getNamespace();
        String vmiName = vmim.getSpec() == null ? null : vmim.getSpec().getVmiName();
        String vmiKey = vmiName == null ? null : Keys.of(ns, vmiName);
        VirtualMachineInstance vmi = vmiKey == null ? null : informers.vmis().getStore().getByKey(vmiKey);
        List<Pod> owned = vmi == null ? List.of()
                : informers.podsOf(vmiKey).stream().filter(p -> LauncherPodState.ownedBy(p, vmi)).toList();
        String uid = vmim.getMetadata().getUid();
        List<Pod> targets = owned.stream().filter(p -> uid.equals(label(p, KubeVirtLabels.MIGRATION_JOB_UID))).toList();
        Pod source = vmi == null ? null : LauncherPodState.currentPod(vmi,
                owned.stream().filter(p -> !LauncherPodState.isMigrationTarget(p) || !uid.equals(label(p, KubeVirtLabels.MIGRATION_JOB_UID))).toList())
                .orElse(null);
        int active = (int) owned.stream().filter(p -> !LauncherPodState.isFinished(p)).count();
        ClusterConfig cfg = config.current();
        PodDisruptionBudget budget = vmi == null ? null : budgetOf(vmi);
        List<VirtualMachineInstanceMigration> siblings = vmiKey == null ? List.of() : informers.freshMigrations().of(vmiKey);
        String sourceNode = vmi == null || vmi.getStatus() == null ? null : vmi.getStatus().getNodeName();
        MigrationSlots.InFlight started = started(vmim, sourceNode);

        Instant now = clock.instant();
        MigrationDecision.Plan plan = MigrationDecision.decide(new MigrationDecision.Input(vmim, vmi, targets, source, active,
                budget, vmi != null && cfg.profile().protectsWithPdbs() && DisruptionBudgetDecision.needsBudget(vmi, cfg),
                siblings, started, cfg.migrations(), timings.scaledBy(cfg.timeScale()), now, turnOf(vmim, targets, cfg)));

        if (plan.waitingForCapacity()) {
            waitingForCapacity.add(key);
        } else {
            waitingForCapacity.remove(key);
        }
        List<CompletableFuture<Void>> alongside = new ArrayList<>();
        try {
            for (MigrationAction action : plan.actions()) {
                if (writtenAlongside(action)) {
                    alongside.add(CompletableFuture.runAsync(() -> apply(key, vmim, vmi, action, now), SIDE_WRITES));
                } else {
                    apply(key, vmim, vmi, action, now);
                }
            }
            writeStatus(vmim, vmi, plan, now);
            awaitAll(alongside);
        } catch (KubernetesClientException e) {
            awaitQuietly(alongside);
            if (e.getCode() == 409 || e.getCode() == 422) {
                return Result.requeue(); // written meanwhile: decide again on what the cache brings
            }
            throw e;
        }
        for (MigrationDecision.Event e : plan.events()) {
            HasMetadata subject = e.onVmi() && vmi != null ? vmi : vmim;
            if (e.warning()) {
                events.warning(subject, e.reason(), "%s", e.message());
            } else {
                events.normal(subject, e.reason(), "%s", e.message());
            }
        }
        if (plan.phase() == MigrationPhase.FAILED || plan.phase() == MigrationPhase.SUCCEEDED) {
            LOG.info("migration {} of VMI {}: {}", key, vmiKey, plan.phase().value());
        }
        if (vmim.isFinal()) {
            collectGarbage(siblings);
        }
        return plan.requeueAfter() == null ? Result.done() : Result.requeueAfter(plan.requeueAfter());
    }

    /**
     * Writes to other objects that nothing later in the pass depends on: the budget expansion (the target pod waits
     * for the budget's status, in a later pass) and the descheduler annotation on the source pod. They go out
     * together with the pass's other writes, so a slot's hand-over costs one round trip less for each.
     */
    static boolean writtenAlongside(MigrationAction action) {
        return action instanceof MigrationAction.ExpandBudget || action instanceof MigrationAction.SourcePodEvictionInProgress;
    }

    private static void awaitAll(List<CompletableFuture<Void>> writes) {
        for (CompletableFuture<Void> write : writes) {
            try {
                write.join();
            } catch (CompletionException e) {
                if (e.getCause() instanceof KubernetesClientException k) {
                    throw k;
                }
                throw e;
            }
        }
    }

    /** After a failed write: lets the others end before the pass ends (the next pass decides on what they did). */
    private static void awaitQuietly(List<CompletableFuture<Void>> writes) {
        for (CompletableFuture<Void> write : writes) {
            try {
                write.join();
            } catch (CompletionException ignored) {
                // the pass already fails with the first error
            }
        }
    }

    /** The other VMIMs whose migration started: in the cluster, and moving a VMI off {@code sourceNode}. */
    private MigrationSlots.InFlight started(VirtualMachineInstanceMigration self, String sourceNode) {
        List<VirtualMachineInstanceMigration> others = informers.freshMigrations().list().stream()
                .filter(m -> !Objects.equals(m.getMetadata().getUid(), self.getMetadata().getUid()))
                .toList();
        return MigrationSlots.inFlight(MigrationSlots.started(others, this::targetPodCreated), sourceNode, this::nodeOfVmi);
    }

    /** Its target pod is in the cache, or this controller created it and the cache does not show it yet. */
    private boolean targetPodCreated(VirtualMachineInstanceMigration m) {
        String uid = m.getMetadata().getUid();
        if (startedNotSeen.contains(uid)) {
            return true;
        }
        if (m.getSpec() == null || m.getSpec().getVmiName() == null) {
            return false;
        }
        String vmiKey = Keys.of(m.getMetadata().getNamespace(), m.getSpec().getVmiName());
        return informers.podsOf(vmiKey).stream().anyMatch(p -> uid.equals(label(p, KubeVirtLabels.MIGRATION_JOB_UID)));
    }

    private String nodeOfVmi(String vmiKey) {
        VirtualMachineInstance vmi = informers.vmis().getStore().getByKey(vmiKey);
        return vmi == null || vmi.getStatus() == null ? null : vmi.getStatus().getNodeName();
    }

    private PodDisruptionBudget budgetOf(VirtualMachineInstance vmi) {
        String uid = vmi.getMetadata().getUid();
        return budgets.getIndexer().byIndex(Cache.NAMESPACE_INDEX, vmi.getMetadata().getNamespace()).stream()
                .filter(pdb -> pdb.getMetadata().getDeletionTimestamp() == null)
                .filter(pdb -> DisruptionBudgets.controllingVmi(pdb).map(ref -> uid.equals(ref.getUid())).orElse(false))
                .findFirst().orElse(null);
    }

    private void apply(String key, VirtualMachineInstanceMigration vmim, VirtualMachineInstance vmi, MigrationAction action, Instant now) {
        String ns = vmim.getMetadata().getNamespace();
        switch (action) {
            case MigrationAction.EnsureMetadata m -> {
                ObjectNode meta = NODES.objectNode();
                if (m.finalizer()) {
                    ArrayNode finalizers = meta.putArray("finalizers");
                    if (vmim.getMetadata().getFinalizers() != null) {
                        vmim.getMetadata().getFinalizers().forEach(finalizers::add);
                    }
                    finalizers.add(KubeVirtFinalizers.MIGRATION_JOB);
                }
                if (m.vmiNameLabel() != null) {
                    meta.putObject("labels").put(KubeVirtLabels.MIGRATION_SELECTOR, m.vmiNameLabel());
                }
                if (m.cause() != null) {
                    meta.putObject("annotations").put(DrainboardAnnotations.MIGRATION_CAUSE, m.cause());
                }
                meta.put("resourceVersion", vmim.getMetadata().getResourceVersion());
                ObjectNode body = NODES.objectNode();
                body.set("metadata", meta);
                writes.patch(VirtualMachineInstanceMigration.class, ns, vmim.getMetadata().getName(), null, PatchType.JSON_MERGE, body.toString());
            }
            case MigrationAction.RemoveFinalizer r -> {
                ArrayNode ops = NODES.arrayNode();
                ops.addObject().put("op", "test").put("path", "/metadata/resourceVersion").put("value", vmim.getMetadata().getResourceVersion());
                List<String> left = vmim.getMetadata().getFinalizers().stream()
                        .filter(f -> !KubeVirtFinalizers.MIGRATION_JOB.equals(f)).toList();
                ops.addObject().put("op", "replace").put("path", "/metadata/finalizers").set("value", JSON.valueToTree(left));
                ignoreMissing(() -> writes.patch(VirtualMachineInstanceMigration.class, ns, vmim.getMetadata().getName(), null, PatchType.JSON, ops.toString()));
            }
            case MigrationAction.ExpandBudget e -> {
                String patch = "{\"metadata\":{\"labels\":{\"" + KubeVirtLabels.MIGRATION_NAME + "\":\"" + e.migrationName()
                        + "\"}},\"spec\":{\"minAvailable\":2}}";
                try {
                    writes.patch(PodDisruptionBudget.class, ns, e.budgetName(), null, PatchType.STRATEGIC_MERGE, patch);
                    events.normal(vmi, KubeVirtEventReasons.SUCCESSFUL_UPDATE, KubeVirtMessages.EXPANDED_PDB, e.budgetName());
                } catch (KubernetesClientException ex) {
                    events.warning(vmi, KubeVirtEventReasons.FAILED_UPDATE, KubeVirtMessages.ERROR_EXPANDING_PDB, e.budgetName(), message(ex));
                    throw ex;
                }
            }
            case MigrationAction.CreateTargetPod c -> {
                podCreations.expectCreations(key, 1);
                try {
                    Pod created = client.pods().inNamespace(ns).resource(c.pod()).create();
                    if (informers.pods().getStore().getByKey(Keys.of(created)) == null) {
                        startedNotSeen.add(vmim.getMetadata().getUid());
                    }
                    events.normal(vmim, KubeVirtEventReasons.SUCCESSFUL_CREATE, KubeVirtMessages.CREATED_TARGET_POD, created.getMetadata().getName());
                } catch (KubernetesClientException ex) {
                    // A timeout may come after the pod was written: only a pod that is surely not there lowers the
                    // expectation, or the next sync creates a second target pod (with the source, three healthy
                    // launcher pods let the expanded PDB allow evicting the one the VM is moving into).
                    if (!dev.drainboard.runtime.WriteOutcomes.mayHaveBeenWritten(ex) || !targetPodExists(ns, vmim.getMetadata().getUid())) {
                        podCreations.creationObserved(key);
                    }
                    events.warning(vmi, KubeVirtEventReasons.FAILED_CREATE, KubeVirtMessages.ERROR_CREATING_POD, message(ex));
                    throw ex;
                }
            }
            case MigrationAction.DeleteTargetPod d -> {
                ignoreMissing(() -> client.pods().inNamespace(ns).withName(d.podName()).delete());
                events.normal(vmim, KubeVirtEventReasons.SUCCESSFUL_DELETE, "%s", d.message());
            }
            case MigrationAction.HandOff h -> handOff(vmim, vmi, h.state());
            case MigrationAction.MarkVmiMigrationFailed f -> markFailed(vmi, vmim.getMetadata().getUid(), f.reason(), now);
            case MigrationAction.RequestAbort a -> {
                ArrayNode ops = NODES.arrayNode();
                ops.addObject().put("op", "test").put("path", "/status/migrationState/migrationUid").put("value", vmim.getMetadata().getUid());
                ops.addObject().put("op", "add").put("path", "/status/migrationState/abortRequested").put("value", true);
                try {
                    writes.patch(VirtualMachineInstance.class, ns, vmi.getMetadata().getName(), null, PatchType.JSON, ops.toString());
                } catch (KubernetesClientException ex) {
                    events.warning(vmim, KubeVirtEventReasons.FAILED_ABORT_MIGRATION, "%s", message(ex));
                    throw ex;
                }
            }
            case MigrationAction.SourcePodEvictionInProgress s -> {
                if (config.current().profile().reportsEvictionRequested()) {
                    return; // from KubeVirt v1.7 the VMI controller keeps this annotation in step with the eviction mark
                }
                String patch = DeschedulerAnnotations.evictionInProgressPatch(s.inProgress());
                ignoreMissing(() -> writes.patch(Pod.class, ns, s.podName(), null, PatchType.JSON_MERGE, patch));
            }
        }
    }

    /**
     * The hand-off (KubeVirt's {@code handleTargetPodHandoff}): one JSON patch with the state and the target node
     * label. Like KubeVirt's {@code patchVMI} it is guarded by what it replaces, not by the VMI's resourceVersion: the
     * node handler and the VMI controller write the VMI all along a drain, and a guard on every change would fail the
     * hand-off (and record a Warning) for writes that have nothing to do with it. What must not have changed is which
     * migration the VMI's state belongs to.
     */
    /** Whether the API server (not the cache) has a target pod of this migration; on a failed read, assume it has. */
    private boolean targetPodExists(String namespace, String migrationUid) {
        try {
            return !client.pods().inNamespace(namespace).withLabel(KubeVirtLabels.MIGRATION_JOB_UID, migrationUid)
                    .list().getItems().isEmpty();
        } catch (KubernetesClientException e) {
            return true; // the expectation expires after its TTL if it never shows
        }
    }

    private void handOff(VirtualMachineInstanceMigration vmim, VirtualMachineInstance vmi, MigrationState state) {
        matchMigrationPolicy(vmim, vmi, state);
        ArrayNode ops = NODES.arrayNode();
        MigrationState previous = vmi.getStatus() == null ? null : vmi.getStatus().getMigrationState();
        if (previous == null) {
            ops.addObject().put("op", "test").put("path", "/status/migrationState").putNull("value");
        } else {
            ops.addObject().put("op", "test").put("path", "/status/migrationState/migrationUid").put("value", previous.getMigrationUid());
        }
        ops.addObject().put("op", "add").put("path", "/status/migrationState").set("value", JSON.valueToTree(state));
        if (vmi.getMetadata().getLabels() == null) {
            ops.addObject().put("op", "test").put("path", "/metadata/labels").putNull("value");
            ops.addObject().put("op", "add").put("path", "/metadata/labels").set("value",
                    NODES.objectNode().put(KubeVirtLabels.MIGRATION_TARGET_NODE_NAME, state.getTargetNode()));
        } else {
            ops.addObject().put("op", "add").put("path", "/metadata/labels/" + escape(KubeVirtLabels.MIGRATION_TARGET_NODE_NAME))
                    .put("value", state.getTargetNode());
        }
        try {
            writes.patch(VirtualMachineInstance.class, vmi.getMetadata().getNamespace(), vmi.getMetadata().getName(), null, PatchType.JSON, ops.toString());
        } catch (KubernetesClientException e) {
            if (handedOff(vmi, state.getMigrationUid())) {
                // Our own earlier hand-off, not yet in the cache: the guard kept it from being written twice.
                LOG.debug("migration {}/{} was already handed off", vmim.getMetadata().getNamespace(), vmim.getMetadata().getName());
                return;
            }
            events.warning(vmim, KubeVirtEventReasons.FAILED_HAND_OVER, KubeVirtMessages.FAILED_HAND_OVER, message(e));
            throw e;
        }
    }

    /** Whether the VMI, read live, already holds this migration's state. */
    private boolean handedOff(VirtualMachineInstance vmi, String migrationUid) {
        VirtualMachineInstance live = client.resources(VirtualMachineInstance.class)
                .inNamespace(vmi.getMetadata().getNamespace()).withName(vmi.getMetadata().getName()).get();
        return live != null && live.getStatus() != null && live.getStatus().getMigrationState() != null
                && migrationUid.equals(live.getStatus().getMigrationState().getMigrationUid());
    }

    /**
     * KubeVirt's {@code matchMigrationPolicy} at the hand-off: the namespace's labels (a GET, as KubeVirt does) and
     * the cached policies (none where the migrations.kubevirt.io CRD is missing) choose the policy; the state gets
     * its name and the resolved configuration, which the source node's handler then follows.
     */
    private void matchMigrationPolicy(VirtualMachineInstanceMigration vmim, VirtualMachineInstance vmi, MigrationState state) {
        Map<String, String> namespaceLabels;
        try {
            Namespace ns = client.namespaces().withName(vmi.getMetadata().getNamespace()).get();
            namespaceLabels = ns == null || ns.getMetadata().getLabels() == null ? Map.of() : ns.getMetadata().getLabels();
        } catch (KubernetesClientException e) {
            events.warning(vmim, KubeVirtEventReasons.FAILED_HAND_OVER, KubeVirtMessages.FAILED_HAND_OVER,
                    "failed to match migration policy: " + message(e));
            throw e;
        }
        MigrationPolicy policy = MigrationPolicies.match(informers.migrationPolicies().getStore().list(),
                vmi.getMetadata().getLabels(), namespaceLabels);
        state.setMigrationPolicyName(policy == null ? null : policy.getMetadata().getName());
        state.setMigrationConfiguration(MigrationPolicies.configuration(config.current().migrations(), policy));
    }

    /**
     * The VMI's state of this migration marked failed and completed, with times and reason filled in (KubeVirt's
     * {@code handleMarkMigrationFailedOnVMI}).
     */
    private void markFailed(VirtualMachineInstance vmi, String uid, String reason, Instant now) {
        MigrationState state = vmi.getStatus().getMigrationState();
        String stamp = now.truncatedTo(ChronoUnit.SECONDS).toString();
        ArrayNode ops = NODES.arrayNode();
        ops.addObject().put("op", "test").put("path", "/status/migrationState/migrationUid").put("value", uid);
        ops.addObject().put("op", "add").put("path", "/status/migrationState/failed").put("value", true);
        ops.addObject().put("op", "add").put("path", "/status/migrationState/completed").put("value", true);
        if (state.getStartTimestamp() == null) {
            ops.addObject().put("op", "add").put("path", "/status/migrationState/startTimestamp").put("value", stamp);
        }
        if (state.getEndTimestamp() == null) {
            ops.addObject().put("op", "add").put("path", "/status/migrationState/endTimestamp").put("value", stamp);
        }
        if (state.getFailureReason() == null || state.getFailureReason().isEmpty()) {
            ops.addObject().put("op", "add").put("path", "/status/migrationState/failureReason").put("value", reason);
        }
        writes.patch(VirtualMachineInstance.class, vmi.getMetadata().getNamespace(), vmi.getMetadata().getName(), null, PatchType.JSON, ops.toString());
        events.warning(vmi, KubeVirtEventReasons.FAILED_MIGRATION, KubeVirtMessages.VMI_MIGRATION_FAILED_TARGET_DOWN, uid);
    }

    /**
     * The VMIM's status: phase and its transition time, the VMI's migration state when it is this migration's
     * (progress included), and {@code migrationAbortRequested}. A JSON patch guarded by the resourceVersion the
     * decision read, so a pass on a stale cache can never move the phase backwards.
     */
    private void writeStatus(VirtualMachineInstanceMigration vmim, VirtualMachineInstance vmi, MigrationDecision.Plan plan, Instant now) {
        var status = vmim.getStatus();
        ArrayNode ops = NODES.arrayNode();
        ops.addObject().put("op", "test").put("path", "/metadata/resourceVersion").put("value", vmim.getMetadata().getResourceVersion());
        int writes = 0;
        if (status == null) {
            ops.addObject().put("op", "add").put("path", "/status").set("value", NODES.objectNode());
        }
        if (plan.phase() != null && !plan.phase().value().equals(status == null ? null : status.getPhase())) {
            ops.addObject().put("op", "add").put("path", "/status/phase").put("value", plan.phase().value());
            ArrayNode stamps = NODES.arrayNode();
            if (status != null && status.getPhaseTransitionTimestamps() != null) {
                status.getPhaseTransitionTimestamps().forEach(s -> stamps.add(JSON.valueToTree(s)));
            }
            String stamp = now.truncatedTo(ChronoUnit.SECONDS).toString();
            for (MigrationPhase entered : plan.entered()) {
                stamps.addObject().put("phase", entered.value()).put("phaseTransitionTimestamp", stamp);
            }
            ops.addObject().put("op", "add").put("path", "/status/phaseTransitionTimestamps").set("value", stamps);
            writes++;
        }
        MigrationState vmiState = vmi == null || vmi.getStatus() == null ? null : vmi.getStatus().getMigrationState();
        if (vmiState != null && vmim.getMetadata().getUid().equals(vmiState.getMigrationUid())) {
            JsonNode wanted = JSON.valueToTree(vmiState);
            JsonNode current = status == null || status.getMigrationState() == null ? null : JSON.valueToTree(status.getMigrationState());
            if (!wanted.equals(current)) {
                ops.addObject().put("op", "add").put("path", "/status/migrationState").set("value", wanted);
                writes++;
            }
        }
        if (plan.abortRequested() && (status == null || !dev.drainboard.kubevirt.api.Conditions.isTrue(status.getConditions(),
                KubeVirtConditions.MIGRATION_ABORT_REQUESTED))) {
            List<Condition> conditions = new ArrayList<>(status == null || status.getConditions() == null ? List.of() : status.getConditions());
            conditions.removeIf(c -> KubeVirtConditions.MIGRATION_ABORT_REQUESTED.equals(c.getType()));
            Condition abort = new Condition(KubeVirtConditions.MIGRATION_ABORT_REQUESTED, KubeVirtConditions.STATUS_TRUE, null, null);
            abort.setLastTransitionTime(now.truncatedTo(ChronoUnit.SECONDS).toString());
            conditions.add(abort);
            ops.addObject().put("op", "add").put("path", "/status/conditions").set("value", JSON.valueToTree(conditions));
            writes++;
        }
        if (writes == 0) {
            return;
        }
        // The answer is decoded here (unlike the other writes): the evacuation controller counts slots from it at once.
        informers.freshMigrations().written(migrations(vmim.getMetadata().getNamespace())
                .resource(PatchTargets.of(vmim, VirtualMachineInstanceMigration::new))
                .subresource("status").patch(PatchContext.of(PatchType.JSON), ops.toString()));
    }

    /**
     * The 5 newest finished VMIMs of a VMI stay; older ones go, with the pod each left behind (KubeVirt's
     * {@code garbageCollectFinalizedMigrations}).
     */
    private void collectGarbage(List<VirtualMachineInstanceMigration> siblings) {
        List<VirtualMachineInstanceMigration> finished = siblings.stream()
                .filter(VirtualMachineInstanceMigration::isFinal)
                .filter(m -> m.getMetadata().getDeletionTimestamp() == null)
                .sorted(MigrationDecision.NEWEST_FIRST)
                .toList();
        for (VirtualMachineInstanceMigration old : finished.stream().skip(KubeVirtDefaults.FINALIZED_MIGRATIONS_KEPT).toList()) {
            String ns = old.getMetadata().getNamespace();
            MigrationState state = old.getStatus() == null ? null : old.getStatus().getMigrationState();
            String defunct = state == null ? null
                    : old.phase().orElse(null) == MigrationPhase.FAILED ? state.getTargetPod() : state.getSourcePod();
            if (defunct != null) {
                ignoreMissing(() -> client.pods().inNamespace(ns).withName(defunct).delete());
            }
            ignoreMissing(() -> migrations(ns).withName(old.getMetadata().getName()).delete());
        }
    }

    private io.fabric8.kubernetes.client.dsl.NonNamespaceOperation<VirtualMachineInstanceMigration,
            io.fabric8.kubernetes.api.model.KubernetesResourceList<VirtualMachineInstanceMigration>,
            io.fabric8.kubernetes.client.dsl.Resource<VirtualMachineInstanceMigration>> migrations(String ns) {
        return client.resources(VirtualMachineInstanceMigration.class).inNamespace(ns);
    }

    private static String label(Pod pod, String key) {
        return pod.getMetadata().getLabels() == null ? null : pod.getMetadata().getLabels().get(key);
    }

    static String escape(String key) {
        return key.replace("~", "~0").replace("/", "~1");
    }

    private static void ignoreMissing(Runnable write) {
        try {
            write.run();
        } catch (KubernetesClientException e) {
            if (e.getCode() != 404) {
                throw e;
            }
        }
    }

    private static String message(KubernetesClientException e) {
        return e.getStatus() != null && e.getStatus().getMessage() != null ? e.getStatus().getMessage() : e.getMessage();
    }

}
