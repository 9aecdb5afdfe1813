/**
 * Simulated kubelets: run the pods bound to their nodes, report node and pod status, and, when configured,
 * evict pods under memory pressure as the kubelet does.
 */
package dev.drainboard.cluster.kubelet;
