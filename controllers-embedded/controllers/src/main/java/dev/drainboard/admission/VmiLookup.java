package dev.drainboard.admission;

import dev.drainboard.kubevirt.api.VirtualMachineInstance;

import java.util.Objects;

/** The outcome of reading the VMI a launcher pod names, as input to the pure {@link EvictionAdmitter#decide}. */
public sealed interface VmiLookup {

    /** The VMI was read. */
    record Found(VirtualMachineInstance vmi) implements VmiLookup {
        public Found {
            Objects.requireNonNull(vmi, "vmi");
        }
    }

    /** Reading it failed (including NotFound); {@code error} is the error text the denial quotes. */
    record Failed(String error) implements VmiLookup {
        public Failed {
            Objects.requireNonNull(error, "error");
        }
    }

    /** Nobody looked: the pod names no VMI. */
    record NotNeeded() implements VmiLookup {
    }

    static VmiLookup found(VirtualMachineInstance vmi) {
        return new Found(vmi);
    }

    static VmiLookup failed(String error) {
        return new Failed(error);
    }

    static VmiLookup notNeeded() {
        return new NotNeeded();
    }
}
