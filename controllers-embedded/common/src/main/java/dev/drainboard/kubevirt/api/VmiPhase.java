package dev.drainboard.kubevirt.api;

import java.util.Arrays;
import java.util.Optional;

/** {@code vmi.status.phase}. An unset phase counts as {@link #PENDING}'s predecessor, not as a phase. */
public enum VmiPhase {
    PENDING("Pending"),
    SCHEDULING("Scheduling"),
    SCHEDULED("Scheduled"),
    RUNNING("Running"),
    SUCCEEDED("Succeeded"),
    FAILED("Failed"),
    /** Decentralized migration targets only. */
    WAITING_FOR_SYNC("WaitingForSync"),
    UNKNOWN("Unknown");

    private final String value;

    VmiPhase(String value) {
        this.value = value;
    }

    public String value() {
        return value;
    }

    public boolean isFinal() {
        return this == SUCCEEDED || this == FAILED;
    }

    public static Optional<VmiPhase> parse(String value) {
        return Arrays.stream(values()).filter(p -> p.value.equals(value)).findFirst();
    }
}
