package dev.drainboard.controller.vmi;

import dev.drainboard.controller.informers.SharedInformers;
import dev.drainboard.kubevirt.DeschedulerAnnotations;
import dev.drainboard.kubevirt.config.ClusterConfig;
import dev.drainboard.kubevirt.config.ClusterConfigSource;
import java.util.function.Supplier;
import dev.drainboard.kubevirt.KubeVirtEventReasons;
import dev.drainboard.kubevirt.KubeVirtLabels;
import dev.drainboard.kubevirt.KubeVirtMessages;
import dev.drainboard.kubevirt.KubeVirtValues;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.runtime.ControllerLoop;
import dev.drainboard.runtime.WriteOutcomes;
import dev.drainboard.runtime.ControllerManager;
import dev.drainboard.runtime.EventComponents;
import dev.drainboard.runtime.EventRecorder;
import dev.drainboard.runtime.Expectations;
import dev.drainboard.runtime.Keys;
import dev.drainboard.runtime.LeanWrites;
import dev.drainboard.runtime.ObjectEvents;
import dev.drainboard.runtime.Result;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.util.List;

/**
 * The VMI controller's loop: for a VMI key, read the VMI, its pods and its migrations from the caches, let
 * {@link VmiDecision} decide, then create/delete pods (with expectations and events) and patch the VMI.
 */
public final class VmiController {

    private static final Logger log = LoggerFactory.getLogger(VmiController.class);
    public static final String NAME = "vmi-controller";
    /** KubeVirt's VMI controller runs 10 workers. */
    public static final int WORKERS = 10;

    private final KubernetesClient client;
    private final Supplier<ClusterConfig> config;
    private final LeanWrites writes;
    private final SharedInformers informers;
    private final EventRecorder events;
    private final Clock clock;
    private final Expectations<String> podCreations = new Expectations<>();

    private VmiController(KubernetesClient client, SharedInformers informers, EventRecorder events, Clock clock,
                          Supplier<ClusterConfig> config) {
        this.config = config;
        this.client = client;
        this.writes = new LeanWrites(client);
        this.informers = informers;
        this.events = events;
        this.clock = clock;
    }

    /** Builds the loop on the shared informers and registers it with the manager (it runs while leading). */
    public static ControllerLoop<String> register(ControllerManager manager, SharedInformers informers) {
        return manager.register(new VmiController(manager.client(), informers,
                manager.eventRecorder(EventComponents.VMI), Clock.systemUTC(), ClusterConfig::defaults).loop());
    }

    /** As {@link #register(ControllerManager, SharedInformers)}, deciding by the cluster's KubeVirt profile. */
    public static ControllerLoop<String> register(ControllerManager manager, SharedInformers informers, ClusterConfigSource config) {
        VmiController controller = new VmiController(manager.client(), informers,
                manager.eventRecorder(EventComponents.VMI), Clock.systemUTC(), config::current);
        ControllerLoop<String> loop = manager.register(controller.loop());
        // A new profile changes what every VMI should show (condition, pod annotation).
        config.addListener(c -> informers.vmis().getStore().list().forEach(vmi -> loop.enqueue(Keys.of(vmi))));
        return loop;
    }

    ControllerLoop<String> loop() {
        informers.pods().addEventHandler(ObjectEvents.<Pod>handler()
                .added(pod -> SharedInformers.controllingVmiKey(pod).ifPresent(podCreations::creationObserved)));
        return ControllerLoop.<String>builder(NAME, this::reconcile)
                .workers(WORKERS)
                .watch(informers.vmis(), Keys::of)
                .watchAll(informers.pods(), pod -> SharedInformers.controllingVmiKey(pod).map(List::of).orElse(List.of()))
                .watchAll(informers.migrations(), vmim -> vmim.getSpec() == null || vmim.getSpec().getVmiName() == null
                        ? List.of() : List.of(Keys.of(vmim.getMetadata().getNamespace(), vmim.getSpec().getVmiName())))
                .build();
    }

    Result reconcile(String key) {
        VirtualMachineInstance vmi = informers.vmis().getStore().getByKey(key);
        if (vmi == null) {
            podCreations.delete(key);
            return Result.done(); // its pods go with it: owner references, garbage collection
        }
        if (!podCreations.satisfied(key)) {
            return Result.requeue(); // a pod we created is not in the cache yet
        }
        List<Pod> pods = informers.podsOf(key).stream().filter(p -> LauncherPodState.ownedBy(p, vmi)).toList();
        boolean activeMigration = VmiDecision.hasActiveMigration(informers.migrationsOf(key));
        VmiPlan plan = VmiDecision.decide(vmi, pods, activeMigration, config.get().profile(), clock.instant());

        for (Pod pod : plan.podsToDelete()) {
            deletePod(vmi, pod);
        }
        VmiChange change = plan.change();
        if (plan.podToCreate() != null) {
            try {
                createPod(key, vmi, plan.podToCreate());
            } catch (KubernetesClientException e) {
                try {
                    patchStatus(vmi, change); // Pending (and the finalizer) while the pod cannot be created
                } catch (KubernetesClientException alsoFailed) {
                    e.addSuppressed(alsoFailed);
                }
                throw e;
            }
            change = VmiDecision.podCreated(vmi, change, clock.instant());
        }
        for (Pod pod : plan.podsToMarkUnpaused()) {
            markUnpaused(pod);
        }
        if (plan.evictionInProgress() != null) {
            markEvictionInProgress(plan.evictionInProgress());
        }
        if (!patchStatus(vmi, change)) {
            return Result.requeue(); // written meanwhile: decide again on what the cache brings
        }
        if (plan.blockedByMigration()) {
            log.debug("{}: {}", key, KubeVirtMessages.ACTIVE_MIGRATION_EXISTS);
            return Result.requeue();
        }
        return Result.done();
    }

