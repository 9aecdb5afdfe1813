package dev.drainboard.cluster.workloads;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drainboard.cluster.apiserver.Json;
import dev.drainboard.cluster.apiserver.store.WatchEvent;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The dependents of one kind of owner (pods of ReplicaSets, ReplicaSets of Deployments…) by their controller's uid,
 * and the orphans (no controller at all) by namespace: what a controller's sync claims from, without reading every
 * pod of the namespace. Kept from the store's changes (one writer, under the store's lock); any readers.
 */
public final class DependentIndex {

    private final String ownerKind;
    private final Map<String, Set<String>> byOwner = new ConcurrentHashMap<>();
    private final Map<String, Set<String>> orphans = new ConcurrentHashMap<>();

    public DependentIndex(String ownerKind) {
        this.ownerKind = ownerKind;
    }

    public void add(ObjectNode object) {
        String namespace = Json.namespace(object);
        String name = Json.name(object);
        if (Pods.controllerRef(object) == null) {
            orphans.computeIfAbsent(namespace, n -> ConcurrentHashMap.newKeySet()).add(name);
        } else if (Pods.controlledByKind(object, ownerKind)) {
            byOwner.computeIfAbsent(Pods.controllerUid(object), u -> ConcurrentHashMap.newKeySet()).add(namespace + "/" + name);
        }
    }

    public void remove(ObjectNode object) {
        String namespace = Json.namespace(object);
        String name = Json.name(object);
        if (Pods.controllerRef(object) == null) {
            Set<String> names = orphans.get(namespace);
            if (names != null) {
                names.remove(name);
            }
        } else if (Pods.controlledByKind(object, ownerKind)) {
            String uid = Pods.controllerUid(object);
            Set<String> keys = byOwner.get(uid);
            if (keys != null) {
                keys.remove(namespace + "/" + name);
                if (keys.isEmpty()) {
                    byOwner.remove(uid, keys);
                }
            }
        }
    }

    public void onEvent(WatchEvent event) {
        if (event.previous() != null) {
            remove(event.previous());
        }
        if (event.type() != WatchEvent.Type.DELETED) {
            add(event.object());
        }
    }

    /** "namespace/name" of the objects this owner controls. */
    public List<String> controlledBy(String ownerUid) {
        return List.copyOf(byOwner.getOrDefault(ownerUid, Set.of()));
    }

    /** Names of the namespace's objects that have no controller. */
    public List<String> orphansIn(String namespace) {
        return List.copyOf(orphans.getOrDefault(namespace, Set.of()));
    }
}
