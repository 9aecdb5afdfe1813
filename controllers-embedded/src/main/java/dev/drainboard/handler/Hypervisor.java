package dev.drainboard.handler;

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
}
