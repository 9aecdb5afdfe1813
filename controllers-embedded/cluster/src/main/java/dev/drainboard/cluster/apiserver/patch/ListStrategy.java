package dev.drainboard.cluster.apiserver.patch;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * How a list field is patched, mirroring the {@code patchStrategy}/{@code patchMergeKey} struct tags of
 * k8s.io/api.
 *
 * @param kind        atomic replace, merge of objects by key, or merge of primitives as a set
 * @param mergeKey    the {@code patchMergeKey} for {@link Kind#MERGE_BY_KEY}, otherwise null
 * @param retainKeys  whether elements carry {@code patchStrategy: retainKeys} (a one-of such as a volume source)
 * @param listMapKeys the full key server-side apply matches elements on ({@code +listMapKey}); starts with the merge key
 * @param keyDefaults defaults of list-map keys an element may omit (e.g. {@code protocol: TCP} on ports)
 */
public record ListStrategy(Kind kind, String mergeKey, boolean retainKeys, List<String> listMapKeys,
                           Map<String, String> keyDefaults) {

    public enum Kind { ATOMIC, MERGE_BY_KEY, MERGE_PRIMITIVES }

    public static final ListStrategy ATOMIC = new ListStrategy(Kind.ATOMIC, null, false, List.of(), Map.of());
    public static final ListStrategy MERGE_PRIMITIVES = new ListStrategy(Kind.MERGE_PRIMITIVES, null, false, List.of(), Map.of());

    public ListStrategy {
        Objects.requireNonNull(kind);
        listMapKeys = List.copyOf(listMapKeys);
        keyDefaults = Map.copyOf(keyDefaults);
        if ((kind == Kind.MERGE_BY_KEY) != (mergeKey != null)) {
            throw new IllegalArgumentException("a merge key is required exactly for lists merged by key");
        }
    }

    public static ListStrategy mergeByKey(String mergeKey) {
        return new ListStrategy(Kind.MERGE_BY_KEY, mergeKey, false, List.of(mergeKey), Map.of());
    }

    public ListStrategy withRetainKeys() {
        return new ListStrategy(kind, mergeKey, true, listMapKeys, keyDefaults);
    }

    /** Adds a further list-map key for server-side apply, with the value assumed when an element omits it (null: none). */
    public ListStrategy withListMapKey(String key, String defaultValue) {
        var keys = new ArrayList<>(listMapKeys);
        keys.add(key);
        var defaults = new HashMap<>(keyDefaults);
        if (defaultValue != null) {
            defaults.put(key, defaultValue);
        }
        return new ListStrategy(kind, mergeKey, retainKeys, keys, defaults);
    }
}
