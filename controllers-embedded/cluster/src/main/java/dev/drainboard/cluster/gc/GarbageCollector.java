package dev.drainboard.cluster.gc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drainboard.cluster.ClusterComponent;
import dev.drainboard.cluster.ComponentQueue;
import dev.drainboard.cluster.apiserver.ApiException;
import dev.drainboard.cluster.apiserver.Json;
import dev.drainboard.cluster.apiserver.ResourceRegistry;
import dev.drainboard.cluster.apiserver.ResourceType;
import dev.drainboard.cluster.apiserver.store.ObjectStore;
import dev.drainboard.cluster.apiserver.store.WatchEvent;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Owner-reference garbage collection, as kube-controller-manager does it: dependents of a deleted
 * owner are deleted (background), deleted before the owner (foreground, finalizer
 * {@code foregroundDeletion}), or released (orphan, finalizer {@code orphan}). A dependent with
 * another live owner only loses the reference to the one that went.
 */
public final class GarbageCollector implements ClusterComponent {

    static final String FOREGROUND = "foregroundDeletion";
    static final String ORPHAN = "orphan";

    /** Where an object lives, to find it again by uid. */
    private record Ref(ResourceType type, String namespace, String name) {
    }

    private final ObjectStore store;
    private final ResourceRegistry registry;
    private final ComponentQueue queue;
    /** uid → where that object lives. */
    private final Map<String, Ref> byUid = new ConcurrentHashMap<>();
    /** owner uid → uids of its dependents. */
    private final Map<String, Set<String>> dependents = new ConcurrentHashMap<>();

    public GarbageCollector(ObjectStore store, ResourceRegistry registry) {
        this.store = store;
        this.registry = registry;
        this.queue = new ComponentQueue("garbage-collector", this::process);
    }

    @Override
    public void start() {
        for (ResourceType type : registry.all()) {
            for (ObjectNode o : store.list(type, null, x -> true)) {
                index(type, o);
            }
        }
        store.addListener(this::onEvent);
        byUid.keySet().forEach(uid -> queue.add("owner:" + uid));
        dependents.keySet().forEach(uid -> queue.add("owner:" + uid));
    }

    private void onEvent(WatchEvent event) {
        ObjectNode object = event.object();
        String uid = Json.uid(object);
        if (event.type() == WatchEvent.Type.DELETED) {
            byUid.remove(uid);
            unindexOwners(uid, event.previous());
            queue.add("owner:" + uid);
            return;
        }
        if (event.previous() != null) {
            unindexOwners(uid, event.previous());
        }
        index(event.resource(), object);
        if (object.path("metadata").has("deletionTimestamp")) {
            queue.add("owner:" + uid);
        }
        for (JsonNode ref : object.path("metadata").path("ownerReferences")) {
            String owner = ref.path("uid").asText();
            if (!byUid.containsKey(owner)) {
                queue.add("owner:" + owner); // dangling from the start: its owner is already gone
            }
        }
    }

    private void index(ResourceType type, ObjectNode object) {
        String uid = Json.uid(object);
        byUid.put(uid, new Ref(type, Json.namespace(object), Json.name(object)));
        for (JsonNode ref : object.path("metadata").path("ownerReferences")) {
            dependents.computeIfAbsent(ref.path("uid").asText(), k -> ConcurrentHashMap.newKeySet()).add(uid);
        }
    }

    private void unindexOwners(String uid, ObjectNode previous) {
        if (previous == null) {
            return;
        }
        for (JsonNode ref : previous.path("metadata").path("ownerReferences")) {
            Set<String> set = dependents.get(ref.path("uid").asText());
            if (set != null) {
                set.remove(uid);
            }
        }
    }

