package dev.drainboard.cluster.apiserver.patch;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * The patch metadata of one kind: which list fields merge (and by which key) and which maps retain only the
 * keys a patch names. Fields are addressed by path from the object root: field names joined by dots, with
 * {@code [*]} stepping into the elements of a list, e.g. {@code spec.template.spec.containers[*].env}.
 * Any list not described is atomic, as a list without a patch strategy is in Kubernetes.
 */
public final class PatchSchema {

    /** Path suffix that steps from a list into its elements. */
    static final String ELEMENTS = "[*]";

    private final Map<String, ListStrategy> lists;
    private final Set<String> retainKeysMaps;

    private PatchSchema(Map<String, ListStrategy> lists, Set<String> retainKeysMaps) {
        this.lists = Map.copyOf(lists);
        this.retainKeysMaps = Set.copyOf(retainKeysMaps);
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The strategy of the list at {@code path}; atomic when the schema says nothing about it. */
    public ListStrategy listAt(String path) {
        return lists.getOrDefault(path, ListStrategy.ATOMIC);
    }

    /** Whether the map at {@code path} (a field, or the elements of a list) has {@code patchStrategy: retainKeys}. */
    public boolean retainsKeys(String path) {
        if (retainKeysMaps.contains(path)) {
            return true;
        }
        return path.endsWith(ELEMENTS) && listAt(path.substring(0, path.length() - ELEMENTS.length())).retainKeys();
    }

    static String field(String parentPath, String name) {
        return parentPath.isEmpty() ? name : parentPath + "." + name;
    }

    static String elements(String listPath) {
        return listPath + ELEMENTS;
    }

    public static final class Builder {
        private final Map<String, ListStrategy> lists = new HashMap<>();
        private final Set<String> retainKeysMaps = new HashSet<>();

        private Builder() {
        }

        public Builder list(String path, ListStrategy strategy) {
            lists.put(path, strategy);
            return this;
        }

        public Builder mergeByKey(String path, String mergeKey) {
            return list(path, ListStrategy.mergeByKey(mergeKey));
        }

        public Builder mergeByKeyRetainingKeys(String path, String mergeKey) {
            return list(path, ListStrategy.mergeByKey(mergeKey).withRetainKeys());
        }

        public Builder mergePrimitives(String path) {
            return list(path, ListStrategy.MERGE_PRIMITIVES);
        }

        /** A map field (not a list) with {@code patchStrategy: retainKeys}, such as a Deployment's strategy. */
        public Builder retainKeys(String path) {
            retainKeysMaps.add(path);
            return this;
        }

        public PatchSchema build() {
            return new PatchSchema(lists, retainKeysMaps);
        }
    }
}
