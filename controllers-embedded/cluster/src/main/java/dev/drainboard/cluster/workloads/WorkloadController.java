package dev.drainboard.cluster.workloads;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drainboard.cluster.ClusterComponent;
import dev.drainboard.cluster.ComponentQueue;
import dev.drainboard.cluster.apiserver.ApiException;
import dev.drainboard.cluster.apiserver.Json;
import dev.drainboard.cluster.apiserver.ResourceType;
import dev.drainboard.labels.LabelSelector;
import dev.drainboard.labels.SelectorException;
import dev.drainboard.cluster.apiserver.store.ObjectStore;
import dev.drainboard.cluster.apiserver.store.WatchEvent;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The loop shared by the workload controllers, after kube-controller-manager's: one queue of owner keys
 * ("namespace/name"), owners queued when they change and when a dependent they control (or, for an orphan, might
 * adopt) changes; a failed sync is retried with client-go's per-item exponential backoff (5 ms doubling up to
 * 1000 s). The sync itself reads the store, asks a pure decision and applies its answer.
 */
public abstract class WorkloadController implements ClusterComponent {

    private static final Logger LOG = LoggerFactory.getLogger(WorkloadController.class);
    private static final String ORPHAN = "orphan:";
    private static final long BASE_DELAY_MILLIS = 5;
    private static final long MAX_DELAY_MILLIS = 1_000_000;

    protected final WorkloadApi api;
    protected final ObjectStore store;
    protected final WorkloadEvents events;
    protected final ComponentQueue queue;
    protected final DependentIndex dependents;
    private final ResourceType ownerType;
    private final ResourceType dependentType;
    /** Owner uid → "namespace/name", to find the owner a dependent's controller reference names. */
    private final Map<String, String> owners = new ConcurrentHashMap<>();
    private final Map<String, Integer> failures = new ConcurrentHashMap<>();

    protected WorkloadController(WorkloadApi api, String component, ResourceType ownerType, ResourceType dependentType) {
        this.api = api;
        this.store = api.store();
        this.events = new WorkloadEvents(store, component);
        this.ownerType = ownerType;
        this.dependentType = dependentType;
        this.dependents = new DependentIndex(ownerType.kind());
        this.queue = new ComponentQueue(component, this::process);
    }

    @Override
    public void start() {
        store.addListener(this::onEvent);
        for (ObjectNode dependent : store.list(dependentType, null, o -> true)) {
            dependents.add(dependent);
        }
        for (ObjectNode owner : store.list(ownerType, null, o -> true)) {
            owners.put(Json.uid(owner), key(owner));
            queue.add(key(owner));
        }
    }

    /** Called under the store's write lock: bookkeeping and queueing only. */
    private void onEvent(WatchEvent event) {
        ObjectNode object = event.object();
        if (event.resource() == ownerType) {
            if (event.type() == WatchEvent.Type.DELETED) {
                owners.remove(Json.uid(object));
                forget(Json.uid(object));
            } else {
                owners.put(Json.uid(object), key(object));
            }
            queue.add(key(object));
        } else if (event.resource() == dependentType) {
            dependents.onEvent(event);
            ObjectNode previous = event.previous();
            enqueueController(object);
            if (previous != null && !Pods.controllerUid(previous).equals(Pods.controllerUid(object))) {
                enqueueController(previous);
            }
            boolean orphan = Pods.controllerRef(object) == null;
            boolean relabelled = previous == null || Pods.controllerRef(previous) != null
                    || !Objects.equals(previous.path("metadata").get("labels"), object.path("metadata").get("labels"));
            if (orphan && relabelled && event.type() != WatchEvent.Type.DELETED) {
                queue.add(ORPHAN + key(object));
            }
        }
        onOtherEvent(event);
    }

    private void enqueueController(ObjectNode dependent) {
        if (Pods.controlledByKind(dependent, ownerType.kind())) {
            String owner = owners.get(Pods.controllerUid(dependent));
            if (owner != null) {
                queue.add(owner);
            }
        }
    }

    /** The owner controlling this dependent, as "namespace/name", or null. */
    protected String ownerKeyOf(JsonNode dependent) {
        return Pods.controlledByKind(dependent, ownerType.kind()) ? owners.get(Pods.controllerUid(dependent)) : null;
    }

    /** An owner is gone: drop what the controller keeps about it. Under the store's lock. */
    protected void forget(String ownerUid) {
    }

    /** Further events a controller reacts to (nodes for DaemonSets, pods for Deployments); under the store's lock. */
    protected void onOtherEvent(WatchEvent event) {
    }

    /** Queues every owner (of a namespace, or all when null). */
    protected void enqueueAll(String namespace) {
        for (ObjectNode owner : store.list(ownerType, namespace, o -> true)) {
            queue.add(key(owner));
        }
    }

    private void process(String key) {
        try {
            if (key.startsWith(ORPHAN)) {
                offerOrphan(key.substring(ORPHAN.length()));
            } else {
                int slash = key.indexOf('/');
                sync(key.substring(0, slash), key.substring(slash + 1));
            }
            failures.remove(key);
        } catch (RuntimeException e) {
            int n = failures.merge(key, 1, Integer::sum);
            long delay = Math.min(MAX_DELAY_MILLIS, BASE_DELAY_MILLIS << Math.min(n - 1, 30));
            LOG.debug("sync {} failed ({} times), retrying in {} ms", key, n, delay, e);
            queue.addAfter(key, delay);
        }
    }

