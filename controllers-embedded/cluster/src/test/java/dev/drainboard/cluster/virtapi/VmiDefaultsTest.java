package dev.drainboard.cluster.virtapi;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drainboard.cluster.apiserver.Json;

import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The VMI mutator's defaults, row by row: what {@code kubectl get vmi -o yaml} shows after a create. */
class VmiDefaultsTest {

    private static final String NOW = "2026-11-28T10:00:00Z";

    static ObjectNode vmi(String spec) {
        try {
            return (ObjectNode) Json.YAML.readTree("""
                    apiVersion: kubevirt.io/v1
                    kind: VirtualMachineInstance
                    metadata: {name: vm, namespace: default}
                    spec: %s
                    """.formatted(spec));
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }

    private static ObjectNode defaulted(String spec, VirtApiConfig config) {
        ObjectNode vmi = vmi(spec);
        assertThat(VmiDefaults.apply(vmi, config, "uuid-1", NOW)).isEmpty();
        return vmi;
    }

    private static String at(JsonNode node, String pointer) {
        JsonNode n = node.at(pointer);
        return n.isMissingNode() ? null : n.isValueNode() ? n.asText() : n.toString();
    }

    /** The pod network's interface: declared, defaulted by the CR's binding, or left out. */
    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(delimiter = '|', nullValues = "-", value = {
            "nothing declared, bridge by default | {domain: {devices: {}}}                                            | -          | [{\"name\":\"default\",\"bridge\":{}}]     | [{\"name\":\"default\",\"pod\":{}}]",
            "nothing declared, CR masquerade     | {domain: {devices: {}}}                                            | masquerade | [{\"name\":\"default\",\"masquerade\":{}}] | [{\"name\":\"default\",\"pod\":{}}]",
            "no devices at all                   | {domain: {}}                                                       | -          | [{\"name\":\"default\",\"bridge\":{}}]     | [{\"name\":\"default\",\"pod\":{}}]",
            "interfaces declared: left alone     | {domain: {devices: {interfaces: [{name: a, bridge: {}}]}}}         | masquerade | [{\"name\":\"a\",\"bridge\":{}}]           | -",
            "networks declared: left alone       | {networks: [{name: n, multus: {networkName: x}}], domain: {}}      | -          | -                                           | [{\"name\":\"n\",\"multus\":{\"networkName\":\"x\"}}]",
            "autoattach off: no network          | {domain: {devices: {autoattachPodInterface: false}}}               | -          | -                                           | -",
            "another binding: network only       | {domain: {devices: {}}}                                            | passt      | -                                           | [{\"name\":\"default\",\"pod\":{}}]",
    })
    void podInterface(String description, String spec, String binding, String interfaces, String networks) {
        VirtApiConfig config = binding == null ? VirtApiConfig.defaults()
                : new VirtApiConfig("None", binding, true, "LiveUpdate");
        ObjectNode vmi = defaulted(spec, config);
        assertThat(at(vmi, "/spec/domain/devices/interfaces")).isEqualTo(interfaces);
        assertThat(at(vmi, "/spec/networks")).isEqualTo(networks);
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(delimiter = '|', value = {
            "bridge not permitted on the pod network | bridge | false | bridge interface is not enabled in kubevirt-config",
            "slirp is gone                           | slirp  | true  | slirp interface is deprecated as of v1.3",
    })
    void refusedDefaultBinding(String description, String binding, boolean permitBridge, String error) {
        ObjectNode vmi = vmi("{domain: {devices: {}}}");
        assertThat(VmiDefaults.apply(vmi, new VirtApiConfig("None", binding, permitBridge, "LiveUpdate"), "u", NOW))
                .isEqualTo(Optional.of(error));
    }

    /** Guest memory and CPU topology, from requests and limits as pkg/defaults does. */
    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(delimiter = '|', nullValues = "-", value = {
            "guest from the memory request        | {requests: {memory: 2Gi}}                  | -                  | 2Gi | 1 | -",
            "guest from the memory limit          | {limits: {memory: 3Gi}}                    | -                  | 3Gi | 1 | -",
            "guest kept                           | {requests: {memory: 2Gi}}                  | {guest: 1Gi}       | 1Gi | 1 | -",
            "sockets from the CPU limit           | {limits: {cpu: 3, memory: 1Gi}}            | -                  | 1Gi | 3 | 3",
            "sockets from the CPU request, up     | {requests: {cpu: 1500m, memory: 1Gi}}      | -                  | 1Gi | 2 | 1500m",
    })
    void memoryAndCpu(String description, String resources, String memory, String guest, String sockets, String cpuRequest) {
        ObjectNode vmi = defaulted("{domain: {resources: %s%s}}".formatted(resources, memory == null ? "" : ", memory: " + memory),
                VirtApiConfig.defaults());
        assertThat(at(vmi, "/spec/domain/memory/guest")).isEqualTo(guest);
        assertThat(at(vmi, "/status/memory/guestAtBoot")).isEqualTo(guest);
        assertThat(at(vmi, "/spec/domain/cpu/sockets")).isEqualTo(sockets);
        assertThat(at(vmi, "/spec/domain/cpu/cores")).isEqualTo("1");
        assertThat(at(vmi, "/status/currentCPUTopology/sockets")).isEqualTo(sockets);
        assertThat(at(vmi, "/spec/domain/resources/requests/cpu")).isEqualTo(cpuRequest);
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(delimiter = '|', nullValues = "-", value = {
            "unset: the cluster's default  | {domain: {}}                                  | LiveMigrate | LiveMigrate",
            "unset, no CR: None            | {domain: {}}                                  | None        | None",
            "set: kept                     | {evictionStrategy: External, domain: {}}      | LiveMigrate | External",
    })
    void evictionStrategy(String description, String spec, String clusterDefault, String expected) {
        ObjectNode vmi = defaulted(spec, new VirtApiConfig(clusterDefault, "bridge", true, "LiveUpdate"));
        assertThat(at(vmi, "/spec/evictionStrategy")).isEqualTo(expected);
    }

    @Test
    void theRestAnOperatorSeesAfterCreate() {
        ObjectNode vmi = defaulted("""
                {domain: {resources: {requests: {memory: 1Gi}}, devices: {disks: [{name: root}, {name: cd, cdrom: {}}]}},
                 volumes: [{name: root, containerDisk: {image: quay.io/containerdisks/fedora:40}},
                           {name: cd, containerDisk: {image: quay.io/containerdisks/tools}},
                           {name: cloudinit, cloudInitNoCloud: {userData: x}}]}""", VirtApiConfig.defaults());

        assertThat(at(vmi, "/spec/architecture")).isEqualTo("amd64");
        assertThat(at(vmi, "/spec/domain/machine/type")).isEqualTo("q35");
        assertThat(at(vmi, "/spec/domain/cpu/model")).isEqualTo("host-model");
        assertThat(at(vmi, "/spec/domain/firmware/uuid")).isEqualTo("uuid-1");
        assertThat(at(vmi, "/spec/domain/features")).isEqualTo("{}");
        assertThat(at(vmi, "/spec/volumes/0/containerDisk/imagePullPolicy")).isEqualTo("IfNotPresent");
        assertThat(at(vmi, "/spec/volumes/1/containerDisk/imagePullPolicy")).isEqualTo("Always");
        assertThat(at(vmi, "/spec/domain/devices/disks")).isEqualTo(
                "[{\"name\":\"root\",\"disk\":{\"bus\":\"sata\"}},{\"name\":\"cd\",\"cdrom\":{\"readonly\":true,\"tray\":\"closed\",\"bus\":\"sata\"}},"
                        + "{\"name\":\"cloudinit\",\"disk\":{\"bus\":\"sata\"}}]");
        assertThat(at(vmi, "/metadata/finalizers")).isEqualTo("[\"kubevirt.io/foregroundDeleteVirtualMachine\"]");
        assertThat(at(vmi, "/status/phase")).isEqualTo("Pending");
        assertThat(at(vmi, "/status/phaseTransitionTimestamps")).isEqualTo(
                "[{\"phase\":\"Pending\",\"phaseTransitionTimestamp\":\"" + NOW + "\"}]");
        assertThat(at(vmi, "/status/runtimeUser")).isEqualTo("107");
    }

    @Test
    void aVmiWithAPhaseKeepsItsStatus() {
        ObjectNode vmi = vmi("{domain: {}}");
        vmi.putObject("status").put("phase", "Running");
        VmiDefaults.apply(vmi, VirtApiConfig.defaults(), "u", NOW);
        assertThat(vmi.path("status").toString()).isEqualTo("{\"phase\":\"Running\"}");
    }

    @Test
    void theKubeVirtCrsConfigurationOverTheDefaults() throws Exception {
        VirtApiConfig config = VirtApiConfig.from(Json.YAML.readTree("""
                spec:
                  configuration:
                    evictionStrategy: LiveMigrate
                    vmRolloutStrategy: Stage
                    network: {defaultNetworkInterface: masquerade, permitBridgeInterfaceOnPodNetwork: false}
                """));
        assertThat(config).isEqualTo(new VirtApiConfig("LiveMigrate", "masquerade", false, "Stage"));
        assertThat(VirtApiConfig.from(null)).isEqualTo(new VirtApiConfig("None", "bridge", true, "LiveUpdate"));
    }
}
