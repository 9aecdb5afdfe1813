package dev.drainboard.handler;

import dev.drainboard.kubevirt.KubeVirtConditions;
import dev.drainboard.kubevirt.KubeVirtMessages;
import dev.drainboard.kubevirt.api.Condition;
import dev.drainboard.kubevirt.api.DomainSpec;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.kubevirt.api.Volume;
import dev.drainboard.simulation.SimulationKnobs;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The {@code LiveMigratable} condition of a VMI, as virt-handler computes it, for the checks a simulated node can
 * make, in KubeVirt's order (the first failing check wins): PCI host devices and GPUs, then disks (every PVC,
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
        var spec = vmi.getSpec();
        DomainSpec.Devices devices = spec == null || spec.getDomain() == null ? null : spec.getDomain().getDevices();
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
