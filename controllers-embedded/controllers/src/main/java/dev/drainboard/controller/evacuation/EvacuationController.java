package dev.drainboard.controller.evacuation;

import dev.drainboard.controller.informers.SharedInformers;
import dev.drainboard.kubevirt.DrainboardAnnotations;
import dev.drainboard.kubevirt.KubeVirtAnnotations;
import dev.drainboard.kubevirt.KubeVirtDefaults;
import dev.drainboard.kubevirt.KubeVirtEventReasons;
import dev.drainboard.kubevirt.KubeVirtFinalizers;
import dev.drainboard.kubevirt.KubeVirtLabels;
import dev.drainboard.kubevirt.KubeVirtMessages;
import dev.drainboard.kubevirt.KubeVirtValues;
import dev.drainboard.controller.migration.MigrationSlots;
import dev.drainboard.kubevirt.DeschedulerAnnotations;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceMigration;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceMigrationSpec;
import dev.drainboard.kubevirt.config.ClusterConfigSource;
import dev.drainboard.runtime.ControllerLoop;
import dev.drainboard.runtime.ControllerManager;
import dev.drainboard.runtime.EventComponents;
import dev.drainboard.runtime.EventRecorder;
import dev.drainboard.runtime.Expectations;
import dev.drainboard.runtime.Keys;
import dev.drainboard.runtime.ObjectEvents;
import dev.drainboard.runtime.Result;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The evacuation controller ({@code pkg/virt-controller/watch/drain/evacuation/evacuation.go} in KubeVirt): per node,
 * creates the VMIMs that move marked VMIs (or, under the drain taint, all of them) away: as many as the migration
 * limits allow, or, with the migration priority queue on, all at once with their priority (the migration controller
 * then holds them Pending until their turn). Keys are node names; the decision is {@link EvacuationDecision}.
 *
 * <p>Better than KubeVirt's fixed 5-second re-check: a node that found no free slot is remembered, and the moment
 * any migration ends every such node is queued again, so the next migration starts within milliseconds.
 */
public final class EvacuationController {

    private static final Logger LOG = LoggerFactory.getLogger(EvacuationController.class);
    public static final String NAME = "evacuation";
    private static final String VMIS_BY_NODE = "evacuation-node";
    /** Runs a pass's VMIM creates side by side; they only wait for the API. */
    private static final ExecutorService CREATES = Executors.newVirtualThreadPerTaskExecutor();

    private final KubernetesClient client;
    private final SharedInformers informers;
    private final SharedIndexInformer<Node> nodes;
    private final ClusterConfigSource config;
    private final EventRecorder events;
    private final Clock clock;
    private final Expectations<String> creations = new Expectations<>();
    /** Nodes that have candidates but found no free slot. */
    private final Set<String> waitingForSlot = ConcurrentHashMap.newKeySet();
    private final Map<String, Instant> lastWarned = new ConcurrentHashMap<>();
    /** Passes for different nodes share the cluster's slots: one at a time decides and creates. */
    private final Object slots = new Object();
    private ControllerLoop<String> loop;

    private EvacuationController(ControllerManager manager, SharedInformers informers, ClusterConfigSource config) {
        this.client = manager.client();
        this.informers = informers;
        this.config = config;
        this.events = manager.eventRecorder(EventComponents.EVACUATION);
        this.clock = Clock.systemUTC();
        this.nodes = manager.informer(Node.class);
    }

    /** Builds the controller on the shared informers (adds a Node informer) and registers its loop. */
    public static EvacuationController register(ControllerManager manager, SharedInformers informers, ClusterConfigSource config) {
        EvacuationController c = new EvacuationController(manager, informers, config);
        informers.vmis().addIndexers(Map.of(VMIS_BY_NODE, vmi -> {
            String node = nodeOf(vmi);
            return node == null ? List.of() : List.of(node);
        }));
        c.loop = ControllerLoop.<String>builder(NAME, c::reconcile)
                .workers(KubeVirtDefaults.CONTROLLER_THREADS)
                .watch(c.nodes, node -> node.getMetadata().getName())
                .watch(informers.vmis(), EvacuationController::nodeOf, (before, after) -> c.concerns(before) || c.concerns(after))
                .waitFor(informers.migrations())
                .waitFor(informers.pods())
                .build();
        c.observeMigrations();
        // A migration this process just finished frees its slot now, not when the watch brings the VMIM back.
        informers.freshMigrations().addWriteListener(m -> {
            if (m.isFinal()) {
                c.slotFreed();
            }
        });
        config.addListener(cfg -> c.nodes.getStore().list().forEach(node -> c.loop.enqueue(node.getMetadata().getName())));
        manager.register(c.loop);
        return c;
    }

    public ControllerLoop<String> loop() {
        return loop;
    }

    /** See {@link EvacuationDecision#concernsEvacuation}: most VMI changes (a VMI starting) leave every pass idle. */
    private boolean concerns(VirtualMachineInstance vmi) {
        String node = nodeOf(vmi);
        return EvacuationDecision.concernsEvacuation(vmi, node == null ? null : nodes.getStore().getByKey(node),
                config.current().migrations().nodeDrainTaintKey());
    }

