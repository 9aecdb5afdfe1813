package dev.drainboard.hypervisor;

import java.util.List;
import java.util.Optional;

/**
 * The virtualization layer of one node, as the node handler drives it (libvirt/QEMU behind virt-launcher on a
 * real node; {@code dev.drainboard.cluster.hypervisor.SimulatedHypervisor} in the embedded cluster). Domains are
 * keyed by the UID of the VMI they run. Thread-safe; every change is reported to the listeners.
 */
public interface Hypervisor {

    String nodeName();

    /** The domain of a VMI, if one is defined on this node. */
    Optional<Domain> domain(String vmiUid);

    List<Domain> domains();

    /**
     * Defines the domain and boots it (STARTING, then RUNNING). A domain already defined for this UID is
     * returned as it is: a VMI boots once; a restarted VM gets a new VMI and a new UID.
     */
    Domain start(DomainDefinition definition);

    /**
     * Asks the guest to power off (ACPI): SHUTTING_DOWN, then SHUTOFF with reason SHUTDOWN when the guest is
     * done. Records the first request's time ({@link Domain#shutdownRequestedAt()}). No effect on a domain that
     * is not alive; repeating it is harmless.
     */
    void shutdown(String vmiUid);

    /** Pulls the plug: SHUTOFF with reason DESTROYED at once. No effect on a domain that is not alive. */
    void destroy(String vmiUid);

    /** Forgets a domain that is no longer alive (its VMI is gone); a live one is left alone. */
    void undefine(String vmiUid);

    /** Guest memory of the domains alive on this node. */
    long memoryInUseBytes();

    void addListener(DomainListener listener);

    void removeListener(DomainListener listener);

    /**
     * Target side of a live migration: defines the VMI's incoming domain ({@link Domain#incoming()}), alive and
     * holding its memory but not the VMI's domain until the switch-over. Returns an existing one as it is.
     */
    Domain prepareIncoming(DomainDefinition definition);

    /**
     * Source side: starts moving the running domain to the incoming one on {@code target}. On success the source
     * domain ends SHUTOFF with {@link StopReason#MIGRATED} and the target's becomes the running domain; on failure
     * the target's is dropped and the source keeps running. Progress: {@link #migration}; every step is also
     * reported to the listeners as a change of the source domain.
     */
    void migrate(String vmiUid, Hypervisor target, MigrationOptions options);

    /** The latest migration of this domain away from this node, while the domain is defined here. */
    Optional<MigrationProgress> migration(String vmiUid);

    /** Aborts a running migration: it fails with "Live migration has been aborted"; the guest stays here. */
    void abortMigration(String vmiUid);

    /** Target side: the switch-over ({@code takeOver}: the incoming domain becomes the running one) or its drop. */
    void finishIncoming(String vmiUid, boolean takeOver);
}
