/**
 * The embedded scheduler: binds pending pods to nodes with the pure fit logic of {@link dev.drainboard.scheduling}.
 */
package dev.drainboard.cluster.scheduler;
