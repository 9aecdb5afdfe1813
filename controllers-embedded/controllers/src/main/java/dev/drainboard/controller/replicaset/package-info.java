/**
 * The VirtualMachineInstanceReplicaSet controller (KubeVirt's {@code docs/replica-sets.md} and
 * {@code pkg/virt-controller/watch/replicaset/replicaset.go}; where they differ, docs/behaviour.md, "Replica sets"):
 * keeps {@code spec.replicas} VMIs from a template. The decisions are pure and table-tested: which VMIs the set claims,
 * adopts or releases and how many to create or delete
 * ({@link dev.drainboard.controller.replicaset.ReplicaSetDecision}), which to delete first
 * ({@link dev.drainboard.controller.replicaset.ScaleDownOrder}: not ready, then migrating, then ready), and the status
 * with its {@code ReplicaFailure} and {@code ReplicaPaused} conditions
 * ({@link dev.drainboard.controller.replicaset.ReplicaSetStatuses}).
 * {@link dev.drainboard.controller.replicaset.ReplicaSetController} is the thin loop that applies them.
 */
package dev.drainboard.controller.replicaset;
