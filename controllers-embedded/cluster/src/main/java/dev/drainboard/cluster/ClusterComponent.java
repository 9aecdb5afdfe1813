package dev.drainboard.cluster;

/**
 * A part of the embedded cluster that runs beside the API server (garbage collector, namespace
 * lifecycle, disruption budgets, simulated kubelets). It works on the store directly, as
 * kube-controller-manager's parts work on their API server; Drainboard's own controllers never do.
 */
public interface ClusterComponent extends AutoCloseable {

    void start();

    @Override
    void close();
}
