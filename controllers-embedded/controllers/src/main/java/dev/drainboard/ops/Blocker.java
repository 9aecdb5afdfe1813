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
public record Blocker(String kind, String namespace, String name, String reason, Cause cause) {

    public static final String VMI = "VirtualMachineInstance";
    public static final String POD = "Pod";

    /** Why it blocks. */
    public enum Cause {
        /** No node remains that the scheduler would put it on. */
        NOWHERE_TO_RUN,
        /** Strategy External: the drain waits for something outside KubeVirt. */
        EXTERNAL,
        /**
         * Strategy LiveMigrate on a VMI that is not live-migratable: KubeVirt's eviction webhook refuses every
         * eviction of its launcher, so the drain would wait for ever.
         */
        NOT_MIGRATABLE
    }

    /** One with nowhere to run. */
    public Blocker(String kind, String namespace, String name, String reason) {
        this(kind, namespace, name, reason, Cause.NOWHERE_TO_RUN);
    }

    public Blocker {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(cause, "cause");
    }

    /** "3 VMIs have nowhere to run: demo/a, demo/b, demo/c" (VMIs and pods counted apart). */
    public static String nowhereToRun(java.util.List<Blocker> stranded) {
        long vmis = stranded.stream().filter(b -> b.kind().equals(VMI)).count();
        long pods = stranded.size() - vmis;
        java.util.List<String> counts = new java.util.ArrayList<>();
        if (vmis > 0) {
            counts.add(vmis + (vmis == 1 ? " VMI" : " VMIs"));
        }
        if (pods > 0) {
            counts.add(pods + (pods == 1 ? " pod" : " pods"));
        }
        return String.join(" and ", counts) + (stranded.size() == 1 ? " has" : " have") + " nowhere to run: "
                + String.join(", ", stranded.stream().map(Blocker::key).toList());
    }

    public String key() {
        return namespace + "/" + name;
    }
}
