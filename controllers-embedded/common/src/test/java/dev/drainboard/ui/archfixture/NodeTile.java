package dev.drainboard.ui.archfixture;

import io.fabric8.kubernetes.api.model.Node;

/** Fixture for CommonArchitectureRulesTest: a view reading a fabric8 object instead of a ClusterModel row. */
public class NodeTile {

    public String title(Node node) {
        return node.getMetadata().getName();
    }
}
