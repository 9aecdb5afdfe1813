package dev.drainboard.cluster.apiserver.admission;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drainboard.cluster.apiserver.ResourceType;

/**
 * What an admission webhook is asked about: operation, resource (and subresource), the object after
 * the change and before it, the request's kind, and whether it is a dry run.
 */
public record AdmissionAttributes(
        String operation,
        ResourceType resource,
        String subresource,
        String namespace,
        String name,
        ObjectNode object,
        ObjectNode oldObject,
        String kindGroup,
        String kindVersion,
        String kind,
        boolean dryRun) {

    /** "pods" or "pods/eviction", as webhook rules name resources. */
    public String ruleResource() {
        return subresource.isEmpty() ? resource.plural() : resource.plural() + "/" + subresource;
    }
}