    /** An orphan dependent appeared or changed labels: every owner of its namespace that selects it gets a look. */
    private void offerOrphan(String dependentKey) {
        int slash = dependentKey.indexOf('/');
        String namespace = dependentKey.substring(0, slash);
        ObjectNode dependent = store.get(dependentType, namespace, dependentKey.substring(slash + 1));
        if (dependent == null || Pods.controllerRef(dependent) != null) {
            return;
        }
        for (ObjectNode owner : store.list(ownerType, namespace, o -> true)) {
            if (selects(owner, dependent)) {
                queue.add(key(owner));
            }
        }
    }

    /** Reconciles one owner; throwing retries it with backoff. */
    protected abstract void sync(String namespace, String name);

    /** Whether the owner would claim this orphan (its selector and any further filter). */
    protected abstract boolean selects(ObjectNode owner, ObjectNode dependent);

    // ---- shared steps ----

    /**
     * The dependents this owner claims ({@code ClaimObjects}): those it controls and still selects, plus orphans
     * it selects, which it adopts; it releases those it controls but no longer selects. The list is read fresh from
     * the store, by name.
     */
    protected List<ObjectNode> claim(ObjectNode owner, java.util.function.Predicate<ObjectNode> consider) {
        List<ObjectNode> claimed = new ArrayList<>();
        String namespace = Json.namespace(owner);
        List<ObjectNode> candidates = new ArrayList<>();
        for (String k : dependents.controlledBy(Json.uid(owner))) {
            ObjectNode d = store.get(dependentType, namespace, k.substring(k.indexOf('/') + 1));
            if (d != null && k.startsWith(namespace + "/")) {
                candidates.add(d);
            }
        }
        for (String name : dependents.orphansIn(namespace)) {
            ObjectNode d = store.get(dependentType, namespace, name);
            if (d != null) {
                candidates.add(d);
            }
        }
        for (ObjectNode candidate : candidates) {
            if (!consider.test(candidate)) {
                continue;
            }
            switch (ClaimDecision.decide(owner, candidate, selects(owner, candidate))) {
                case OWNED -> claimed.add(candidate);
                case ADOPT -> {
                    ObjectNode adopted = adopt(owner, candidate);
                    if (adopted != null) {
                        claimed.add(adopted);
                    }
                }
                case RELEASE -> release(owner, candidate);
                case IGNORE -> {
                }
            }
        }
        claimed.sort(java.util.Comparator.comparing(Json::name));
        return claimed;
    }

    /** Adds the owner's controller reference, if the object is still the same orphan; null when it is not. */
    private ObjectNode adopt(ObjectNode owner, ObjectNode orphan) {
        try {
            ObjectNode result = store.update(dependentType, Json.namespace(orphan), Json.name(orphan), o -> {
                if (!Json.uid(o).equals(Json.uid(orphan)) || Pods.controllerRef(o) != null || Pods.isTerminating(o)) {
                    return o;
                }
                Json.metadata(o).withArray("ownerReferences").add(Pods.newControllerRef(owner));
                return o;
            }, false);
            return Pods.controllerUid(result).equals(Json.uid(owner)) ? result : null;
        } catch (ApiException e) {
            if (e.code() == 404) {
                return null;
            }
            throw e;
        }
    }

    /** Removes the owner's reference from a dependent it no longer selects. */
    private void release(ObjectNode owner, ObjectNode dependent) {
        try {
            store.update(dependentType, Json.namespace(dependent), Json.name(dependent), o -> {
                if (!(o.path("metadata").get("ownerReferences") instanceof ArrayNode refs)) {
                    return o;
                }
                for (int i = refs.size() - 1; i >= 0; i--) {
                    if (refs.get(i).path("uid").asText().equals(Json.uid(owner))) {
                        refs.remove(i);
                    }
                }
                if (refs.isEmpty()) {
                    Json.metadata(o).remove("ownerReferences");
                }
                return o;
            }, false);
        } catch (ApiException e) {
            if (e.code() != 404) {
                throw e;
            }
        }
    }

    /** The owner's {@code spec.selector}, parsed; empty when missing or invalid (it then selects nothing). */
    protected static java.util.Optional<LabelSelector> selectorOf(JsonNode owner) {
        JsonNode json = owner.path("spec").get("selector");
        if (json == null || json.isNull()) {
            return java.util.Optional.empty();
        }
        try {
            return java.util.Optional.of(LabelSelector.fromJson(json));
        } catch (SelectorException e) {
            return java.util.Optional.empty();
        }
    }

    /** Whether the owner's selector picks the object by its labels. */
    protected static boolean selectorMatches(JsonNode owner, JsonNode object) {
        return selectorOf(owner).map(s -> s.matchesObject(object)).orElse(false);
    }

    /** Writes the status a decision computed (only when it differs), through the status path of the store. */
    protected void writeStatus(ObjectNode owner, ObjectNode status) {
        if (Pods.same(owner.get("status"), status)) {
            return;
        }
        try {
            store.update(ownerType, Json.namespace(owner), Json.name(owner), o -> {
                if (!Json.uid(o).equals(Json.uid(owner))) {
                    return o;
                }
                o.set("status", status);
                return o;
            }, false);
        } catch (ApiException e) {
            if (e.code() != 404) {
                throw e;
            }
        }
    }

    /** Deletes a pod through the API (graceful); gone already is fine. */
    protected boolean deletePod(String namespace, String name) {
        try {
            api.delete(dev.drainboard.cluster.apiserver.BuiltinResources.PODS, namespace, name);
            return true;
        } catch (ApiException e) {
            if (e.code() == 404) {
                return false;
            }
            throw e;
        }
    }

    protected static String key(JsonNode object) {
        return Json.namespace(object) + "/" + Json.name(object);
    }

    @Override
    public void close() {
        queue.close();
    }
}
