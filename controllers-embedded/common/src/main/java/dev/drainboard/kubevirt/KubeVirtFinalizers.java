package dev.drainboard.kubevirt;

/** The finalizers KubeVirt puts on its objects (declared in KubeVirt's {@code staging/src/kubevirt.io/api/core/v1/types.go}). */
public final class KubeVirtFinalizers {

    private KubeVirtFinalizers() {
    }

    /** VMIMs, added by the mutating webhook, removed when the migration is final. */
    public static final String MIGRATION_JOB = "kubevirt.io/migrationJobFinalize";
    /** VMIs, removed once no launcher pod is left. */
    public static final String FOREGROUND_DELETE_VIRTUAL_MACHINE = "kubevirt.io/foregroundDeleteVirtualMachine";
}
