package dev.drainboard.hypervisor;

/** Lifecycle of a domain, as libvirt reports it (simplified). */
public enum DomainState {
    /** Not defined on this node (or undefined). */
    NONE,
    STARTING,
    RUNNING,
    /** The guest was asked to power off and has not finished yet. */
    SHUTTING_DOWN,
    /** Off; {@link StopReason} says why. */
    SHUTOFF,
    CRASHED;

    /** The guest exists and uses memory. */
    public boolean isAlive() {
        return this == STARTING || this == RUNNING || this == SHUTTING_DOWN;
    }

    /** Off for good: the domain will not run again. */
    public boolean isFinal() {
        return this == SHUTOFF || this == CRASHED;
    }
}
