package dev.drainboard.kubevirt.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/** Objects read from a real cluster and written back lose nothing, and the modelled fields read as they should. */
class KubeVirtApiRoundTripTest {

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final ObjectMapper JSON = new ObjectMapper();

    static Stream<Arguments> fullObjects() {
        return Stream.of(
                arguments("vmi-full.yaml", VirtualMachineInstance.class),
                arguments("vm-full.yaml", VirtualMachine.class),
                arguments("vmim-full.yaml", VirtualMachineInstanceMigration.class),
                arguments("vmirs-full.yaml", VirtualMachineInstanceReplicaSet.class),
                arguments("kubevirt-full.yaml", KubeVirt.class));
    }

    @ParameterizedTest(name = "{0} survives fabric8 Serialization unchanged")
    @MethodSource("fullObjects")
    void staticSerializationKeepsEveryField(String file, Class<? extends HasMetadata> type) throws IOException {
        String yaml = resource(file);
        HasMetadata object = Serialization.unmarshal(yaml, type);
        String written = Serialization.asJson(object);
        assertThat(JSON.readTree(written)).isEqualTo(YAML.readTree(yaml));
    }

    @ParameterizedTest(name = "{0} survives the client's KubernetesSerialization unchanged")
    @MethodSource("fullObjects")
    void clientSerializationKeepsEveryField(String file, Class<? extends HasMetadata> type) throws IOException {
        // What informers and typed clients use.
        KubernetesSerialization serialization = new KubernetesSerialization();
        String yaml = resource(file);
        HasMetadata object = serialization.unmarshal(yaml, type);
        JsonNode written = JSON.readTree(serialization.asJson(object));
        assertThat(written).isEqualTo(YAML.readTree(yaml));
        // and a deep copy (as controllers make before changing a cached object) too
        assertThat(JSON.readTree(serialization.asJson(serialization.clone(object)))).isEqualTo(written);
    }

