package dev.drainboard.controller.archfixture;

import dev.drainboard.cluster.archfixture.ClusterInternals;

/** Fixture for CommonArchitectureRulesTest: a control-plane class that calls the embedded cluster's internals. */
public class ReachesIntoTheCluster {

    public int podCount(ClusterInternals cluster) {
        return cluster.pods();
    }
}
