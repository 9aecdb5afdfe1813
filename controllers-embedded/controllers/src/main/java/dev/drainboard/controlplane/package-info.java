/**
 * The whole KubeVirt drain control plane for one cluster: the controllers on a shared manager, leader election,
 * the live KubeVirt configuration and, while leading, the eviction webhook.
 */
package dev.drainboard.controlplane;
