package dev.drainboard.cluster.disruption;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drainboard.cluster.ClusterComponent;
import dev.drainboard.cluster.ComponentQueue;
import dev.drainboard.cluster.apiserver.BuiltinResources;
import dev.drainboard.cluster.apiserver.Json;
import dev.drainboard.labels.LabelSelector;
import dev.drainboard.labels.SelectorException;
import dev.drainboard.cluster.apiserver.store.ObjectStore;
import dev.drainboard.cluster.apiserver.store.WatchEvent;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Keeps every PodDisruptionBudget's status current as pods come, become ready and go — the part of
 * kube-controller-manager the eviction API depends on.
 *
 * <p>With thousands of budgets (one per VMI) neither "every budget of the namespace for every pod change" nor
 * "every pod of the namespace for every budget" scales, so it keeps two label indexes from the store's changes:
 * budgets by a label their selector requires, and pods by label. A pod change queues only the budgets selecting
 * it; a budget's pass reads only the pods carrying its required label.
 */
public final class DisruptionController implements ClusterComponent {

    private final ObjectStore store;
    private final ComponentQueue queue;
    /** Each budget's selector, parsed once per change of the budget (empty: selects nothing), by namespace, name. */
    private final Map<String, Map<String, Optional<LabelSelector>>> selectors = new ConcurrentHashMap<>();
    /** Budgets by the label their selector requires ({@link LabelSelector#requiredLabel}). */
    private final LabelIndex budgetsByLabel = new LabelIndex();
    /** Budgets whose selector requires no single label (e.g. {@code {}}, or only expressions): tested against every pod. */
    private final Map<String, Set<String>> budgetsWithoutLabel = new ConcurrentHashMap<>();
    private final LabelIndex podsByLabel = new LabelIndex();

    public DisruptionController(ObjectStore store) {
        this.store = store;
        this.queue = new ComponentQueue("disruption-controller", this::sync);
    }

    @Override
    public void start() {
        store.addListener(this::onEvent);
        for (ObjectNode pod : store.list(BuiltinResources.PODS, null, o -> true)) {
            podsByLabel.addAll(Json.namespace(pod), Json.name(pod), labels(pod));
        }
        for (ObjectNode pdb : store.list(BuiltinResources.POD_DISRUPTION_BUDGETS, null, o -> true)) {
            remember(pdb);
            queue.add(Json.namespace(pdb) + "/" + Json.name(pdb));
        }
    }

    /** Called under the store's write lock: only cheap work here. */
    private void onEvent(WatchEvent event) {
        ObjectNode object = event.object();
        String namespace = Json.namespace(object);
        if (event.resource() == BuiltinResources.POD_DISRUPTION_BUDGETS) {
            // Most changes are this controller's own status writes: the selector stays, and so does its parse.
            boolean sameSelector = event.type() == WatchEvent.Type.MODIFIED && event.previous() != null
                    && Objects.equals(event.previous().path("spec").get("selector"), object.path("spec").get("selector"));
            if (!sameSelector) {
                forget(event.previous() != null ? event.previous() : object);
                if (event.type() != WatchEvent.Type.DELETED) {
                    remember(object);
                }
            }
            queue.add(namespace + "/" + Json.name(object));
        } else if (event.resource() == BuiltinResources.PODS) {
            String name = Json.name(object);
            ObjectNode previous = event.previous();
            boolean sameLabels = event.type() == WatchEvent.Type.MODIFIED && previous != null
                    && Objects.equals(labels(previous), labels(object));
            if (!sameLabels) {
                if (previous != null) {
                    podsByLabel.removeAll(namespace, name, labels(previous));
                }
                if (event.type() != WatchEvent.Type.DELETED) {
                    podsByLabel.addAll(namespace, name, labels(object));
                }
            }
            // A pod whose labels changed concerns the budgets that selected it before as well as those that do now.
            Set<String> candidates = new HashSet<>(budgetsWithoutLabel.getOrDefault(namespace, Set.of()));
            budgetsByLabel.collect(namespace, labels(object), candidates);
            if (previous != null && !sameLabels) {
                budgetsByLabel.collect(namespace, labels(previous), candidates);
            }
            Map<String, Optional<LabelSelector>> inNamespace = selectors.getOrDefault(namespace, Map.of());
            for (String budget : candidates) {
                Optional<LabelSelector> selector = inNamespace.getOrDefault(budget, Optional.empty());
                if (selects(selector, object) || selects(selector, previous)) {
                    queue.add(namespace + "/" + budget);
                }
            }
        }
    }

