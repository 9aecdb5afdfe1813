/**
 * kube-controller-manager's DaemonSet controller, as the embedded cluster runs it: a pure decision (pkg/controller/daemon) and its loop.
 */
package dev.drainboard.cluster.workloads.daemonset;
