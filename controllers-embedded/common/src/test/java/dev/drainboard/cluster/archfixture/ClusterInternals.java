package dev.drainboard.cluster.archfixture;

/** Fixture for CommonArchitectureRulesTest: part of the embedded cluster. */
public class ClusterInternals {

    public int pods() {
        return 3;
    }
}
