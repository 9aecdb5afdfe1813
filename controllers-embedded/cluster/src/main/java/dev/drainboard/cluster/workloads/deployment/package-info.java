/**
 * kube-controller-manager's Deployment controller, as the embedded cluster runs it: a pure decision (pkg/controller/deployment) and its loop.
 */
package dev.drainboard.cluster.workloads.deployment;
