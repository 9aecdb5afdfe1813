package dev.drainboard.handler;

import dev.drainboard.kubevirt.KubeVirtAnnotations;
import dev.drainboard.kubevirt.KubeVirtConditions;
import dev.drainboard.kubevirt.KubeVirtMessages;
import dev.drainboard.kubevirt.api.Condition;
import dev.drainboard.kubevirt.api.DomainSpec;
import dev.drainboard.kubevirt.api.Network;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.kubevirt.api.Volume;
import dev.drainboard.simulation.SimulationKnobs;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The {@code LiveMigratable} condition of a VMI, as virt-handler computes it, for the checks a simulated node can
 * make, in KubeVirt's order (the first failing check wins, {@code calculateLiveMigrationCondition} in
 * pkg/virt-handler/vm.go): the pod network's interface ({@code VerifyVMIMigratable} in
 * pkg/network/vmispec/interface.go: masquerade and passt migrate, bridge only with the VMI annotation
 * {@code kubevirt.io/allow-pod-bridge-network-live-migration}, a binding plugin only if the KubeVirt CR gives it a
 * {@code migration} method, SR-IOV never), then PCI host devices and GPUs, then disks (every PVC,
 * direct or behind a DataVolume, must be ReadWriteMany; a host disk must be shared), then Drainboard's own
 * {@code sim.drainboard.dev/live-migratable: "false"}, which stands for any other reason a real node might find.
 */
public final class LiveMigratability {

    public static final String READ_WRITE_MANY = "ReadWriteMany";

    private LiveMigratability() {
    }

    /**
     * @param claimAccessModes the access modes of the PVCs in the VMI's namespace, by claim name; a claim missing
     *                         here is unknown, which KubeVirt also treats as not shared
     * @return the condition, without timestamps
     */
    public static Condition evaluate(VirtualMachineInstance vmi, Map<String, List<String>> claimAccessModes) {
        return evaluate(vmi, claimAccessModes, Set.of());
    }

    /**
     * @param migratableBindings the network binding plugins the KubeVirt CR declares with a {@code migration} method
     *                           ({@code spec.configuration.network.binding.<name>.migration})
     */
    public static Condition evaluate(VirtualMachineInstance vmi, Map<String, List<String>> claimAccessModes,
                                     Set<String> migratableBindings) {
        var spec = vmi.getSpec();
        DomainSpec.Devices devices = spec == null || spec.getDomain() == null ? null : spec.getDomain().getDevices();
        Optional<String> network = interfaceProblem(vmi, devices, migratableBindings);
        if (network.isPresent()) {
            return notMigratable(KubeVirtConditions.REASON_INTERFACE_NOT_LIVE_MIGRATABLE, network.get());
        }
        if (devices != null && devices.getHostDevices() != null && !devices.getHostDevices().isEmpty()) {
            return notMigratable(KubeVirtConditions.REASON_HOST_DEVICE_NOT_LIVE_MIGRATABLE, KubeVirtMessages.NON_MIGRATABLE_HOST_DEVICE);
        }
        if (devices != null && devices.getGpus() != null && !devices.getGpus().isEmpty()) {
            return notMigratable(KubeVirtConditions.REASON_HOST_DEVICE_NOT_LIVE_MIGRATABLE, KubeVirtMessages.TOO_MANY_GPUS);
        }
        Optional<String> disks = diskProblem(spec == null ? null : spec.getVolumes(), claimAccessModes);
        if (disks.isPresent()) {
            return notMigratable(KubeVirtConditions.REASON_DISKS_NOT_LIVE_MIGRATABLE, disks.get());
        }
        Map<String, String> annotations = vmi.getMetadata() == null ? null : vmi.getMetadata().getAnnotations();
        if (annotations != null && "false".equalsIgnoreCase(annotations.get(SimulationKnobs.LIVE_MIGRATABLE))) {
            return notMigratable(KubeVirtConditions.REASON_NOT_MIGRATABLE, SimulationKnobs.NOT_LIVE_MIGRATABLE_MESSAGE);
        }
        return new Condition(KubeVirtConditions.LIVE_MIGRATABLE, KubeVirtConditions.STATUS_TRUE, null, null);
    }

    /** Only the interface of the pod network counts; secondary (multus) networks, SR-IOV among them, do not. */
    private static Optional<String> interfaceProblem(VirtualMachineInstance vmi, DomainSpec.Devices devices,
                                                     Set<String> migratableBindings) {
        List<DomainSpec.Interface> interfaces = devices == null ? null : devices.getInterfaces();
        List<Network> networks = vmi.getSpec().getNetworks();
        if (interfaces == null || interfaces.isEmpty() || networks == null) {
            return Optional.empty();
        }
        Network pod = networks.stream().filter(n -> n.getPod() != null).findFirst().orElse(null);
        if (pod == null) {
            return Optional.empty();
        }
        DomainSpec.Interface primary = interfaces.stream()
                .filter(i -> pod.getName() != null && pod.getName().equals(i.getName())).findFirst().orElse(null);
        if (primary == null) {
            return Optional.of(KubeVirtMessages.NO_PRIMARY_INTERFACE.formatted(pod.getName()));
        }
        if (primary.getMasquerade() != null || primary.getPasstBinding() != null) {
            return Optional.empty();
        }
        if (primary.getBridge() != null) {
            Map<String, String> annotations = vmi.getMetadata() == null ? null : vmi.getMetadata().getAnnotations();
            if (annotations != null && annotations.containsKey(KubeVirtAnnotations.ALLOW_POD_BRIDGE_NETWORK_LIVE_MIGRATION)) {
                return Optional.empty();
            }
        } else if (primary.getBinding() != null && migratableBindings.contains(String.valueOf(primary.getBinding().get("name")))) {
            return Optional.empty();
        }
        return Optional.of(KubeVirtMessages.INTERFACE_NOT_MIGRATABLE);
    }

    private static Optional<String> diskProblem(List<Volume> volumes, Map<String, List<String>> claimAccessModes) {
        if (volumes == null) {
            return Optional.empty();
        }
        for (Volume v : volumes) {
            String claim = null;
            if (v.getPersistentVolumeClaim() != null) {
                claim = v.getPersistentVolumeClaim().getClaimName();
            } else if (v.getDataVolume() != null) {
                claim = v.getDataVolume().getName();
            }
            if (claim != null) {
                List<String> modes = claimAccessModes.get(claim);
                if (modes == null) {
                    return Optional.of(KubeVirtMessages.PVC_SHARING_UNKNOWN.formatted(claim));
                }
                if (!modes.contains(READ_WRITE_MANY)) {
                    return Optional.of(KubeVirtMessages.PVC_NOT_SHARED.formatted(claim));
                }
            }
            if (v.getHostDisk() != null && !Boolean.TRUE.equals(v.getHostDisk().getShared())) {
                return Optional.of(KubeVirtMessages.NON_SHARED_HOST_DISK);
            }
        }
        return Optional.empty();
    }

    private static Condition notMigratable(String reason, String message) {
        return new Condition(KubeVirtConditions.LIVE_MIGRATABLE, KubeVirtConditions.STATUS_FALSE, reason, message);
    }
}
