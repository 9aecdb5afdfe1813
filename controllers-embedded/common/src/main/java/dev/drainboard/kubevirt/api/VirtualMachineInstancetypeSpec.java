package dev.drainboard.kubevirt.api;

/**
 * {@code spec} of an instance type ({@code instancetype.kubevirt.io/v1beta1}): {@code cpu} ({@code guest},
 * {@code model}, {@code dedicatedCPUPlacement}, …), {@code memory} ({@code guest}, {@code overcommitPercent}, …),
 * {@code nodeSelector}, {@code schedulerName}, {@code annotations}. Kept as a tree: the VM controller applies it to
 * the VMI's spec as JSON, field by field, as KubeVirt's {@code pkg/instancetype/apply} does.
 */
public class VirtualMachineInstancetypeSpec extends ExtensibleObject {
}
