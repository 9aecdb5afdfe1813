/**
 * {@code drainboard snapshot}: a copy of a cluster's drain-relevant state as a scenario the embedded cluster serves
 * (docs/embedded-cluster.md, "Snapshots").
 */
package dev.drainboard.snapshot;
