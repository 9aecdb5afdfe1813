package dev.drainboard.controller.pool;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drainboard.controller.informers.SharedInformers;
import dev.drainboard.kubevirt.KubeVirtDefaults;
import dev.drainboard.kubevirt.KubeVirtEventReasons;
import dev.drainboard.kubevirt.KubeVirtMessages;
import dev.drainboard.kubevirt.api.Condition;
import dev.drainboard.kubevirt.api.VirtualMachine;
import dev.drainboard.kubevirt.api.VirtualMachinePool;
import dev.drainboard.kubevirt.replicaset.ReplicaSetSelector;
import dev.drainboard.runtime.ControllerLoop;
import dev.drainboard.runtime.ControllerManager;
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
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.random.RandomGenerator;

/**
 * The pool controller's loop: for a VirtualMachinePool key, read the pool and its namespace's VMs from the caches,
 * let {@link PoolDecision} decide, release and adopt, create or delete VMs (with expectations and KubeVirt's
 * events), and merge-patch the status subresource. A cluster without the pool.kubevirt.io CRD has no pools: the loop
 * runs (it waits only for the VM informer) and finds nothing to do.
 */
public final class PoolController {

    public static final String NAME = "pool-controller";
    /** KubeVirt's recorder for pools ({@code pkg/virt-controller/watch/application.go}). */
    public static final String EVENT_COMPONENT = "virtualmachinepool-controller";
    public static final int WORKERS = KubeVirtDefaults.CONTROLLER_THREADS;
    public static final int BURST = KubeVirtDefaults.BURST_REPLICAS;
    static final String REPLICA_FAILURE = "ReplicaFailure";
    static final String REPLICA_PAUSED = "ReplicaPaused";
    static final String FAILED_SCALE_OUT = "FailedScaleOut";
    static final String FAILED_SCALE_IN = "FailedScaleIn";
    static final String SUCCESSFUL_PAUSED = "SuccessfulPaused";
    static final String SUCCESSFUL_RESUME = "SuccessfulResume";

