package dev.drainboard.handler;

import static org.assertj.core.api.Assertions.assertThat;

import dev.drainboard.kubevirt.api.Condition;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;
import java.util.Map;

/** LiveMigratable, one row per VMI shape: status, reason and message. */
class LiveMigratabilityTest {

    /** Claims in the VMI's namespace: a shared one, a node-local one. */
    private static final Map<String, List<String>> CLAIMS = Map.of(
            "shared", List.of("ReadWriteMany"),
            "local", List.of("ReadWriteOnce"),
            "both", List.of("ReadWriteOnce", "ReadWriteMany"),
            "readonly", List.of("ReadOnlyMany"));

    static VirtualMachineInstance vmi(String annotations, String devices, String volumes) {
        return Serialization.unmarshal("""
                apiVersion: kubevirt.io/v1
                kind: VirtualMachineInstance
                metadata: {name: vm, namespace: default, annotations: %s}
                spec:
                  domain:
                    devices: %s
                  volumes: %s
                """.formatted(annotations, devices, volumes), VirtualMachineInstance.class);
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(delimiter = '|', nullValues = "-", value = {
            "containerDisk only           | {} | {} | [{name: root, containerDisk: {image: fedora}}] | True | - | -",
            "no volumes at all            | {} | {} | [] | True | - | -",
            "RWX PVC                      | {} | {} | [{name: d, persistentVolumeClaim: {claimName: shared}}] | True | - | -",
            "RWO PVC                      | {} | {} | [{name: d, persistentVolumeClaim: {claimName: local}}] | False | DisksNotLiveMigratable | cannot migrate VMI: PVC local is not shared, live migration requires that all PVCs must be shared (using ReadWriteMany access mode)",
            "RWO and RWX modes            | {} | {} | [{name: d, persistentVolumeClaim: {claimName: both}}] | True | - | -",
            "ROX PVC                      | {} | {} | [{name: d, persistentVolumeClaim: {claimName: readonly}}] | False | DisksNotLiveMigratable | cannot migrate VMI: PVC readonly is not shared, live migration requires that all PVCs must be shared (using ReadWriteMany access mode)",
            "unknown PVC                  | {} | {} | [{name: d, persistentVolumeClaim: {claimName: ghost}}] | False | DisksNotLiveMigratable | cannot migrate VMI: Unable to determine if PVC ghost is shared, live migration requires that all PVCs must be shared (using ReadWriteMany access mode)",
            "DataVolume on an RWO claim   | {} | {} | [{name: d, dataVolume: {name: local}}] | False | DisksNotLiveMigratable | cannot migrate VMI: PVC local is not shared, live migration requires that all PVCs must be shared (using ReadWriteMany access mode)",
            "DataVolume on an RWX claim   | {} | {} | [{name: d, dataVolume: {name: shared}}] | True | - | -",
            "second volume is the problem | {} | {} | [{name: a, persistentVolumeClaim: {claimName: shared}}, {name: b, persistentVolumeClaim: {claimName: local}}] | False | DisksNotLiveMigratable | cannot migrate VMI: PVC local is not shared, live migration requires that all PVCs must be shared (using ReadWriteMany access mode)",
            "non-shared host disk         | {} | {} | [{name: h, hostDisk: {path: /d.img, type: Disk}}] | False | DisksNotLiveMigratable | cannot migrate VMI with non-shared HostDisk",
            "shared host disk             | {} | {} | [{name: h, hostDisk: {path: /d.img, type: Disk, shared: true}}] | True | - | -",
            "host device                  | {} | {hostDevices: [{name: nic, deviceName: vendor.com/nic}]} | [] | False | HostDeviceNotLiveMigratable | VMI specifies non-migratable generic PCI host device",
            "GPU                          | {} | {gpus: [{name: gpu, deviceName: nvidia.com/A100}]} | [] | False | HostDeviceNotLiveMigratable | VMI specifies too many GPUs",
            "host device wins over disks  | {} | {hostDevices: [{name: nic, deviceName: x}]} | [{name: d, persistentVolumeClaim: {claimName: local}}] | False | HostDeviceNotLiveMigratable | VMI specifies non-migratable generic PCI host device",
            "empty device lists           | {} | {hostDevices: [], gpus: []} | [] | True | - | -",
            "annotation false             | {sim.drainboard.dev/live-migratable: \"false\"} | {} | [] | False | NotMigratable | VMI is marked not live-migratable by the annotation sim.drainboard.dev/live-migratable",
            "annotation true              | {sim.drainboard.dev/live-migratable: \"true\"} | {} | [] | True | - | -",
            "real reasons before the knob | {sim.drainboard.dev/live-migratable: \"false\"} | {} | [{name: d, persistentVolumeClaim: {claimName: local}}] | False | DisksNotLiveMigratable | cannot migrate VMI: PVC local is not shared, live migration requires that all PVCs must be shared (using ReadWriteMany access mode)",
    })
    void condition(String description, String annotations, String devices, String volumes,
                   String status, String reason, String message) {
        Condition c = LiveMigratability.evaluate(vmi(annotations, devices, volumes), CLAIMS);

        assertThat(c.getType()).isEqualTo("LiveMigratable");
        assertThat(c.getStatus()).isEqualTo(status);
        assertThat(c.getReason()).isEqualTo(reason);
        assertThat(c.getMessage()).isEqualTo(message);
    }

    static VirtualMachineInstance vmiWithNetworks(String annotations, String interfaces, String networks, String volumes) {
        return Serialization.unmarshal("""
                apiVersion: kubevirt.io/v1
                kind: VirtualMachineInstance
                metadata: {name: vm, namespace: default, annotations: %s}
                spec:
                  domain:
                    devices: {interfaces: %s}
                  networks: %s
                  volumes: %s
                """.formatted(annotations, interfaces, networks, volumes), VirtualMachineInstance.class);
    }

    private static final String BRIDGE_POD = "[{name: default, bridge: {}}] | [{name: default, pod: {}}]";
    private static final String NOT_MIGRATABLE = "cannot migrate VMI which does not use masquerade or a migratable plugin to connect to the pod network";

    /** The interface check ({@code VerifyVMIMigratable}), first of virt-handler's checks. */
    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(delimiter = '|', nullValues = "-", value = {
            "masquerade on the pod network  | {} | [{name: default, masquerade: {}}] | [{name: default, pod: {}}] | [] | True | - | -",
            "passt binding                  | {} | [{name: default, passtBinding: {}}] | [{name: default, pod: {}}] | [] | True | - | -",
            "bridge on the pod network      | {} | " + BRIDGE_POD + " | [] | False | InterfaceNotLiveMigratable | " + NOT_MIGRATABLE,
            "bridge allowed by annotation   | {kubevirt.io/allow-pod-bridge-network-live-migration: \"\"} | " + BRIDGE_POD + " | [] | True | - | -",
            "sriov on the pod network       | {} | [{name: default, sriov: {}}] | [{name: default, pod: {}}] | [] | False | InterfaceNotLiveMigratable | " + NOT_MIGRATABLE,
            "plugin without migration       | {} | [{name: default, binding: {name: other}}] | [{name: default, pod: {}}] | [] | False | InterfaceNotLiveMigratable | " + NOT_MIGRATABLE,
            "plugin with migration          | {} | [{name: default, binding: {name: mig}}] | [{name: default, pod: {}}] | [] | True | - | -",
            "sriov on a secondary network   | {} | [{name: default, masquerade: {}}, {name: fast, sriov: {}}] | [{name: default, pod: {}}, {name: fast, multus: {networkName: sriov-net}}] | [] | True | - | -",
            "bridge on a secondary network  | {} | [{name: br, bridge: {}}] | [{name: br, multus: {networkName: br-net}}] | [] | True | - | -",
            "pod network without interface  | {} | [{name: other, masquerade: {}}] | [{name: default, pod: {}}, {name: other, multus: {networkName: x}}] | [] | False | InterfaceNotLiveMigratable | no primary interface found for network default",
            "no interfaces at all           | {} | [] | [] | [] | True | - | -",
            "interface wins over disks      | {} | " + BRIDGE_POD + " | [{name: d, persistentVolumeClaim: {claimName: local}}] | False | InterfaceNotLiveMigratable | " + NOT_MIGRATABLE,
            "masquerade, then disks checked | {} | [{name: default, masquerade: {}}] | [{name: default, pod: {}}] | [{name: d, persistentVolumeClaim: {claimName: local}}] | False | DisksNotLiveMigratable | cannot migrate VMI: PVC local is not shared, live migration requires that all PVCs must be shared (using ReadWriteMany access mode)",
    })
    void interfaces(String description, String annotations, String interfaces, String networks, String volumes,
                    String status, String reason, String message) {
        Condition c = LiveMigratability.evaluate(vmiWithNetworks(annotations, interfaces, networks, volumes), CLAIMS, java.util.Set.of("mig"));

        assertThat(c.getStatus()).isEqualTo(status);
        assertThat(c.getReason()).isEqualTo(reason);
        assertThat(c.getMessage()).isEqualTo(message);
    }
}
