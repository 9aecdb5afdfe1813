package dev.drainboard.cluster.disruption;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drainboard.cluster.ClusterComponent;
import dev.drainboard.cluster.ComponentQueue;
import dev.drainboard.cluster.apiserver.BuiltinResources;
import dev.drainboard.cluster.apiserver.Json;
import dev.drainboard.cluster.apiserver.select.LabelSelector;
import dev.drainboard.cluster.apiserver.select.SelectorException;
import dev.drainboard.cluster.apiserver.store.ObjectStore;
import dev.drainboard.cluster.apiserver.store.WatchEvent;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * Keeps every PodDisruptionBudget's status current as pods come, become ready and go — the part of
 * kube-controller-manager the eviction API depends on.
 */
public final class DisruptionController implements ClusterComponent {

    private final ObjectStore store;
    private final ComponentQueue queue;

    public DisruptionController(ObjectStore store) {
        this.store = store;
        this.queue = new ComponentQueue("disruption-controller", this::sync);
    }

    @Override
    public void start() {
        store.addListener(this::onEvent);
        for (ObjectNode pdb : store.list(BuiltinResources.POD_DISRUPTION_BUDGETS, null, o -> true)) {
            queue.add(Json.namespace(pdb) + "/" + Json.name(pdb));
        }
    }

    private void onEvent(WatchEvent event) {
        if (event.resource() == BuiltinResources.POD_DISRUPTION_BUDGETS) {
            queue.add(Json.namespace(event.object()) + "/" + Json.name(event.object()));
        } else if (event.resource() == BuiltinResources.PODS) {
            String namespace = Json.namespace(event.object());
            for (ObjectNode pdb : store.list(BuiltinResources.POD_DISRUPTION_BUDGETS, namespace, o -> true)) {
                queue.add(namespace + "/" + Json.name(pdb));
            }
        }
    }

    private void sync(String key) {
        String namespace = key.substring(0, key.indexOf('/'));
        String name = key.substring(key.indexOf('/') + 1);
        ObjectNode pdb = store.get(BuiltinResources.POD_DISRUPTION_BUDGETS, namespace, name);
        if (pdb == null) {
            return;
        }
        LabelSelector selector;
        try {
            var json = pdb.path("spec").get("selector");
            selector = json == null || json.isNull() ? null : LabelSelector.fromJson(json);
        } catch (SelectorException e) {
            selector = null;
        }
        LabelSelector s = selector;
        List<ObjectNode> pods = s == null ? List.of() : store.list(BuiltinResources.PODS, namespace, s::matchesObject);
        Instant now = store.clock().instant();
        try {
            ObjectNode updated = store.update(BuiltinResources.POD_DISRUPTION_BUDGETS, namespace, name,
                    current -> DisruptionBudgetStatus.compute(current, pods, now), false);
            Instant expiry = DisruptionBudgetStatus.nextExpiry(updated);
            if (expiry != null) {
                queue.addAfter(key, Math.max(100, Duration.between(now, expiry).toMillis() + 50));
            }
        } catch (dev.drainboard.cluster.apiserver.ApiException e) {
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
