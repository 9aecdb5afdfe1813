package dev.drainboard.controller.replicaset;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.drainboard.controller.informers.SharedInformers;
import dev.drainboard.kubevirt.KubeVirtConditions;
import dev.drainboard.kubevirt.KubeVirtDefaults;
import dev.drainboard.kubevirt.KubeVirtEventReasons;
import dev.drainboard.kubevirt.KubeVirtMessages;
import dev.drainboard.kubevirt.api.Condition;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceReplicaSet;
import dev.drainboard.kubevirt.replicaset.ReplicaSetSelector;
import dev.drainboard.kubevirt.replicaset.ReplicaSetValidation;
import dev.drainboard.runtime.ControllerLoop;
import dev.drainboard.runtime.ControllerManager;
import dev.drainboard.runtime.EventComponents;
import dev.drainboard.runtime.EventRecorder;
import dev.drainboard.runtime.Expectations;
import dev.drainboard.runtime.Keys;
import dev.drainboard.runtime.ObjectEvents;
import dev.drainboard.runtime.PatchTargets;
import dev.drainboard.runtime.Result;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Function;

/**
 * The replica set controller's loop: for a VMIRS key, read the set and its namespace's VMIs from the caches, let
 * {@link ReplicaSetDecision} decide, then release and adopt, create or delete VMIs (with expectations and events,
 * in batches that double from 1 and stop at the first failure), and merge-patch the status subresource.
 */
public final class ReplicaSetController {

