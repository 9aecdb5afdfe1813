package dev.drainboard.ops;

import java.util.Objects;

/**
 * Something that keeps a drain from starting unless the operator accepts it ({@link DrainOptions#allowStranded()}):
 * a VMI or pod that would have nowhere to run once the nodes are drained, or a VMI with eviction strategy External
 * that nothing in KubeVirt will move ({@link DrainOptions#externalHandled()} says something outside will).
 *
 * @param kind   {@code VirtualMachineInstance} or {@code Pod}
 * @param reason one sentence for the operator, with the scheduler's message when nothing fits
 */
public record Blocker(String kind, String namespace, String name, String reason) {

    public static final String VMI = "VirtualMachineInstance";
    public static final String POD = "Pod";

    public Blocker {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(reason, "reason");
    }

    public String key() {
        return namespace + "/" + name;
    }
}
