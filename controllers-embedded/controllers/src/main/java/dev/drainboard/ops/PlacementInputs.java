package dev.drainboard.ops;

import dev.drainboard.kubevirt.api.MigrationPolicy;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;

import java.util.List;
import java.util.Map;

/**
 * The cluster as the scheduler sees it, for {@link PlacementDecision}: every node and every pod; and, for the
 * estimate, the MigrationPolicies and the namespaces' labels they select by (a policy's {@code bandwidthPerMigration}
 * sets a migration's speed).
 */
public record PlacementInputs(List<Node> nodes, List<Pod> pods, List<MigrationPolicy> policies,
                              Map<String, Map<String, String>> namespaceLabels) {

    public PlacementInputs {
        nodes = List.copyOf(nodes);
        pods = List.copyOf(pods);
        policies = List.copyOf(policies);
        namespaceLabels = Map.copyOf(namespaceLabels);
    }

    public PlacementInputs(List<Node> nodes, List<Pod> pods) {
        this(nodes, pods, List.of(), Map.of());
    }
}
