/**
 * kube-controller-manager's disruption controller: keeps each PodDisruptionBudget's status (healthy pods,
 * disruptions allowed) current for the API server's eviction checks.
 */
package dev.drainboard.cluster.disruption;
