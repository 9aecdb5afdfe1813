package dev.drainboard.hypervisor;

import java.util.Map;
import java.util.Objects;

/**
 * What the handler gives the hypervisor to define a domain: the VMI it runs, its guest memory, the grace period
 * (kept with the domain, as virt-launcher keeps it in its domain metadata, so it is known after the VMI is gone),
 * and the VMI's annotations, where a simulated hypervisor finds its knobs.
 */
public record DomainDefinition(String vmiUid, String namespace, String name, long memoryBytes,
                               long gracePeriodSeconds, Map<String, String> annotations) {

    public DomainDefinition {
        Objects.requireNonNull(vmiUid);
        annotations = annotations == null ? Map.of() : Map.copyOf(annotations);
    }
}
