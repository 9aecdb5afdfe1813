/**
 * The simulated hypervisor behind each node: guests that boot, shut down and migrate in simulated time,
 * implementing the hypervisor SPI the node handler drives.
 */
package dev.drainboard.cluster.hypervisor;
