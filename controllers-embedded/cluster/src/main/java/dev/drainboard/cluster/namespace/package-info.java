/**
 * kube-controller-manager's namespace controller: empties a namespace being deleted, then removes it.
 */
package dev.drainboard.cluster.namespace;