    private static JsonNode labels(ObjectNode object) {
        return object.path("metadata").get("labels");
    }

    private static boolean selects(Optional<LabelSelector> selector, ObjectNode pod) {
        return selector.isPresent() && pod != null && selector.get().matchesObject(pod);
    }

    private void remember(ObjectNode pdb) {
        String namespace = Json.namespace(pdb);
        String name = Json.name(pdb);
        Optional<LabelSelector> selector = selectorOf(pdb);
        selectors.computeIfAbsent(namespace, ns -> new ConcurrentHashMap<>()).put(name, selector);
        if (selector.isEmpty()) {
            return;
        }
        Optional<String> label = selector.get().requiredLabel();
        if (label.isPresent()) {
            budgetsByLabel.add(namespace, label.get(), name);
        } else {
            budgetsWithoutLabel.computeIfAbsent(namespace, ns -> ConcurrentHashMap.newKeySet()).add(name);
        }
    }

    private void forget(ObjectNode pdb) {
        String namespace = Json.namespace(pdb);
        String name = Json.name(pdb);
        Map<String, Optional<LabelSelector>> inNamespace = selectors.get(namespace);
        Optional<LabelSelector> selector = inNamespace == null ? null : inNamespace.remove(name);
        if (selector == null || selector.isEmpty()) {
            return;
        }
        selector.get().requiredLabel().ifPresentOrElse(label -> budgetsByLabel.remove(namespace, label, name), () -> {
            Set<String> without = budgetsWithoutLabel.get(namespace);
            if (without != null) {
                without.remove(name);
            }
        });
    }

    /** The budget's pod selector; empty when it has none or it does not parse (then it selects no pod). */
    private static Optional<LabelSelector> selectorOf(ObjectNode pdb) {
        try {
            var json = pdb.path("spec").get("selector");
            return json == null || json.isNull() ? Optional.empty() : Optional.of(LabelSelector.fromJson(json));
        } catch (SelectorException e) {
            return Optional.empty();
        }
    }

    private void sync(String key) {
        String namespace = key.substring(0, key.indexOf('/'));
        String name = key.substring(key.indexOf('/') + 1);
        ObjectNode pdb = store.get(BuiltinResources.POD_DISRUPTION_BUDGETS, namespace, name);
        if (pdb == null) {
            return;
        }
        LabelSelector selector = selectorOf(pdb).orElse(null);
        List<ObjectNode> pods = selector == null ? List.of() : selectedPods(namespace, selector);
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

    /** The pods of the namespace the selector selects, by name. */
    private List<ObjectNode> selectedPods(String namespace, LabelSelector selector) {
        Optional<String> label = selector.requiredLabel();
        if (label.isEmpty()) {
            return store.list(BuiltinResources.PODS, namespace, selector::matchesObject);
        }
        List<ObjectNode> pods = new ArrayList<>();
        for (String podName : podsByLabel.get(namespace, label.get())) {
            ObjectNode pod = store.get(BuiltinResources.PODS, namespace, podName);
            if (pod != null && selector.matchesObject(pod)) {
                pods.add(pod);
            }
        }
        pods.sort(Comparator.comparing(Json::name));
        return pods;
    }

    @Override
    public void close() {
        queue.close();
    }
}
