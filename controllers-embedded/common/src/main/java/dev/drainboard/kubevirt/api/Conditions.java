package dev.drainboard.kubevirt.api;

import java.util.List;
import java.util.Optional;

/** Look-ups in a condition list, which may be null. */
public final class Conditions {

    private Conditions() {
    }

    public static Optional<Condition> find(List<Condition> conditions, String type) {
        if (conditions == null) {
            return Optional.empty();
        }
        return conditions.stream().filter(c -> type.equals(c.getType())).findFirst();
    }

    /** True when a condition of this type has status {@code True}. */
    public static boolean isTrue(List<Condition> conditions, String type) {
        return find(conditions, type).map(c -> "True".equals(c.getStatus())).orElse(false);
    }
}
