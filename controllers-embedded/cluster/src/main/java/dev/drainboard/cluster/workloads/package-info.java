/**
 * kube-controller-manager's workload controllers for the embedded cluster: ReplicaSet, Deployment, StatefulSet and
 * DaemonSet, one sub-package each, every one a thin loop ({@link dev.drainboard.cluster.workloads.WorkloadController})
 * around a pure decision; and what they share (claims, pod predicates, template hashes, apps/v1 validation). See
 * docs/embedded-cluster.md, "Workload controllers".
 */
package dev.drainboard.cluster.workloads;
