package dev.drainboard.cluster.apiserver.patch;

import java.util.Optional;

/** The special keys of a strategic merge patch, as kubectl writes them. */
final class Directives {

    static final String PATCH = "$patch";
    static final String REPLACE = "replace";
    static final String DELETE = "delete";
    static final String MERGE = "merge";
    static final String RETAIN_KEYS = "$retainKeys";
    static final String SET_ELEMENT_ORDER = "$setElementOrder";
    static final String DELETE_FROM_PRIMITIVE_LIST = "$deleteFromPrimitiveList";

    private Directives() {
    }

    static boolean isDirective(String key) {
        return key.equals(PATCH) || key.equals(RETAIN_KEYS)
                || key.startsWith(SET_ELEMENT_ORDER) || key.startsWith(DELETE_FROM_PRIMITIVE_LIST);
    }

    /**
     * The list field a parallel-list key such as {@code $setElementOrder/containers} refers to, empty when
     * {@code key} does not start with {@code prefix}.
     */
    static Optional<String> parallelListField(String key, String prefix, String formatError) throws PatchException {
        if (!key.startsWith(prefix)) {
            return Optional.empty();
        }
        String rest = key.substring(prefix.length());
        if (!rest.startsWith("/") || rest.length() == 1) {
            throw PatchException.badRequest(formatError);
        }
        return Optional.of(rest.substring(1));
    }
}
