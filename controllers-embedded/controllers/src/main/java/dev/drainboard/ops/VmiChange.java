package dev.drainboard.ops;

/**
 * What an operation on a VMI or its migration did.
 *
 * @param namespace the object's namespace
 * @param name      the object written or looked at: the VMI, or the VMIM created or deleted
 * @param changed   whether anything was written
 * @param message   one line for the operator ({@code virtualmachineinstancemigration/vm1-migration-x7k2p created})
 */
public record VmiChange(String namespace, String name, boolean changed, String message) {
}
