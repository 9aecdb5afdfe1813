package dev.drainboard.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The control plane benchmark's scenario as one YAML file: nodes with room for a little more than their share of
 * VMIs, then the VMIs and VMs round-robin over the namespaces. Each node has 4 CPUs, 8 GiB and 32 pods; each VMI
 * asks for 100m and 256 MiB, so a node holds 32 by memory (the launcher pod's requests are the VMI's).
 */
final class ScaleScenario {

    static final String NAMESPACE_PREFIX = "scale-";

    private ScaleScenario() {
    }

    static Path write(ScaleSizes sizes, Path dir) throws IOException {
        StringBuilder y = new StringBuilder(1024 * (sizes.nodes() + sizes.totalVmis()));
        for (int n = 0; n < sizes.namespaces(); n++) {
            y.append("""
                    apiVersion: v1
                    kind: Namespace
                    metadata:
                      name: %s
                    ---
                    """.formatted(namespace(n)));
        }
        for (int i = 0; i < sizes.nodes(); i++) {
            String name = "node-%04d".formatted(i);
            y.append("""
                    apiVersion: v1
                    kind: Node
                    metadata:
                      name: %s
                      labels:
                        kubernetes.io/hostname: %s
                        topology.kubernetes.io/zone: zone-%d
                    spec: {}
                    status:
                      capacity: {cpu: "4", memory: 8Gi, pods: "32"}
                      allocatable: {cpu: "4", memory: 8Gi, pods: "32"}
                    ---
                    """.formatted(name, name, i % 3));
        }
        for (int i = 0; i < sizes.vmis(); i++) {
            y.append("""
                    apiVersion: kubevirt.io/v1
                    kind: VirtualMachineInstance
                    metadata:
                      name: vmi-%05d
                      namespace: %s
                      labels: {app: scale}
                    spec:
                      evictionStrategy: LiveMigrate
                    %s---
                    """.formatted(i, namespace(i % sizes.namespaces()), domain("  ")));
        }
        for (int i = 0; i < sizes.vms(); i++) {
            y.append("""
                    apiVersion: kubevirt.io/v1
                    kind: VirtualMachine
                    metadata:
                      name: vm-%05d
                      namespace: %s
                    spec:
                      runStrategy: Always
                      template:
                        metadata:
                          labels: {app: scale-vm}
                        spec:
                          evictionStrategy: LiveMigrate
                    %s---
                    """.formatted(i, namespace(i % sizes.namespaces()), domain("      ")));
        }
        Path file = dir.resolve("scale-scenario.yaml");
        Files.writeString(file, y);
        return file;
    }

    static String namespace(int n) {
        return NAMESPACE_PREFIX + n;
    }

    private static String domain(String indent) {
        return """
                domain:
                  memory: {guest: 256Mi}
                  resources:
                    requests: {cpu: 100m, memory: 256Mi}
                  devices:
                    interfaces: [{name: default, masquerade: {}}]
                    disks:
                    - name: rootdisk
                      disk: {bus: virtio}
                networks: [{name: default, pod: {}}]
                volumes:
                - name: rootdisk
                  containerDisk: {image: quay.io/containerdisks/fedora:40}
                """.indent(indent.length());
    }
}