    @Test
    void vmiFieldsAreReadIntoTheModel() throws IOException {
        VirtualMachineInstance vmi = Serialization.unmarshal(resource("vmi-full.yaml"), VirtualMachineInstance.class);

        assertThat(vmi.getApiVersion()).isEqualTo("kubevirt.io/v1");
        assertThat(vmi.getKind()).isEqualTo("VirtualMachineInstance");
        assertThat(vmi.key()).isEqualTo("prod/db-01");
        VirtualMachineInstanceSpec spec = vmi.getSpec();
        assertThat(spec.getEvictionStrategy()).isEqualTo("LiveMigrate");
        assertThat(spec.getTerminationGracePeriodSeconds()).isEqualTo(180L);
        assertThat(spec.getDomain().getResources().getRequests())
                .containsEntry("cpu", new Quantity("4"))
                .containsEntry("memory", new Quantity("16Gi"));
        assertThat(spec.getDomain().getMemory().getGuest()).isEqualTo(new Quantity("16Gi"));
        assertThat(spec.getDomain().getCpu().getCores()).isEqualTo(4);
        assertThat(spec.getDomain().getDevices().getHostDevices()).isEmpty();
        assertThat(spec.getDomain().getDevices().getGpus()).isEmpty();
        assertThat(spec.getDomain().getDevices().getAdditionalProperties()).containsKeys("disks", "rng");
        assertThat(spec.getDomain().getDevices().getInterfaces()).first().satisfies(i -> {
            assertThat(i.getName()).isEqualTo("default");
            assertThat(i.getMasquerade()).isEmpty();
            assertThat(i.getBridge()).isNull();
            assertThat(i.getAdditionalProperties()).containsEntry("model", "virtio");
        });
        assertThat(spec.getDomain().getDevices().getInterfaces()).extracting(DomainSpec.Interface::getName)
                .containsExactly("default", "storage-net");
        assertThat(spec.getNetworks()).extracting(Network::getName).containsExactly("default", "storage-net");
        assertThat(spec.getNetworks().get(0).getPod()).isEmpty();
        assertThat(spec.getNetworks().get(1).getMultus()).isNotNull();
        assertThat(spec.getVolumes()).extracting(Volume::getName)
                .containsExactly("rootdisk", "data", "scratch", "cloudinitdisk");
        assertThat(spec.getVolumes().get(0).getDataVolume().getName()).isEqualTo("db-01-root");
        assertThat(spec.getVolumes().get(1).getPersistentVolumeClaim().getClaimName()).isEqualTo("db-01-data");
        assertThat(spec.getVolumes().get(2).getContainerDisk().getImage()).isEqualTo("quay.io/containerdisks/fedora:40");
        assertThat(spec.getVolumes().get(3).getAdditionalProperties()).containsKey("cloudInitNoCloud");
        assertThat(spec.getNodeSelector()).containsEntry("topology.kubernetes.io/zone", "eu-1a");
        assertThat(spec.getTolerations()).hasSize(2);
        assertThat(spec.getTolerations().get(1).getTolerationSeconds()).isEqualTo(300L);
        assertThat(spec.getAffinity().getPodAntiAffinity().getPreferredDuringSchedulingIgnoredDuringExecution()).hasSize(1);

        VirtualMachineInstanceStatus status = vmi.getStatus();
        assertThat(vmi.phase()).contains(VmiPhase.RUNNING);
        assertThat(vmi.isFinal()).isFalse();
        assertThat(vmi.isMarkedForEviction()).isTrue();
        assertThat(vmi.isMigratable()).isTrue();
        assertThat(status.getNodeName()).isEqualTo("worker-2");
        assertThat(status.getEvacuationNodeName()).isEqualTo("worker-2");
        assertThat(Conditions.find(status.getConditions(), "EvictionRequested"))
                .get().extracting(Condition::getMessage).isEqualTo("VMI is marked for eviction");
        MigrationState migration = status.getMigrationState();
        assertThat(migration.getMigrationUid()).isEqualTo("4c2e1d0a-9b8c-4f7e-a6d5-c4b3a2918070");
        assertThat(migration.getSourceNode()).isEqualTo("worker-2");
        assertThat(migration.getTargetNode()).isEqualTo("worker-3");
        assertThat(migration.getTargetPod()).isEqualTo("virt-launcher-db-01-q9w4m");
        assertThat(migration.getTargetNodeAddress()).isEqualTo("10.0.0.13");
        assertThat(migration.getStartTimestamp()).isEqualTo("2026-03-02T10:01:12Z");
        assertThat(migration.getEndTimestamp()).isNull();
        assertThat(migration.getCompleted()).isFalse();
        assertThat(migration.getMode()).isEqualTo("PreCopy");
        assertThat(migration.getAdditionalProperties()).containsKeys("targetCPUSet");
        assertThat(migration.getMigrationConfiguration().getCompletionTimeoutPerGiB()).isEqualTo(150);
        assertThat(migration.getMigrationConfiguration().getBandwidthPerMigration().toString()).isEqualTo("0");
        assertThat(migration.getMigrationConfiguration().getNodeDrainTaintKey()).isEqualTo("kubevirt.io/drain");
        assertThat(status.getPhaseTransitionTimestamps()).extracting(PhaseTransitionTimestamp::getPhase)
                .containsExactly("Pending", "Scheduling", "Scheduled", "Running");
        assertThat(status.getActivePods()).hasSize(2).containsValue("worker-3");
        assertThat(status.getLauncherContainerImageVersion()).endsWith("virt-launcher:v1.5.2");
        assertThat(status.getMigrationTransport()).isEqualTo("Unix");
        assertThat(status.getInterfaces().get(0).getIpAddress()).isEqualTo("10.244.2.17");
        assertThat(status.getQosClass()).isEqualTo("Burstable");
        assertThat(status.getAdditionalProperties()).containsKeys("guestOSInfo", "volumeStatus", "machine", "memory");
    }

    @Test
    void vmRunStrategyFollowsTheDeprecatedRunningFlagWhenUnset() throws IOException {
        VirtualMachine vm = Serialization.unmarshal(resource("vm-full.yaml"), VirtualMachine.class);
        assertThat(vm.runStrategy()).contains(RunStrategy.ALWAYS);
        assertThat(vm.getSpec().getTemplate().getSpec().getEvictionStrategy()).isEqualTo("LiveMigrate");
        assertThat(vm.getSpec().getTemplate().getMetadata().getLabels()).containsEntry("kubevirt.io/size", "large");
        assertThat(vm.getStatus().getPrintableStatus()).isEqualTo("Migrating");

        vm.getSpec().setRunStrategy(null);
        vm.getSpec().setRunning(true);
        assertThat(vm.runStrategy()).contains(RunStrategy.ALWAYS);
        vm.getSpec().setRunning(false);
        assertThat(vm.runStrategy()).contains(RunStrategy.HALTED);
        vm.getSpec().setRunning(null);
        assertThat(vm.runStrategy()).contains(RunStrategy.HALTED);
        vm.getSpec().setRunStrategy("RerunOnFailure");
        assertThat(vm.runStrategy()).contains(RunStrategy.RERUN_ON_FAILURE);
        vm.getSpec().setRunStrategy("WaitAsReceiver");
        assertThat(vm.runStrategy()).isEmpty();
    }

