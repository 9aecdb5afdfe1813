package dev.drainboard.kubevirt.api;

/**
 * {@code spec} of a preference ({@code instancetype.kubevirt.io/v1beta1}): defaults such as
 * {@code cpu.preferredCPUTopology}, {@code machine.preferredMachineType},
 * {@code preferredTerminationGracePeriodSeconds}, {@code annotations}. Kept as a tree, applied as KubeVirt's
 * {@code pkg/instancetype/preference/apply} does.
 */
public class VirtualMachinePreferenceSpec extends ExtensibleObject {
}
