/**
 * The embedded cluster: an in-process Kubernetes API server with simulated nodes and the kube-controller-manager
 * parts a drain needs, seeded from plain YAML; real {@code kubectl} and fabric8 talk to it as to any cluster.
 */
package dev.drainboard.cluster;
