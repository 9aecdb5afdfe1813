/**
 * The hypervisor SPI: a node's virtualization layer as the node handler ({@code dev.drainboard.handler}) drives it,
 * libvirt/QEMU behind virt-launcher on a real node. The embedded cluster's simulated hypervisors
 * ({@code dev.drainboard.cluster.hypervisor}) implement it and register in a {@link
 * dev.drainboard.hypervisor.HypervisorRegistry}; this package is where the two meet, so neither depends on the other
 * (docs/architecture.md).
 */
package dev.drainboard.hypervisor;
