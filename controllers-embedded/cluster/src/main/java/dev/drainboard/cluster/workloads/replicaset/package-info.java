/**
 * kube-controller-manager's ReplicaSet controller, as the embedded cluster runs it: a pure decision (pkg/controller/replicaset) and its loop.
 */
package dev.drainboard.cluster.workloads.replicaset;