    private static String nodeOf(VirtualMachineInstance vmi) {
        String node = vmi.getStatus() == null ? null : vmi.getStatus().getNodeName();
        return node == null || node.isEmpty() ? null : node;
    }

    private void observeMigrations() {
        informers.migrations().addEventHandler(ObjectEvents.<VirtualMachineInstanceMigration>handler()
                .added(m -> {
                    String node = evacuatedNode(m);
                    if (node != null) {
                        creations.creationObserved(node);
                        loop.enqueue(node);
                    } else {
                        enqueueNodeOfVmi(m);
                    }
                })
                .updated((before, after) -> {
                    enqueueNodeOfVmi(after);
                    if (!before.isFinal() && after.isFinal()) {
                        slotFreed();
                    }
                })
                .deleted(m -> {
                    enqueueNodeOfVmi(m);
                    if (!m.isFinal()) {
                        slotFreed();
                    }
                }));
    }

    /** A migration ended: every node waiting for a slot gets another look at once. */
    private void slotFreed() {
        for (String node : Set.copyOf(waitingForSlot)) {
            loop.enqueue(node);
        }
    }

    private static String evacuatedNode(VirtualMachineInstanceMigration m) {
        Map<String, String> annotations = m.getMetadata().getAnnotations();
        return annotations == null ? null : annotations.get(KubeVirtAnnotations.EVACUATION_MIGRATION);
    }

    private void enqueueNodeOfVmi(VirtualMachineInstanceMigration m) {
        if (m.getSpec() == null || m.getSpec().getVmiName() == null) {
            return;
        }
        VirtualMachineInstance vmi = informers.vmis().getStore().getByKey(Keys.of(m.getMetadata().getNamespace(), m.getSpec().getVmiName()));
        if (vmi != null) {
            loop.enqueue(nodeOf(vmi));
        }
    }

    Result reconcile(String nodeName) {
        synchronized (slots) {
            return reconcileHoldingSlots(nodeName);
        }
    }

    private Result reconcileHoldingSlots(String nodeName) {
        Node node = nodes.getStore().getByKey(nodeName);
        if (node == null) {
            creations.delete(nodeName);
            waitingForSlot.remove(nodeName);
            return Result.done();
        }
        if (!creations.satisfied(nodeName)) {
            return Result.done(); // the VMIM add events bring the node back
        }
        List<VirtualMachineInstance> onNode = informers.vmis().getIndexer().byIndex(VMIS_BY_NODE, nodeName);
        // The limits are cluster-wide: count the VMIMs just created (by this or another node's pass) and those just
        // finished at once, not when the cache catches up.
        List<VirtualMachineInstanceMigration> unfinished = MigrationSlots.unfinished(informers.freshMigrations().list());
        Map<String, String> vmiNodes = new HashMap<>();
        for (VirtualMachineInstanceMigration m : unfinished) {
            if (m.getSpec() == null || m.getSpec().getVmiName() == null) {
                continue;
            }
            String key = Keys.of(m.getMetadata().getNamespace(), m.getSpec().getVmiName());
            VirtualMachineInstance vmi = informers.vmis().getStore().getByKey(key);
            if (vmi != null && nodeOf(vmi) != null) {
                vmiNodes.put(key, nodeOf(vmi));
            }
        }
        Map<String, Integer> activePods = activePods(onNode);
        Instant now = clock.instant();
        EvacuationDecision.Plan plan = EvacuationDecision.decide(new EvacuationDecision.Input(node, onNode, unfinished,
                vmiNodes, activePods, config.current(), Map.copyOf(lastWarned), now, rivals(nodeName, unfinished)));

        if (plan.waitForSlot()) {
            waitingForSlot.add(nodeName);
        } else {
            waitingForSlot.remove(nodeName);
        }
        plan.yieldTo().forEach(loop::enqueue);
        for (VirtualMachineInstance vmi : plan.warn()) {
            lastWarned.put(Keys.of(vmi), now);
            events.normal(vmi, KubeVirtEventReasons.FAILED_CREATE, KubeVirtMessages.VMI_NOT_MIGRATEABLE);
        }
        KubernetesClientException failure = null;
        if (!plan.migrate().isEmpty()) {
            LOG.info("node {}: {} migrations in flight, creating {}", nodeName, unfinished.size(), plan.migrate().size());
            creations.expectCreations(nodeName, plan.migrate().size());
            // Concurrently, as KubeVirt creates them: two free slots cost one round trip, not two.
            List<CompletableFuture<KubernetesClientException>> creates = plan.migrate().stream()
                    .map(c -> CompletableFuture.supplyAsync(() -> create(c, nodeName), CREATES))
                    .toList();
            for (CompletableFuture<KubernetesClientException> create : creates) {
                KubernetesClientException e = create.join();
                failure = failure == null ? e : failure;
            }
        }
        if (failure != null) {
            return Result.error(failure);
        }
        return plan.requeueAfter() == null ? Result.done() : Result.requeueAfter(plan.requeueAfter());
    }