    public static final String NAME = "replicaset-controller";
    public static final int WORKERS = KubeVirtDefaults.CONTROLLER_THREADS;
    public static final int BURST = KubeVirtDefaults.BURST_REPLICAS;
    private static final Logger log = LoggerFactory.getLogger(ReplicaSetController.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final KubernetesClient client;
    private final SharedInformers informers;
    private final EventRecorder events;
    private final Clock clock;
    private final Expectations<String> expectations = new Expectations<>();
    /** VMI uid → set key, for deletions this controller asked for and has not yet seen. */
    private final Map<String, String> pendingDeletions = new ConcurrentHashMap<>();

    private ReplicaSetController(KubernetesClient client, SharedInformers informers, EventRecorder events, Clock clock) {
        this.client = client;
        this.informers = informers;
        this.events = events;
        this.clock = clock;
    }

    /** Builds the loop on the shared informers and registers it with the manager (it runs while leading). */
    public static ControllerLoop<String> register(ControllerManager manager, SharedInformers informers) {
        return manager.register(new ReplicaSetController(manager.client(), informers,
                manager.eventRecorder(EventComponents.REPLICA_SET), Clock.systemUTC()).loop());
    }

    ControllerLoop<String> loop() {
        informers.vmis().addEventHandler(ObjectEvents.<VirtualMachineInstance>handler()
                .added(vmi -> {
                    String owner = ownerKey(vmi);
                    if (owner != null) {
                        expectations.creationObserved(owner);
                    }
                })
                .updated((before, after) -> {
                    if (after.getMetadata().getDeletionTimestamp() != null) {
                        deletionSeen(after);
                    }
                })
                .deleted(this::deletionSeen));
        return ControllerLoop.<String>builder(NAME, this::reconcile)
                .workers(WORKERS)
                .watch(informers.replicaSets(), Keys::of)
                .watchAll(informers.vmis(), this::keysFor)
                .build();
    }

    private void deletionSeen(VirtualMachineInstance vmi) {
        String key = pendingDeletions.remove(vmi.getMetadata().getUid());
        if (key != null) {
            expectations.deletionObserved(key);
        }
    }

    /** The set controlling the VMI; for an orphan, every set of its namespace whose selector matches it. */
    private Set<String> keysFor(VirtualMachineInstance vmi) {
        String owner = ownerKey(vmi);
        if (owner != null) {
            return Set.of(owner);
        }
        if (ReplicaSetVmis.controllerRef(vmi).isPresent()) {
            return Set.of();
        }
        Set<String> keys = new java.util.HashSet<>();
        for (VirtualMachineInstanceReplicaSet rs : informers.replicaSets().getIndexer()
                .byIndex(Cache.NAMESPACE_INDEX, vmi.getMetadata().getNamespace())) {
            if (rs.getSpec() == null) {
                continue;
            }
            try {
                if (ReplicaSetSelector.parse(rs.getSpec().getSelector()).matches(vmi.getMetadata().getLabels())) {
                    keys.add(rs.key());
                }
            } catch (ReplicaSetSelector.InvalidSelectorException e) {
                // an invalid set claims nothing
            }
        }
        return keys;
    }

    private static String ownerKey(VirtualMachineInstance vmi) {
        return ReplicaSetVmis.controllerRef(vmi)
                .filter(ref -> ReplicaSetVmis.KIND.equals(ref.getKind()))
                .map(ref -> Keys.of(vmi.getMetadata().getNamespace(), ref.getName()))
                .orElse(null);
    }

    Result reconcile(String key) {
        VirtualMachineInstanceReplicaSet rs = informers.replicaSets().getStore().getByKey(key);
        if (rs == null) {
            expectations.delete(key);
            return Result.done();
        }
        List<ReplicaSetValidation.FieldError> invalid = ReplicaSetValidation.validate(rs);
        if (!invalid.isEmpty()) {
            // Nothing this controller can fix; the API (webhook, embedded server, ops) refuses such sets anyway.
            log.warn("{}: ignoring {}: {}", NAME, key, ReplicaSetValidation.describe(invalid));
            return Result.done();
        }
        ReplicaSetSelector selector;
        try {
            selector = ReplicaSetSelector.parse(rs.getSpec().getSelector());
        } catch (ReplicaSetSelector.InvalidSelectorException e) {
            return Result.done(); // validated above
        }
        List<VirtualMachineInstance> vmis = informers.vmis().getIndexer().byIndex(Cache.NAMESPACE_INDEX, rs.getMetadata().getNamespace());
        ReplicaSetPlan plan = ReplicaSetDecision.decide(rs, selector, vmis, expectations.satisfied(key), BURST);

        plan.release().forEach(vmi -> release(rs, vmi));
        if (!plan.adopt().isEmpty() && !adopt(rs, plan.adopt())) {
            return Result.requeue(); // the cache will show who owns them now
        }

        ScaleOutcome outcome = ScaleOutcome.notAttempted();
        if (plan.scaling()) {
            if (plan.create() > 0) {
                outcome = create(key, rs, plan.create());
            } else if (!plan.delete().isEmpty()) {
                outcome = delete(key, rs, plan.delete());
            } else {
                outcome = ScaleOutcome.succeeded();
            }
            if (!outcome.failed()) {
                plan.cleanup().forEach(vmi -> cleanUp(rs, vmi));
            }
        }

        boolean paused = Boolean.TRUE.equals(rs.getSpec().getPaused());
        writeStatus(rs, plan, outcome, paused);
        if (outcome.failed()) {
            return Result.error(new IllegalStateException(outcome.message()));
        }
        return Result.done();
    }

    // ---- claims ----

    /** Takes the set's controller reference off a VMI whose labels no longer match. Gone or changed: nothing to do. */
    private void release(VirtualMachineInstanceReplicaSet rs, VirtualMachineInstance vmi) {
        List<OwnerReference> kept = new ArrayList<>(vmi.getMetadata().getOwnerReferences());
        kept.removeIf(r -> Objects.equals(r.getUid(), rs.getMetadata().getUid()));
        ArrayNode patch = JSON.createArrayNode();
        // A VMI changed meanwhile fails the test (422); its update event brings the set back for another pass.
        patch.addObject().put("op", "test").put("path", "/metadata/resourceVersion").put("value", vmi.getMetadata().getResourceVersion());
        if (kept.isEmpty()) {
            patch.addObject().put("op", "remove").put("path", "/metadata/ownerReferences");
        } else {
            patch.addObject().put("op", "replace").put("path", "/metadata/ownerReferences").set("value", JSON.valueToTree(kept));
        }
        try {
            patchVmi(vmi, patch);
            log.info("{}: released {}/{} from {}", NAME, vmi.getMetadata().getNamespace(), vmi.getMetadata().getName(), rs.key());
        } catch (KubernetesClientException e) {
            if (e.getCode() != 404 && e.getCode() != 422) {
                throw e;
            }
        }
    }

    /**
     * Makes the set the controller of matching orphans, after a fresh read confirms the set still exists and is not
     * being deleted. Each patch tests the VMI's resourceVersion: an orphan that changed meanwhile is left for the next
     * pass. Returns false when a VMI could not be adopted.
     */
    private boolean adopt(VirtualMachineInstanceReplicaSet rs, List<VirtualMachineInstance> orphans) {
        VirtualMachineInstanceReplicaSet fresh = client.resources(VirtualMachineInstanceReplicaSet.class)
                .inNamespace(rs.getMetadata().getNamespace()).withName(rs.getMetadata().getName()).get();
        if (fresh == null || !Objects.equals(fresh.getMetadata().getUid(), rs.getMetadata().getUid())
                || fresh.getMetadata().getDeletionTimestamp() != null) {
            return false;
        }
        boolean all = true;
        for (VirtualMachineInstance vmi : orphans) {
            List<OwnerReference> refs = new ArrayList<>(vmi.getMetadata().getOwnerReferences() == null
                    ? List.of() : vmi.getMetadata().getOwnerReferences());
            refs.add(ReplicaSetTemplates.controllerRef(rs));
            ArrayNode patch = JSON.createArrayNode();
            patch.addObject().put("op", "test").put("path", "/metadata/resourceVersion").put("value", vmi.getMetadata().getResourceVersion());
            patch.addObject().put("op", "add").put("path", "/metadata/ownerReferences").set("value", JSON.valueToTree(refs));
            try {
                patchVmi(vmi, patch);
                log.info("{}: adopted {}/{} into {}", NAME, vmi.getMetadata().getNamespace(), vmi.getMetadata().getName(), rs.key());
            } catch (KubernetesClientException e) {
                if (e.getCode() != 404 && e.getCode() != 409 && e.getCode() != 422) {
                    throw e;
                }
                all = false;
            }
        }
        return all;
    }

    private void patchVmi(VirtualMachineInstance vmi, ArrayNode patch) {
        client.resources(VirtualMachineInstance.class).inNamespace(vmi.getMetadata().getNamespace())
                .resource(PatchTargets.of(vmi, VirtualMachineInstance::new))
                .patch(PatchContext.of(PatchType.JSON), patch.toString());
    }

    // ---- scaling ----

    private ScaleOutcome create(String key, VirtualMachineInstanceReplicaSet rs, int count) {
        expectations.expectCreations(key, count);
        String error = inBatches(count, i -> {
            try {
                VirtualMachineInstance created = client.resources(VirtualMachineInstance.class)
                        .inNamespace(rs.getMetadata().getNamespace()).resource(ReplicaSetTemplates.render(rs)).create();
                events.normal(rs, KubeVirtEventReasons.SUCCESSFUL_CREATE, KubeVirtMessages.RS_STARTED_VM, created.getMetadata().getName());
                return null;
            } catch (KubernetesClientException e) {
                expectations.creationObserved(key); // never to be seen
                String message = apiMessage(e);
                events.warning(rs, KubeVirtEventReasons.FAILED_CREATE, KubeVirtMessages.RS_ERROR_CREATING_VMI, message);
                return message;
            }
        }, skipped -> expectations.lowerExpectations(key, skipped, 0));
        return error == null ? ScaleOutcome.succeeded() : ScaleOutcome.failedCreate(error);
    }

    private ScaleOutcome delete(String key, VirtualMachineInstanceReplicaSet rs, List<VirtualMachineInstance> victims) {
        expectations.expectDeletions(key, victims.size());
        String error = inBatches(victims.size(), i -> {
            VirtualMachineInstance vmi = victims.get(i);
            String uid = vmi.getMetadata().getUid();
            pendingDeletions.put(uid, key);
            try {
                // Default options: the VMI's own grace period lets its guest shut down.
                client.resources(VirtualMachineInstance.class).inNamespace(vmi.getMetadata().getNamespace())
                        .withName(vmi.getMetadata().getName()).delete();
                events.normal(rs, KubeVirtEventReasons.SUCCESSFUL_DELETE, KubeVirtMessages.RS_STOPPED_VM, uid);
                return null;
            } catch (KubernetesClientException e) {
                if (pendingDeletions.remove(uid) != null) {
                    expectations.deletionObserved(key);
                }
                if (e.getCode() == 404) {
                    return null; // gone already: what we wanted
                }
                String message = apiMessage(e);
                events.warning(rs, KubeVirtEventReasons.FAILED_DELETE, KubeVirtMessages.RS_ERROR_DELETING_VMI, vmi.getMetadata().getName(), message);
                return message;
            }
        }, skipped -> expectations.lowerExpectations(key, 0, skipped));
        return error == null ? ScaleOutcome.succeeded() : ScaleOutcome.failedDelete(error);
    }

    /**
     * Runs {@code count} writes in batches of 1, 2, 4… in parallel (as the ReplicaSet controller's slow start does),
     * so a set whose writes all fail (a webhook or quota refusing them) costs one request per pass, not 250.
     *
     * @param write   the i-th write; returns null on success, else the error message
     * @param skipped told how many writes were never tried after a failed batch
     * @return the first error, or null
     */
    private static String inBatches(int count, Function<Integer, String> write, java.util.function.IntConsumer skipped) {
        int done = 0;
        int batch = 1;
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            while (done < count) {
                int size = Math.min(batch, count - done);
                List<Future<String>> results = new ArrayList<>(size);
                for (int i = done; i < done + size; i++) {
                    int index = i;
                    results.add(pool.submit(() -> write.apply(index)));
                }
                done += size;
                String first = null;
                for (Future<String> f : results) {
                    String error = join(f);
                    if (first == null && error != null) {
                        first = error;
                    }
                }
                if (first != null) {
                    skipped.accept(count - done);
                    return first;
                }
                batch *= 2;
            }
        }
        return null;
    }

