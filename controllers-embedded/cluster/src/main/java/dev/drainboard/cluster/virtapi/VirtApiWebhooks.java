package dev.drainboard.cluster.virtapi;

/**
 * The names of the webhooks KubeVirt's operator registers for virt-api
 * (pkg/virt-operator/resource/generate/components/webhooks.go), which kube-apiserver quotes in a denial.
 */
public final class VirtApiWebhooks {

    /** The MutatingWebhookConfiguration and the ValidatingWebhookConfiguration holding them. */
    public static final String MUTATOR_CONFIGURATION = "virt-api-mutator";
    public static final String VALIDATOR_CONFIGURATION = "virt-api-validator";

    public static final String VMI_MUTATOR = "virtualmachineinstances-mutator.kubevirt.io";
    public static final String VM_MUTATOR = "virtualmachines-mutator.kubevirt.io";
    public static final String MIGRATION_MUTATOR = "migrations-mutator.kubevirt.io";
    public static final String VMI_CREATE_VALIDATOR = "virtualmachineinstances-create-validator.kubevirt.io";
    public static final String VMI_UPDATE_VALIDATOR = "virtualmachineinstances-update-validator.kubevirt.io";
    public static final String VM_VALIDATOR = "virtualmachine-validator.kubevirt.io";
    public static final String MIGRATION_CREATE_VALIDATOR = "migration-create-validator.kubevirt.io";

    private VirtApiWebhooks() {
    }
}
