/**
 * The hypervisor SPI: the domains a node runs and their live migrations, as the node handler drives them. The
 * embedded cluster's simulated nodes implement it, so the handler reaches them without calling into the cluster.
 */
package dev.drainboard.hypervisor;
