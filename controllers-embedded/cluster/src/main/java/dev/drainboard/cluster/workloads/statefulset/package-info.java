/**
 * kube-controller-manager's StatefulSet controller, as the embedded cluster runs it: a pure decision (pkg/controller/statefulset) and its loop.
 */
package dev.drainboard.cluster.workloads.statefulset;
