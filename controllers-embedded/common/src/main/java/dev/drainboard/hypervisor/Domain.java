package dev.drainboard.hypervisor;

import java.time.Instant;

/**
 * A snapshot of one domain.
 *
 * @param gracefulShutdownRequested the launcher got SIGTERM (its pod was deleted or evicted) and asks the handler
 *                                  to shut the guest down; kept until the domain is gone
 * @param shutdownRequestedAt       when the first ACPI shutdown was sent, or null; the grace period runs from here
 * @param incoming                  a migration target being filled from another node (not yet the VMI's domain)
 * @param gracefulShutdownRequestedAt when the launcher got its SIGTERM, or null; kept with the domain (as
 *                                  virt-launcher keeps its grace-period start), so a restarted handler still knows it
 */
public record Domain(String vmiUid, String namespace, String name, String nodeName, DomainState state,
                     StopReason stopReason, long memoryBytes, long gracePeriodSeconds,
                     boolean gracefulShutdownRequested, Instant shutdownRequestedAt, boolean incoming,
                     Instant startedAt, Instant gracefulShutdownRequestedAt) {

    public Domain(String vmiUid, String namespace, String name, String nodeName, DomainState state,
                  StopReason stopReason, long memoryBytes, long gracePeriodSeconds,
                  boolean gracefulShutdownRequested, Instant shutdownRequestedAt, boolean incoming, Instant startedAt) {
        this(vmiUid, namespace, name, nodeName, state, stopReason, memoryBytes, gracePeriodSeconds,
                gracefulShutdownRequested, shutdownRequestedAt, incoming, startedAt, null);
    }

    /** The domain's absence, as listeners are told of an undefined domain. */
    public static Domain none(String vmiUid, String namespace, String name, String nodeName) {
        return new Domain(vmiUid, namespace, name, nodeName, DomainState.NONE, StopReason.NONE, 0, 0, false, null,
                false, null);
    }

    public boolean isAlive() {
        return state.isAlive();
    }

    public boolean isFinal() {
        return state.isFinal();
    }

    public long memoryInUseBytes() {
        return isAlive() ? memoryBytes : 0;
    }
}
