/**
 * The embedded cluster's simulation knobs ({@code sim.drainboard.dev/*} annotations): what the simulated nodes, kubelets and hypervisors read; in common because the node handler reads some of them too.
 */
package dev.drainboard.simulation;