    private static final Logger log = LoggerFactory.getLogger(PoolController.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final KubernetesClient client;
    private final SharedInformers informers;
    private final EventRecorder events;
    private final Clock clock;
    private final RandomGenerator random = RandomGenerator.getDefault();
    private final Expectations<String> expectations = new Expectations<>();
    /** VM uid → pool key, for deletions this controller asked for and has not yet seen. */
    private final Map<String, String> pendingDeletions = new ConcurrentHashMap<>();

    private PoolController(KubernetesClient client, SharedInformers informers, EventRecorder events, Clock clock) {
        this.client = client;
        this.informers = informers;
        this.events = events;
        this.clock = clock;
    }

    /** Builds the loop on the shared informers and registers it with the manager (it runs while leading). */
    public static ControllerLoop<String> register(ControllerManager manager, SharedInformers informers) {
        return manager.register(new PoolController(manager.client(), informers,
                manager.eventRecorder(EVENT_COMPONENT), Clock.systemUTC()).loop());
    }

    ControllerLoop<String> loop() {
        informers.vms().addEventHandler(ObjectEvents.<VirtualMachine>handler()
                .added(vm -> {
                    String owner = ownerKey(vm);
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
                // A cluster without the pool.kubevirt.io CRD: the pool informer never syncs, the loop still runs
                // (with nothing to do) instead of waiting for ever.
                .watchUnsynced(informers.pools(), Keys::of)
                .watchAll(informers.vms(), this::keysFor)
                .build();
    }

    private void deletionSeen(VirtualMachine vm) {
        String key = pendingDeletions.remove(vm.getMetadata().getUid());
        if (key != null) {
            expectations.deletionObserved(key);
        }
    }

    /** The pool controlling the VM; for an orphan, every pool of its namespace whose selector matches it. */
    private Set<String> keysFor(VirtualMachine vm) {
        String owner = ownerKey(vm);
        if (owner != null) {
            return Set.of(owner);
        }
        if (SharedInformers.controllerOf(vm).isPresent()) {
            return Set.of();
        }
        Set<String> keys = new HashSet<>();
        for (VirtualMachinePool pool : informers.pools().getIndexer().byIndex(Cache.NAMESPACE_INDEX, vm.getMetadata().getNamespace())) {
            ReplicaSetSelector selector = selectorOf(pool);
            if (selector != null && selector.matches(vm.getMetadata().getLabels())) {
                keys.add(pool.key());
            }
        }
        return keys;
    }

    private static String ownerKey(VirtualMachine vm) {
        return SharedInformers.controllerOf(vm)
                .filter(ref -> PoolDecision.KIND.equals(ref.getKind()))
                .map(ref -> Keys.of(vm.getMetadata().getNamespace(), ref.getName()))
                .orElse(null);
    }

    /** The pool's selector, or null when KubeVirt's controller would ignore the pool (bad selector, or one not matching the template). */
    static ReplicaSetSelector selectorOf(VirtualMachinePool pool) {
        if (pool.getSpec() == null || pool.getSpec().getSelector() == null) {
            return null;
        }
        try {
            ReplicaSetSelector selector = ReplicaSetSelector.parse(pool.getSpec().getSelector());
            var template = pool.getSpec().getVirtualMachineTemplate();
            Map<String, String> labels = template == null || template.getMetadata() == null ? null : template.getMetadata().getLabels();
            return selector.matches(labels == null ? Map.of() : labels) ? selector : null;
        } catch (ReplicaSetSelector.InvalidSelectorException e) {
            return null;
        }
    }

    Result reconcile(String key) {
        VirtualMachinePool pool = informers.pools().getStore().getByKey(key);
        if (pool == null) {
            expectations.delete(key);
            return Result.done();
        }
        ReplicaSetSelector selector = selectorOf(pool);
        if (selector == null) {
            // As KubeVirt: "Invalid selector on pool" / "Selector does not match template labels, will not re-enqueue."
            log.warn("{}: ignoring {}: its selector is invalid or does not match its template's labels", NAME, key);
            return Result.done();
        }
        List<VirtualMachine> vms = informers.vms().getIndexer().byIndex(Cache.NAMESPACE_INDEX, pool.getMetadata().getNamespace());
        PoolPlan plan = PoolDecision.decide(pool, selector, vms, expectations.satisfied(key), BURST, random);

        plan.release().forEach(vm -> patchOwners(vm, refsWithout(vm, pool)));
        if (!plan.adopt().isEmpty() && !adopt(pool, plan.adopt())) {
            return Result.requeue();
        }
        String[] failure = null;
        if (!plan.create().isEmpty()) {
            String error = create(key, pool, plan.create());
            if (error != null) {
                failure = new String[] {FAILED_SCALE_OUT, "error during scale out: " + error};
            }
        } else if (!plan.delete().isEmpty()) {
            String error = delete(key, pool, plan.delete());
            if (error != null) {
                failure = new String[] {FAILED_SCALE_IN, "error during scale in: " + error};
            }
        }
        writeStatus(pool, plan, failure);
        return failure == null ? Result.done() : Result.error(new IllegalStateException(failure[1]));
    }

    // ---- claims ----

    private static List<OwnerReference> refsWithout(VirtualMachine vm, VirtualMachinePool pool) {
        List<OwnerReference> kept = new ArrayList<>(vm.getMetadata().getOwnerReferences());
        kept.removeIf(r -> Objects.equals(r.getUid(), pool.getMetadata().getUid()));
        return kept;
    }

    /** Replaces the VM's owner references, guarded by its resourceVersion (a VM changed meanwhile is left for the next pass). */
    private boolean patchOwners(VirtualMachine vm, List<OwnerReference> refs) {
        ArrayNode patch = JSON.createArrayNode();
        patch.addObject().put("op", "test").put("path", "/metadata/resourceVersion").put("value", vm.getMetadata().getResourceVersion());
        if (refs.isEmpty()) {
            patch.addObject().put("op", "remove").put("path", "/metadata/ownerReferences");
        } else {
            patch.addObject().put("op", "add").put("path", "/metadata/ownerReferences").set("value", JSON.valueToTree(refs));
        }
        try {
            client.resources(VirtualMachine.class).inNamespace(vm.getMetadata().getNamespace())
                    .resource(PatchTargets.of(vm, VirtualMachine::new))
                    .patch(PatchContext.of(PatchType.JSON), patch.toString());
            return true;
        } catch (KubernetesClientException e) {
            if (e.getCode() != 404 && e.getCode() != 409 && e.getCode() != 422) {
                throw e;
            }
            return false;
        }
    }

    /** Adopts orphans after a fresh read confirms the pool still exists and is not being deleted (KubeVirt's RecheckDeletionTimestamp). */
    private boolean adopt(VirtualMachinePool pool, List<VirtualMachine> orphans) {
        VirtualMachinePool fresh = client.resources(VirtualMachinePool.class)
                .inNamespace(pool.getMetadata().getNamespace()).withName(pool.getMetadata().getName()).get();
        if (fresh == null || !Objects.equals(fresh.getMetadata().getUid(), pool.getMetadata().getUid())
                || fresh.getMetadata().getDeletionTimestamp() != null) {
            return false;
        }
        boolean all = true;
        for (VirtualMachine vm : orphans) {
            List<OwnerReference> refs = new ArrayList<>(vm.getMetadata().getOwnerReferences() == null ? List.of() : vm.getMetadata().getOwnerReferences());
            refs.add(PoolTemplates.controllerRef(pool));
            all &= patchOwners(vm, refs);
        }
        return all;
    }

    // ---- scaling ----

    /** Creates the VMs side by side, as KubeVirt's scaleOut does; returns the first error, or null. */
    private String create(String key, VirtualMachinePool pool, List<String> names) {
        expectations.expectCreations(key, names.size());
        List<String> errors = parallel(names.size(), i -> {
            try {
                VirtualMachine vm = client.resources(VirtualMachine.class).inNamespace(pool.getMetadata().getNamespace())
                        .resource(PoolTemplates.render(pool, names.get(i))).create();
                events.normal(pool, KubeVirtEventReasons.SUCCESSFUL_CREATE, KubeVirtMessages.POOL_CREATED_VM,
                        vm.getMetadata().getNamespace(), vm.getMetadata().getName());
                return null;
            } catch (KubernetesClientException e) {
                expectations.creationObserved(key);
                return apiMessage(e);
            }
        });
        if (errors.isEmpty()) {
            return null;
        }
        events.warning(pool, KubeVirtEventReasons.FAILED_CREATE, KubeVirtMessages.POOL_ERROR_CREATING_VM, errors.getFirst());
        return errors.getFirst();
    }

    private String delete(String key, VirtualMachinePool pool, List<VirtualMachine> victims) {
        expectations.expectDeletions(key, victims.size());
        List<String> errors = parallel(victims.size(), i -> {
            VirtualMachine vm = victims.get(i);
            String uid = vm.getMetadata().getUid();
            pendingDeletions.put(uid, key);
            try {
                client.resources(VirtualMachine.class).inNamespace(vm.getMetadata().getNamespace())
                        .withName(vm.getMetadata().getName()).delete();
                events.normal(pool, KubeVirtEventReasons.SUCCESSFUL_DELETE, KubeVirtMessages.POOL_DELETED_VM,
                        vm.getMetadata().getNamespace(), vm.getMetadata().getName(), uid);
                return null;
            } catch (KubernetesClientException e) {
                if (pendingDeletions.remove(uid) != null) {
                    expectations.deletionObserved(key);
                }
                if (e.getCode() == 404) {
                    return null;
                }
                String message = apiMessage(e);
                events.warning(pool, KubeVirtEventReasons.FAILED_DELETE, KubeVirtMessages.POOL_ERROR_DELETING_VM,
                        vm.getMetadata().getNamespace(), vm.getMetadata().getName(), message);
                return message;
            }
        });
        return errors.isEmpty() ? null : errors.getFirst();
    }

    /** Runs the writes side by side; returns their errors (empty: all succeeded). */
    private static List<String> parallel(int count, java.util.function.IntFunction<String> write) {
        List<String> errors = new ArrayList<>();
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<String>> results = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                int index = i;
                results.add(pool.submit(() -> write.apply(index)));
            }
            for (Future<String> f : results) {
                try {
                    String error = f.get();
                    if (error != null) {
                        errors.add(error);
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    errors.add("interrupted");
                } catch (java.util.concurrent.ExecutionException e) {
                    errors.add(String.valueOf(e.getCause()));
                }
            }
        }
        return errors;
    }

    // ---- status ----

    /**
     * KubeVirt's {@code updateStatus}: labelSelector, replicas, readyReplicas; {@code ReplicaFailure} added (with a
     * Warning event of the failure's reason) when a pass fails and removed when one succeeds; {@code ReplicaPaused}
     * while paused (events {@code SuccessfulPaused} "Pool is paused", {@code SuccessfulResume} "Pool is unpaused").
     */
    private void writeStatus(VirtualMachinePool pool, PoolPlan plan, String[] failure) {
        var status = pool.getStatus();
        List<Condition> current = status == null || status.getConditions() == null ? List.of() : status.getConditions();
        List<Condition> conditions = new ArrayList<>(current);
        boolean changed = false;
        boolean hasFailure = has(current, REPLICA_FAILURE);
        if (failure != null && !hasFailure) {
            conditions.add(condition(REPLICA_FAILURE, failure[0], failure[1]));
            events.warning(pool, failure[0], "%s", failure[1]);
            changed = true;
        } else if (failure == null && hasFailure) {
            conditions.removeIf(c -> REPLICA_FAILURE.equals(c.getType()));
            changed = true;
        }
        boolean paused = Boolean.TRUE.equals(pool.getSpec().getPaused());
        boolean wasPaused = has(current, REPLICA_PAUSED);
        if (paused && !wasPaused) {
            conditions.add(condition(REPLICA_PAUSED, SUCCESSFUL_PAUSED, KubeVirtMessages.POOL_PAUSED_CONDITION));
            changed = true;
        } else if (!paused && wasPaused) {
            conditions.removeIf(c -> REPLICA_PAUSED.equals(c.getType()));
            changed = true;
        }
        ObjectNode patch = JSON.createObjectNode();
        ObjectNode s = patch.putObject("status");
        if (status == null || !Objects.equals(status.getReplicas(), plan.replicas())) {
            s.put("replicas", plan.replicas());
        }
        if (status == null || !Objects.equals(status.getReadyReplicas(), plan.readyReplicas())) {
            s.put("readyReplicas", plan.readyReplicas());
        }
        if (status == null || !Objects.equals(status.getLabelSelector(), plan.labelSelector())) {
            s.put("labelSelector", plan.labelSelector());
        }
        if (changed) {
            s.set("conditions", JSON.valueToTree(conditions));
        }
        if (s.isEmpty()) {
            return;
        }
        try {
            client.resources(VirtualMachinePool.class).inNamespace(pool.getMetadata().getNamespace())
                    .resource(PatchTargets.of(pool, VirtualMachinePool::new)).subresource("status")
                    .patch(PatchContext.of(PatchType.JSON_MERGE), patch.toString());
        } catch (KubernetesClientException e) {
            if (e.getCode() == 404) {
                return;
            }
            throw e;
        }
        if (paused && !wasPaused) {
            events.normal(pool, SUCCESSFUL_PAUSED, KubeVirtMessages.POOL_PAUSED);
        } else if (!paused && wasPaused) {
            events.normal(pool, SUCCESSFUL_RESUME, KubeVirtMessages.POOL_UNPAUSED);
        }
    }

    private static boolean has(List<Condition> conditions, String type) {
        return conditions.stream().anyMatch(c -> type.equals(c.getType()));
    }

    private Condition condition(String type, String reason, String message) {
        Condition c = new Condition();
        c.setType(type);
        c.setStatus("True");
        c.setReason(reason);
        c.setMessage(message);
        c.setLastTransitionTime(clock.instant().truncatedTo(ChronoUnit.SECONDS).toString());
        return c;
    }

    /** The API server's own words, without fabric8's request dump. */
    static String apiMessage(KubernetesClientException e) {
        if (e.getStatus() != null && e.getStatus().getMessage() != null && !e.getStatus().getMessage().isEmpty()) {
            return e.getStatus().getMessage();
        }
        return e.getMessage();
    }
}