    /** Writes the change (if any) guarded by the cached resourceVersion; false when the VMI was written meanwhile. */
    private boolean patchStatus(VirtualMachineInstance vmi, VmiChange change) {
        String patch = VmiPatches.jsonPatch(vmi, change);
        if (patch == null) {
            return true;
        }
        try {
            writes.patch(VirtualMachineInstance.class, vmi.getMetadata().getNamespace(), vmi.getMetadata().getName(),
                    null, PatchType.JSON, patch);
            return true;
        } catch (KubernetesClientException e) {
            if (isConflict(e)) {
                return false;
            }
            throw e;
        }
    }

    private void createPod(String key, VirtualMachineInstance vmi, Pod pod) {
        podCreations.expectCreations(key, 1);
        try {
            String created = writes.create(pod);
            events.normal(vmi, KubeVirtEventReasons.SUCCESSFUL_CREATE, KubeVirtMessages.CREATED_VIRTUAL_MACHINE_POD, created);
        } catch (KubernetesClientException e) {
            // After a timeout the pod may exist all the same: lowering the expectation then would make a second one.
            if (!WriteOutcomes.mayHaveBeenWritten(e) || !launcherPodExists(vmi)) {
                podCreations.creationObserved(key); // it will never be seen
            }
            events.warning(vmi, KubeVirtEventReasons.FAILED_CREATE, KubeVirtMessages.ERROR_CREATING_POD, message(e));
            throw e;
        }
    }

    /** Whether the API server (not the cache) has a launcher pod of this VMI; on a failed read, assume it has. */
    private boolean launcherPodExists(VirtualMachineInstance vmi) {
        try {
            return !client.pods().inNamespace(vmi.getMetadata().getNamespace())
                    .withLabel(KubeVirtLabels.CREATED_BY, vmi.getMetadata().getUid()).list().getItems().isEmpty();
        } catch (KubernetesClientException e) {
            return true; // the expectation expires after its TTL if it never shows
        }
    }

    private void deletePod(VirtualMachineInstance vmi, Pod pod) {
        try {
            // Default options: the pod's own grace period (VMI grace + 30 s) applies.
            client.pods().inNamespace(pod.getMetadata().getNamespace()).withName(pod.getMetadata().getName()).delete();
            events.normal(vmi, KubeVirtEventReasons.SUCCESSFUL_DELETE, KubeVirtMessages.DELETED_VIRTUAL_MACHINE_POD, pod.getMetadata().getName());
        } catch (KubernetesClientException e) {
            if (e.getCode() == 404) {
                return;
            }
            events.warning(vmi, KubeVirtEventReasons.FAILED_DELETE, KubeVirtMessages.FAILED_DELETING_VIRTUAL_MACHINE_POD, pod.getMetadata().getName());
            throw e;
        }
    }

    /** The launcher's readiness gate: KubeVirt reports the guest unpaused so that the kubelet can call the pod Ready. */
    private void markUnpaused(Pod pod) {
        try {
            // Strategic merge: conditions merge by type, so the kubelet's own conditions stay as they are.
            String patch = "{\"status\":{\"conditions\":[{\"type\":\"" + KubeVirtValues.READINESS_GATE_UNPAUSED
                    + "\",\"status\":\"True\",\"lastProbeTime\":null,\"lastTransitionTime\":\""
                    + VmiDecision.timestamp(clock.instant()) + "\"}]}}";
            writes.patch(Pod.class, pod.getMetadata().getNamespace(), pod.getMetadata().getName(), "status",
                    PatchType.STRATEGIC_MERGE, patch);
        } catch (KubernetesClientException e) {
            if (e.getCode() != 404) {
                throw e;
            }
        }
    }

    /** The descheduler's annotation on the launcher pod (KubeVirt v1.7+: the VMI controller's to keep). */
    private void markEvictionInProgress(VmiPlan.EvictionInProgress change) {
        Pod pod = change.pod();
        try {
            writes.patch(Pod.class, pod.getMetadata().getNamespace(), pod.getMetadata().getName(), null,
                    PatchType.JSON_MERGE, DeschedulerAnnotations.evictionInProgressPatch(change.inProgress()));
        } catch (KubernetesClientException e) {
            if (e.getCode() != 404) {
                throw e;
            }
        }
    }

    /** 409 for a stale resourceVersion; 422 when the patch's resourceVersion test fails. */
    static boolean isConflict(KubernetesClientException e) {
        return e.getCode() == 409 || e.getCode() == 422;
    }

    private static String message(KubernetesClientException e) {
        return e.getStatus() != null && e.getStatus().getMessage() != null ? e.getStatus().getMessage() : e.getMessage();
    }
}
