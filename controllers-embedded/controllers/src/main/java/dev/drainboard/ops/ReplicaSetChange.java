package dev.drainboard.ops;

/**
 * What an operation on a VirtualMachineInstanceReplicaSet did.
 *
 * @param namespace the set's namespace
 * @param name      the set's name
 * @param changed   whether anything was written
 * @param before    {@code spec.replicas} before (for a create: 0)
 * @param after     {@code spec.replicas} after
 * @param message   one line for the operator ({@code virtualmachineinstancereplicaset/web scaled from 3 to 5})
 */
public record ReplicaSetChange(String namespace, String name, boolean changed, int before, int after, String message) {
}
