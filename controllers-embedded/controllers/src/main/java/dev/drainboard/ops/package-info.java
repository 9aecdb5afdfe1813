/**
 * Operator actions shared by the CLI and the UI, only through the Kubernetes API: {@link dev.drainboard.ops.Ops}
 * (cordon, uncordon, taint, evict, drain preview, drain, VMI migrations, scaling VMI replica sets
 * through their scale subresource: {@link dev.drainboard.ops.ReplicaSetOps}). The drain preview is a pure function
 * ({@link dev.drainboard.ops.DrainPreview#compute}) over the objects read, asking the same decisions the control
 * plane acts on; the drain ({@link dev.drainboard.ops.DrainOperation}) evicts through the eviction API, never deletes,
 * retries when what a refusal depends on changes, and reports DRAINED only when every pod is really gone.
 */
package dev.drainboard.ops;
