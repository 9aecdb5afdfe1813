package dev.drainboard.kubevirt.api;

import java.util.Arrays;
import java.util.Optional;

/** {@code vmim.status.phase}. */
public enum MigrationPhase {
    PENDING("Pending"),
    SCHEDULING("Scheduling"),
    SCHEDULED("Scheduled"),
    PREPARING_TARGET("PreparingTarget"),
    TARGET_READY("TargetReady"),
    RUNNING("Running"),
    SUCCEEDED("Succeeded"),
    FAILED("Failed"),
    /** Decentralized migrations only. */
    WAITING_FOR_SYNC("WaitingForSync"),
    SYNCHRONIZING("Synchronizing");

    private final String value;

    MigrationPhase(String value) {
        this.value = value;
    }

    public String value() {
        return value;
    }

    public boolean isFinal() {
        return this == SUCCEEDED || this == FAILED;
    }

    public static Optional<MigrationPhase> parse(String value) {
        return Arrays.stream(values()).filter(p -> p.value.equals(value)).findFirst();
    }
}
