package dev.drainboard.ops;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;

import java.util.List;

/**
 * The cluster as the scheduler sees it, for {@link PlacementDecision}: every node and every pod.
 */
public record PlacementInputs(List<Node> nodes, List<Pod> pods) {

    public PlacementInputs {
        nodes = List.copyOf(nodes);
        pods = List.copyOf(pods);
    }
}
