package dev.drainboard.kubevirt.api;

import java.util.Arrays;
import java.util.Optional;

/** What an eviction of a VMI's launcher pod does ({@code spec.evictionStrategy}, cluster default {@code None}). */
public enum EvictionStrategy {
    /** The pod is evicted; the VM restarts or stops according to its run strategy. */
    NONE("None"),
    /** Every eviction becomes a live migration; non-migratable VMIs block the drain. */
    LIVE_MIGRATE("LiveMigrate"),
    /** Live migration when the VMI is migratable, plain eviction otherwise. */
    LIVE_MIGRATE_IF_POSSIBLE("LiveMigrateIfPossible"),
    /** Evictions are refused and the VMI marked; someone outside KubeVirt moves it. */
    EXTERNAL("External");

    private final String value;

    EvictionStrategy(String value) {
        this.value = value;
    }

    /** The text in the API. */
    public String value() {
        return value;
    }

    /** The strategy written as {@code value}, empty for null or an unknown value. */
    public static Optional<EvictionStrategy> parse(String value) {
        return Arrays.stream(values()).filter(s -> s.value.equals(value)).findFirst();
    }
}
