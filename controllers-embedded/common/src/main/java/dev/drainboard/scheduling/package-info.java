/**
 * kube-scheduler's pure fit logic (node selectors and affinity, taints and tolerations, resources, inter-pod
 * affinity): the embedded scheduler places pods with it, and the drain preview asks it where a VM could go.
 */
package dev.drainboard.scheduling;
