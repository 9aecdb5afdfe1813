package dev.drainboard.kubevirt.api;

import java.util.Arrays;
import java.util.Optional;

/** When the VM controller keeps a VMI for a VM ({@code vm.spec.runStrategy}). */
public enum RunStrategy {
    /** Always a VMI: recreated whenever it ends. */
    ALWAYS("Always"),
    /** Recreated when it fails, not when the guest shuts down. */
    RERUN_ON_FAILURE("RerunOnFailure"),
    /** Started and stopped only by the user. */
    MANUAL("Manual"),
    /** No VMI. */
    HALTED("Halted"),
    /** Run once; never recreated. */
    ONCE("Once");

    private final String value;

    RunStrategy(String value) {
        this.value = value;
    }

    public String value() {
        return value;
    }

    public static Optional<RunStrategy> parse(String value) {
        return Arrays.stream(values()).filter(s -> s.value.equals(value)).findFirst();
    }
}
