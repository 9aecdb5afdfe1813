/**
 * "Rehearse on a copy": a snapshot of the cluster the console is connected to, served by an embedded cluster at a
 * time scale (docs/embedded-cluster.md, "Snapshots" and "Time scale").
 */
package dev.drainboard.ui.rehearse;