    private static String join(Future<String> f) {
        try {
            return f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        } catch (java.util.concurrent.ExecutionException e) {
            Throwable cause = e.getCause();
            return cause == null || cause.getMessage() == null ? String.valueOf(cause) : cause.getMessage();
        }
    }

    /** Deletes a finished VMI (the set replaced it already); a failure is retried on a later pass. */
    private void cleanUp(VirtualMachineInstanceReplicaSet rs, VirtualMachineInstance vmi) {
        try {
            client.resources(VirtualMachineInstance.class).inNamespace(vmi.getMetadata().getNamespace())
                    .withName(vmi.getMetadata().getName()).delete();
            events.normal(rs, KubeVirtEventReasons.SUCCESSFUL_DELETE, KubeVirtMessages.RS_DELETED_FINISHED_VM, vmi.getMetadata().getUid());
        } catch (KubernetesClientException e) {
            if (e.getCode() != 404) {
                events.warning(rs, KubeVirtEventReasons.FAILED_DELETE, KubeVirtMessages.RS_ERROR_DELETING_FINISHED_VM, vmi.getMetadata().getName(), apiMessage(e));
            }
        }
    }

    // ---- status ----

    private void writeStatus(VirtualMachineInstanceReplicaSet rs, ReplicaSetPlan plan, ScaleOutcome outcome, boolean paused) {
        List<Condition> current = rs.getStatus() == null || rs.getStatus().getConditions() == null
                ? Collections.emptyList() : rs.getStatus().getConditions();
        boolean wasPaused = dev.drainboard.kubevirt.api.Conditions.find(current, KubeVirtConditions.REPLICA_PAUSED).isPresent();
        List<Condition> conditions = ReplicaSetStatuses.conditions(current, outcome, paused, clock.instant());
        String patch = ReplicaSetStatuses.patch(rs.getStatus(), plan, conditions);
        if (patch == null) {
            return;
        }
        try {
            client.resources(VirtualMachineInstanceReplicaSet.class).inNamespace(rs.getMetadata().getNamespace())
                    .resource(PatchTargets.of(rs, VirtualMachineInstanceReplicaSet::new)).subresource("status")
                    .patch(PatchContext.of(PatchType.JSON_MERGE), patch);
        } catch (KubernetesClientException e) {
            if (e.getCode() == 404) {
                return;
            }
            throw e;
        }
        if (paused && !wasPaused) {
            events.normal(rs, KubeVirtEventReasons.SUCCESSFUL_PAUSED, KubeVirtMessages.RS_PAUSED);
        } else if (!paused && wasPaused) {
            events.normal(rs, KubeVirtEventReasons.SUCCESSFUL_RESUMED, KubeVirtMessages.RS_RESUMED);
        }
    }

    /** The API server's own words (a webhook's denial, a quota's refusal), without fabric8's request dump. */
    static String apiMessage(KubernetesClientException e) {
        if (e.getStatus() != null && e.getStatus().getMessage() != null && !e.getStatus().getMessage().isEmpty()) {
            return e.getStatus().getMessage();
        }
        return e.getMessage();
    }
}