    private void process(String key) {
        String ownerUid = key.substring("owner:".length());
        Ref ownerRef = byUid.get(ownerUid);
        ObjectNode owner = ownerRef == null ? null : store.get(ownerRef.type(), ownerRef.namespace(), ownerRef.name());
        if (owner != null && !Json.uid(owner).equals(ownerUid)) {
            owner = null;
        }
        List<String> children = new ArrayList<>(dependents.getOrDefault(ownerUid, Set.of()));
        if (owner == null) {
            children.forEach(child -> releaseOrDelete(child, ownerUid));
            dependents.remove(ownerUid);
            return;
        }
        if (!owner.path("metadata").has("deletionTimestamp")) {
            return;
        }
        if (hasFinalizer(owner, ORPHAN)) {
            children.forEach(child -> removeOwnerReference(child, ownerUid));
            removeFinalizer(ownerRef, ORPHAN);
        } else if (hasFinalizer(owner, FOREGROUND)) {
            List<String> remaining = children.stream().filter(byUid::containsKey).toList();
            if (remaining.isEmpty()) {
                removeFinalizer(ownerRef, FOREGROUND);
            } else {
                remaining.forEach(child -> deleteDependent(child, FOREGROUND));
                queue.addAfter(key, 200);
            }
        }
    }

    /** A dependent whose owner is gone: deleted, unless another owner of it still lives. */
    private void releaseOrDelete(String childUid, String goneOwnerUid) {
        Ref child = byUid.get(childUid);
        if (child == null) {
            return;
        }
        ObjectNode object = store.get(child.type(), child.namespace(), child.name());
        if (object == null) {
            return;
        }
        boolean otherLiveOwner = false;
        for (JsonNode ref : object.path("metadata").path("ownerReferences")) {
            String uid = ref.path("uid").asText();
            if (!uid.equals(goneOwnerUid) && byUid.containsKey(uid)) {
                otherLiveOwner = true;
            }
        }
        if (otherLiveOwner) {
            removeOwnerReference(childUid, goneOwnerUid);
        } else {
            deleteDependent(childUid, null);
        }
    }

    private void deleteDependent(String childUid, String propagationFinalizer) {
        Ref child = byUid.get(childUid);
        if (child == null) {
            return;
        }
        Instant now = store.clock().instant();
        try {
            store.update(child.type(), child.namespace(), child.name(), o -> {
                ObjectNode meta = Json.metadata(o);
                if (meta.has("deletionTimestamp")) {
                    return o;
                }
                if (propagationFinalizer != null) {
                    meta.withArray("finalizers").add(propagationFinalizer);
                }
                long grace = child.type().kind().equals("Pod") && !Json.text(o, "spec", "nodeName").isEmpty()
                        ? o.path("spec").path("terminationGracePeriodSeconds").asLong(30) : 0;
                meta.put("deletionTimestamp", Json.timestamp(now.plusSeconds(grace)));
                meta.put("deletionGracePeriodSeconds", grace);
                return o;
            }, false);
        } catch (ApiException e) {
            if (e.code() != 404) {
                throw e;
            }
        }
    }

    private void removeOwnerReference(String childUid, String ownerUid) {
        Ref child = byUid.get(childUid);
        if (child == null) {
            return;
        }
        try {
            store.update(child.type(), child.namespace(), child.name(), o -> {
                ArrayNode refs = Json.metadata(o).withArray("ownerReferences");
                for (int i = refs.size() - 1; i >= 0; i--) {
                    if (refs.get(i).path("uid").asText().equals(ownerUid)) {
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

    private void removeFinalizer(Ref ref, String finalizer) {
        try {
            store.update(ref.type(), ref.namespace(), ref.name(), o -> {
                ArrayNode finalizers = Json.metadata(o).withArray("finalizers");
                for (int i = finalizers.size() - 1; i >= 0; i--) {
                    if (finalizers.get(i).asText().equals(finalizer)) {
                        finalizers.remove(i);
                    }
                }
                if (finalizers.isEmpty()) {
                    Json.metadata(o).remove("finalizers");
                }
                return o;
            }, false);
        } catch (ApiException e) {
            if (e.code() != 404) {
                throw e;
            }
        }
    }

    private static boolean hasFinalizer(ObjectNode object, String finalizer) {
        for (JsonNode f : object.path("metadata").path("finalizers")) {
            if (f.asText().equals(finalizer)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public void close() {
        queue.close();
    }
}
