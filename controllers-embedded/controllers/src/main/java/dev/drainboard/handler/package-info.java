/**
 * The node-side logic (KubeVirt's virt-handler): runs each node's domains through the hypervisor SPI, reports
 * migratability, carries out live migrations on both ends and, behind its feature gate, node-pressure evacuation.
 */
package dev.drainboard.handler;
