/**
 * kube-controller-manager's garbage collector: deletes dependents whose owners are gone, with foreground and
 * orphan deletion.
 */
package dev.drainboard.cluster.gc;
