/**
 * The embedded Kubernetes API server: resources and their storage strategies, discovery, validation, the
 * eviction and scale subresources, watches, access reviews, all over the same REST paths as kube-apiserver.
 */
package dev.drainboard.cluster.apiserver;
