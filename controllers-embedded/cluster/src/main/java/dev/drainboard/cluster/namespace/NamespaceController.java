package dev.drainboard.cluster.namespace;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drainboard.cluster.ClusterComponent;
import dev.drainboard.cluster.ComponentQueue;
import dev.drainboard.cluster.apiserver.ApiException;
import dev.drainboard.cluster.apiserver.BuiltinResources;
import dev.drainboard.cluster.apiserver.Json;
import dev.drainboard.cluster.apiserver.ResourceRegistry;
import dev.drainboard.cluster.apiserver.ResourceType;
import dev.drainboard.cluster.apiserver.store.ObjectStore;
import dev.drainboard.cluster.apiserver.store.WatchEvent;

import java.time.Instant;

/**
 * Empties a namespace that is being deleted, then releases its "kubernetes" finalizer so the
 * namespace itself goes — kube-controller-manager's namespace lifecycle.
 */
public final class NamespaceController implements ClusterComponent {

    private final ObjectStore store;
    private final ResourceRegistry registry;
    private final ComponentQueue queue;

    public NamespaceController(ObjectStore store, ResourceRegistry registry) {
        this.store = store;
        this.registry = registry;
        this.queue = new ComponentQueue("namespace-controller", this::sync);
    }

    @Override
    public void start() {
        store.addListener(this::onEvent);
    }

    private void onEvent(WatchEvent event) {
        if (event.resource() == BuiltinResources.NAMESPACES && event.type() != WatchEvent.Type.DELETED
                && event.object().path("metadata").has("deletionTimestamp")) {
            queue.add(Json.name(event.object()));
        }
    }

    private void sync(String namespace) {
        ObjectNode ns = store.get(BuiltinResources.NAMESPACES, null, namespace);
        if (ns == null || !ns.path("metadata").has("deletionTimestamp")) {
            return;
        }
        int remaining = 0;
        Instant now = store.clock().instant();
        for (ResourceType type : registry.all()) {
            if (!type.namespaced()) {
                continue;
            }
            for (ObjectNode o : store.list(type, namespace, x -> true)) {
                remaining++;
                deleteNow(type, o, now);
            }
        }
        if (remaining > 0) {
            queue.addAfter(namespace, 200); // finalizers may hold some objects for a while
            return;
        }
        try {
            store.update(BuiltinResources.NAMESPACES, null, namespace, n -> {
                n.with("spec").remove("finalizers");
                return n;
            }, false);
        } catch (ApiException e) {
            if (e.code() != 404) {
                throw e;
            }
        }
    }

    /** Namespace deletion does not wait for grace periods: objects go, finalizers permitting. */
    private void deleteNow(ResourceType type, ObjectNode object, Instant now) {
        try {
            store.update(type, Json.namespace(object), Json.name(object), o -> {
                ObjectNode meta = Json.metadata(o);
                if (!meta.has("deletionTimestamp")) {
                    meta.put("deletionTimestamp", Json.timestamp(now));
                }
                meta.put("deletionGracePeriodSeconds", 0);
                return o;
            }, false);
        } catch (ApiException e) {
            if (e.code() != 404) {
                throw e;
            }
        }
    }

    @Override
    public void close() {
        queue.close();
    }
}