    @Test
    void migrationReplicaSetAndKubeVirtFieldsAreReadIntoTheModel() throws IOException {
        VirtualMachineInstanceMigration vmim = Serialization.unmarshal(resource("vmim-full.yaml"), VirtualMachineInstanceMigration.class);
        assertThat(vmim.getSpec().getVmiName()).isEqualTo("db-01");
        assertThat(vmim.getSpec().getPriority()).isEqualTo("system-critical");
        assertThat(vmim.getSpec().getAddedNodeSelector()).containsEntry("topology.kubernetes.io/zone", "eu-1a");
        assertThat(vmim.phase()).contains(MigrationPhase.RUNNING);
        assertThat(vmim.getStatus().getMigrationState().getTargetPod()).isEqualTo("virt-launcher-db-01-q9w4m");
        assertThat(vmim.getStatus().getAdditionalProperties()).containsKey("synchronizationAddresses");

        VirtualMachineInstanceReplicaSet rs = Serialization.unmarshal(resource("vmirs-full.yaml"), VirtualMachineInstanceReplicaSet.class);
        assertThat(rs.getSpec().getReplicas()).isEqualTo(3);
        assertThat(rs.getSpec().getPaused()).isFalse();
        assertThat(rs.getSpec().getSelector().getMatchLabels()).containsEntry("app", "web");
        assertThat(rs.getSpec().getTemplate().getMetadata().getLabels()).containsEntry("tier", "front");
        assertThat(rs.getStatus().getReadyReplicas()).isEqualTo(2);
        assertThat(rs.getStatus().getLabelSelector()).isEqualTo("app=web,tier in (front)");
        assertThat(rs.getStatus().getConditions().get(0).getReason()).isEqualTo("FailedCreate");

        KubeVirt kv = Serialization.unmarshal(resource("kubevirt-full.yaml"), KubeVirt.class);
        var migrations = kv.getSpec().getConfiguration().getMigrations();
        assertThat(migrations.getParallelMigrationsPerCluster()).isEqualTo(10L);
        assertThat(migrations.getBandwidthPerMigration()).isEqualTo(new Quantity("64Mi"));
        assertThat(migrations.getNetwork()).isEqualTo("migration-net");
        assertThat(kv.getSpec().getConfiguration().getDeveloperConfiguration().getFeatureGates())
                .containsExactly("LiveMigration", "NodePressureEvictionLiveMigration");
        assertThat(kv.getStatus().getPhase()).isEqualTo("Deployed");
    }

    @Test
    void newObjectsCarryTheirApiVersionAndKind() throws IOException {
        VirtualMachineInstanceMigration vmim = new VirtualMachineInstanceMigration();
        vmim.getMetadata().setGenerateName("kubevirt-evacuation-");
        vmim.setSpec(new VirtualMachineInstanceMigrationSpec("db-01"));

        JsonNode json = JSON.readTree(Serialization.asJson(vmim));

        assertThat(json).isEqualTo(JSON.readTree("""
                {"apiVersion":"kubevirt.io/v1","kind":"VirtualMachineInstanceMigration",
                 "metadata":{"generateName":"kubevirt-evacuation-"},"spec":{"vmiName":"db-01"}}
                """));
    }

    @Test
    void aConditionWritesBothTimesAsKubeVirtDoes() throws IOException {
        Condition condition = new Condition("EvictionRequested", "True", "EvictionRequested", "VMI is marked for eviction");
        assertThat(JSON.readTree(Serialization.asJson(condition))).isEqualTo(JSON.readTree("""
                {"type":"EvictionRequested","status":"True","reason":"EvictionRequested",
                 "message":"VMI is marked for eviction","lastTransitionTime":null,"lastProbeTime":null}
                """));
    }

    private static String resource(String name) throws IOException {
        try (InputStream in = KubeVirtApiRoundTripTest.class.getResourceAsStream(name)) {
            assertThat(in).as(name).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
