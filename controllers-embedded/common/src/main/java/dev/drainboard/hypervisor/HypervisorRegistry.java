package dev.drainboard.hypervisor;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * The hypervisors this process can drive, by node name: the nodes the node handler serves. In the embedded
 * cluster, one simulated hypervisor per Node; against a real cluster, none (KubeVirt's own virt-handler serves
 * those nodes). Domain listeners added here hear from every hypervisor, present and future.
 */
public final class HypervisorRegistry {

    private final Map<String, Hypervisor> byNode = new ConcurrentHashMap<>();
    private final List<DomainListener> domainListeners = new CopyOnWriteArrayList<>();
    private final List<Consumer<String>> nodeListeners = new CopyOnWriteArrayList<>();
    private final DomainListener fanOut = domain -> domainListeners.forEach(l -> l.onDomainChanged(domain));

    /** Adds (or replaces) the hypervisor of its node. */
    public void register(Hypervisor hypervisor) {
        Hypervisor previous = byNode.put(hypervisor.nodeName(), hypervisor);
        if (previous != null) {
            previous.removeListener(fanOut);
        }
        hypervisor.addListener(fanOut);
        nodeListeners.forEach(l -> l.accept(hypervisor.nodeName()));
    }

    public Optional<Hypervisor> unregister(String nodeName) {
        Hypervisor removed = byNode.remove(nodeName);
        if (removed != null) {
            removed.removeListener(fanOut);
            nodeListeners.forEach(l -> l.accept(nodeName));
        }
        return Optional.ofNullable(removed);
    }

    public Optional<Hypervisor> forNode(String nodeName) {
        return nodeName == null ? Optional.empty() : Optional.ofNullable(byNode.get(nodeName));
    }

    public boolean serves(String nodeName) {
        return nodeName != null && byNode.containsKey(nodeName);
    }

    public Collection<Hypervisor> all() {
        return List.copyOf(byNode.values());
    }

    public void addDomainListener(DomainListener listener) {
        domainListeners.add(listener);
    }

    public void removeDomainListener(DomainListener listener) {
        domainListeners.remove(listener);
    }

    /** Told the node name whenever a node gains or loses its hypervisor. */
    public void addNodeListener(Consumer<String> listener) {
        nodeListeners.add(listener);
    }

    public void removeNodeListener(Consumer<String> listener) {
        nodeListeners.remove(listener);
    }
}
