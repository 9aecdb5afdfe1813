package dev.drainboard.hypervisor;

/** Why a domain is off. */
public enum StopReason {
    /** Still alive, or never started. */
    NONE,
    /** The guest powered itself off (ACPI shutdown, or a shutdown inside the guest). */
    SHUTDOWN,
    /** Forced off by the handler or because its launcher was killed. */
    DESTROYED,
    /** The guest or QEMU crashed. */
    CRASHED,
    /** Live-migrated away: the VMI runs on another node now. */
    MIGRATED
}