    /** The other nodes waiting for a slot, each with what it could start now (from the caches, not its last pass). */
    private List<EvacuationDecision.Rival> rivals(String self, List<VirtualMachineInstanceMigration> unfinished) {
        List<EvacuationDecision.Rival> rivals = new ArrayList<>();
        for (String other : waitingForSlot) {
            Node node = other.equals(self) ? null : nodes.getStore().getByKey(other);
            if (node == null) {
                continue;
            }
            List<VirtualMachineInstance> onNode = informers.vmis().getIndexer().byIndex(VMIS_BY_NODE, other);
            int candidates = EvacuationDecision.candidateCount(node, onNode, unfinished, activePods(onNode), config.current());
            if (candidates > 0) {
                rivals.add(new EvacuationDecision.Rival(other, candidates));
            }
        }
        return rivals;
    }

    private Map<String, Integer> activePods(List<VirtualMachineInstance> vmis) {
        Map<String, Integer> activePods = new HashMap<>();
        for (VirtualMachineInstance vmi : vmis) {
            activePods.put(Keys.of(vmi), activePods(vmi));
        }
        return activePods;
    }

    /** Creates one VMIM; returns the API's refusal, or null. */
    private KubernetesClientException create(EvacuationDecision.Candidate c, String nodeName) {
        try {
            VirtualMachineInstanceMigration created = client.resources(VirtualMachineInstanceMigration.class)
                    .inNamespace(c.vmi().getMetadata().getNamespace())
                    .resource(newMigration(c.vmi(), nodeName, c.cause(), config.current().migrationPriorityQueue())).create();
            informers.freshMigrations().written(created);
            events.normal(c.vmi(), KubeVirtEventReasons.SUCCESSFUL_CREATE, KubeVirtMessages.CREATED_MIGRATION, created.getMetadata().getName());
            return null;
        } catch (KubernetesClientException e) {
            creations.creationObserved(nodeName); // it will never be seen
            events.warning(c.vmi(), KubeVirtEventReasons.FAILED_CREATE, KubeVirtMessages.ERROR_CREATING_MIGRATION, message(e));
            return e;
        }
    }

    private int activePods(VirtualMachineInstance vmi) {
        String uid = vmi.getMetadata().getUid();
        int n = 0;
        for (Pod pod : informers.podsOf(Keys.of(vmi))) {
            boolean ours = pod.getMetadata().getOwnerReferences().stream().anyMatch(r -> uid.equals(r.getUid()));
            String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
            if (ours && !"Succeeded".equals(phase) && !"Failed".equals(phase)) {
                n++;
            }
        }
        return n;
    }

    /**
     * The VMIM as KubeVirt's {@code GenerateNewMigration} makes it: {@code generateName: kubevirt-evacuation-}, the
     * evacuated node in {@code kubevirt.io/evacuationMigration}, with the priority queue on a priority:
     * system-critical (system-maintenance for the descheduler); plus what KubeVirt's mutating webhook would add (the
     * {@code kubevirt.io/vmi-name} label, the finalizer) and Drainboard's cause annotation. Without the queue there is
     * no priority (v1.8's {@code GenerateNewMigration} sets it only when the gate is on; older releases have no field).
     */
    public static VirtualMachineInstanceMigration newMigration(VirtualMachineInstance vmi, String node, String cause,
                                                               boolean priorityQueue) {
        VirtualMachineInstanceMigration m = new VirtualMachineInstanceMigration();
        boolean descheduler = DeschedulerAnnotations.evictedByDescheduler(vmi);
        m.setMetadata(new ObjectMetaBuilder()
                .withGenerateName(KubeVirtValues.EVACUATION_MIGRATION_GENERATE_NAME)
                .withNamespace(vmi.getMetadata().getNamespace())
                .addToAnnotations(KubeVirtAnnotations.EVACUATION_MIGRATION, node)
                .addToAnnotations(DrainboardAnnotations.MIGRATION_CAUSE, cause)
                .addToLabels(KubeVirtLabels.MIGRATION_SELECTOR, vmi.getMetadata().getName())
                .withFinalizers(KubeVirtFinalizers.MIGRATION_JOB)
                .build());
        VirtualMachineInstanceMigrationSpec spec = new VirtualMachineInstanceMigrationSpec(vmi.getMetadata().getName());
        if (priorityQueue) {
            spec.setPriority(descheduler ? KubeVirtValues.PRIORITY_SYSTEM_MAINTENANCE : KubeVirtValues.PRIORITY_SYSTEM_CRITICAL);
        }
        m.setSpec(spec);
        return m;
    }

    private static String message(KubernetesClientException e) {
        return e.getStatus() != null && e.getStatus().getMessage() != null ? e.getStatus().getMessage() : e.getMessage();
    }
}
