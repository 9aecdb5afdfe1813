/**
 * Scenarios: the plain Kubernetes YAML the embedded cluster is seeded from, built in or from a folder.
 */
package dev.drainboard.cluster.scenario;
