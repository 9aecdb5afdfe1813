package dev.drainboard.kubevirt.config;

import dev.drainboard.kubevirt.KubeVirtProfile;
import dev.drainboard.kubevirt.api.EvictionStrategy;
import dev.drainboard.kubevirt.api.KubeVirt;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.params.provider.Arguments.arguments;

class ClusterConfigTest {

    private static final MigrationConfig DEFAULT_MIGRATIONS = MigrationConfig.defaults();

    static Stream<Arguments> configurations() {
        return Stream.of(
                arguments("a CR missing every field", "{}",
                        EvictionStrategy.NONE, DEFAULT_MIGRATIONS, Set.of()),
                arguments("an empty configuration", "{'spec':{'configuration':{}}}",
                        EvictionStrategy.NONE, DEFAULT_MIGRATIONS, Set.of()),
                arguments("an empty migrations block", "{'spec':{'configuration':{'migrations':{},'developerConfiguration':{}}}}",
                        EvictionStrategy.NONE, DEFAULT_MIGRATIONS, Set.of()),
                arguments("cluster eviction strategy", "{'spec':{'configuration':{'evictionStrategy':'LiveMigrate'}}}",
                        EvictionStrategy.LIVE_MIGRATE, DEFAULT_MIGRATIONS, Set.of()),
                arguments("External", "{'spec':{'configuration':{'evictionStrategy':'External'}}}",
                        EvictionStrategy.EXTERNAL, DEFAULT_MIGRATIONS, Set.of()),
                arguments("parallel limits only: the rest keeps its defaults",
                        "{'spec':{'configuration':{'migrations':{'parallelMigrationsPerCluster':10,'parallelOutboundMigrationsPerNode':1}}}}",
                        EvictionStrategy.NONE,
                        new MigrationConfig(10, 1, "kubevirt.io/drain", new Quantity("0Mi"), 150, 150,
                                false, false, false, false, 900, 150),
                        Set.of()),
                arguments("every migration field",
                        """
                        {'spec':{'configuration':{'evictionStrategy':'LiveMigrateIfPossible','migrations':{
                          'parallelMigrationsPerCluster':3,'parallelOutboundMigrationsPerNode':4,
                          'nodeDrainTaintKey':'example.com/drain','bandwidthPerMigration':'64Mi',
                          'completionTimeoutPerGiB':800,'progressTimeout':300,'allowPostCopy':true,
                          'allowAutoConverge':true,'allowWorkloadDisruption':false,'unsafeMigrationOverride':true,
                          'maxDowntimeMs':300,'utilityVolumesTimeout':60}}}}
                        """,
                        EvictionStrategy.LIVE_MIGRATE_IF_POSSIBLE,
                        new MigrationConfig(3, 4, "example.com/drain", new Quantity("64Mi"), 800, 300,
                                true, true, false, true, 300, 60),
                        Set.of()),
                arguments("allowWorkloadDisruption follows allowPostCopy when unset",
                        "{'spec':{'configuration':{'migrations':{'allowPostCopy':true}}}}",
                        EvictionStrategy.NONE,
                        new MigrationConfig(5, 2, "kubevirt.io/drain", new Quantity("0Mi"), 150, 150,
                                true, false, true, false, 900, 150),
                        Set.of()),
                arguments("an empty drain taint key keeps the default",
                        "{'spec':{'configuration':{'migrations':{'nodeDrainTaintKey':''}}}}",
                        EvictionStrategy.NONE, DEFAULT_MIGRATIONS, Set.of()),
                arguments("feature gates",
                        "{'spec':{'configuration':{'developerConfiguration':{'featureGates':['NodePressureEvictionLiveMigration','Snapshot']}}}}",
                        EvictionStrategy.NONE, DEFAULT_MIGRATIONS, Set.of("NodePressureEvictionLiveMigration", "Snapshot")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("configurations")
    void configurationIsTheCrOverKubeVirtsDefaults(String description, String cr, EvictionStrategy evictionStrategy,
                                                   MigrationConfig migrations, Set<String> featureGates) throws Exception {
        ClusterConfig config = ClusterConfig.from(kubeVirt("kubevirt", "kubevirt", cr));

        assertThat(config.evictionStrategy()).isEqualTo(evictionStrategy);
        assertThat(config.migrations()).isEqualTo(migrations);
        assertThat(config.featureGates()).isEqualTo(featureGates);
        assertThat(config.source()).contains("kubevirt/kubevirt");
    }

    @Test
    void defaultsAreKubeVirtsDefaults() {
        ClusterConfig config = ClusterConfig.defaults();
        assertThat(config.evictionStrategy()).isEqualTo(EvictionStrategy.NONE);
        MigrationConfig m = config.migrations();
        assertThat(m.parallelMigrationsPerCluster()).isEqualTo(5);
        assertThat(m.parallelOutboundMigrationsPerNode()).isEqualTo(2);
        assertThat(m.nodeDrainTaintKey()).isEqualTo("kubevirt.io/drain");
        assertThat(m.bandwidthBytesPerSecond()).isZero();
        assertThat(m.bandwidthLimited()).isFalse();
        assertThat(m.completionTimeoutPerGiB()).isEqualTo(150);
        assertThat(m.progressTimeout()).isEqualTo(150);
        assertThat(m.allowPostCopy()).isFalse();
        assertThat(m.allowAutoConverge()).isFalse();
        assertThat(config.featureGates()).isEmpty();
        assertThat(config.source()).isEmpty();
    }

    @Test
    void bandwidthIsBytesPerSecond() throws Exception {
        MigrationConfig m = ClusterConfig.from(kubeVirt("kubevirt", "kv",
                "{'spec':{'configuration':{'migrations':{'bandwidthPerMigration':'64Mi'}}}}")).migrations();
        assertThat(m.bandwidthBytesPerSecond()).isEqualTo(64L * 1024 * 1024);
        assertThat(m.bandwidthLimited()).isTrue();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            no status                     | {'spec':{}}                                                      | SEEDS
            a version of the seeds' time  | {'spec':{},'status':{'observedKubeVirtVersion':'v1.4.0'}}         | SEEDS
            v1.6                          | {'spec':{},'status':{'observedKubeVirtVersion':'v1.6.3'}}         | V1_6
            v1.9, with a configuration    | {'spec':{'configuration':{}},'status':{'observedKubeVirtVersion':'v1.9.0'}} | V1_9
            a version that is not one     | {'spec':{},'status':{'observedKubeVirtVersion':'devel'}}          | SEEDS
            """)
    void theProfileIsTheVersionTheCrReportsRunning(String description, String cr, KubeVirtProfile expected) throws Exception {
        ClusterConfig config = ClusterConfig.from(kubeVirt("kubevirt", "kubevirt", cr));
        assertThat(config.profile()).isEqualTo(expected);
        assertThat(config.withProfile(KubeVirtProfile.V1_5).profile()).isEqualTo(KubeVirtProfile.V1_5);
        assertThat(ClusterConfig.defaults().profile()).isEqualTo(KubeVirtProfile.SEEDS);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            unknown eviction strategy   | {'spec':{'configuration':{'evictionStrategy':'Migrate'}}}                                  | unrecognized option: Migrate
            zero parallel migrations    | {'spec':{'configuration':{'migrations':{'parallelMigrationsPerCluster':0}}}}             | parallelMigrationsPerCluster must be at least 1
            negative outbound per node  | {'spec':{'configuration':{'migrations':{'parallelOutboundMigrationsPerNode':-1}}}}        | parallelOutboundMigrationsPerNode must be at least 1
            bandwidth not a quantity    | {'spec':{'configuration':{'migrations':{'bandwidthPerMigration':'fast'}}}}                | bandwidthPerMigration is not a quantity
            max downtime out of range   | {'spec':{'configuration':{'migrations':{'maxDowntimeMs':2000001}}}}                       | maxDowntimeMs must be between 1 and 2000000
            """)
    void aConfigurationKubeVirtWouldRefuseIsInvalid(String description, String cr, String message) {
        assertThatThrownBy(() -> ClusterConfig.from(kubeVirt("kubevirt", "kubevirt", cr)))
                .isInstanceOf(InvalidClusterConfigException.class)
                .hasMessageContaining(message);
    }

    static Stream<Arguments> selections() {
        KubeVirt installed = withPhase(kubeVirt("kubevirt", "kubevirt", "{}", "2026-01-01T00:00:00Z"), "Deployed");
        KubeVirt older = kubeVirt("kubevirt", "aaa-older", "{}", "2025-01-01T00:00:00Z");
        KubeVirt newer = kubeVirt("kubevirt", "bbb-newer", "{}", "2026-06-01T00:00:00Z");
        KubeVirt elsewhere = withPhase(kubeVirt("other", "kubevirt", "{}", "2024-01-01T00:00:00Z"), "Deployed");
        KubeVirt elsewhereToo = kubeVirt("another", "kubevirt", "{}", "2024-01-01T00:00:00Z");
        KubeVirt deleting = kubeVirt("kubevirt", "deleting", "{}", "2020-01-01T00:00:00Z");
        deleting.getMetadata().setDeletionTimestamp("2026-07-01T00:00:00Z");
        return Stream.of(
                arguments("none", List.of(), Optional.empty()),
                arguments("only one, in another namespace", List.of(elsewhere), Optional.of(elsewhere)),
                arguments("the one in the install namespace wins over older ones elsewhere",
                        List.of(elsewhere, installed), Optional.of(installed)),
                arguments("in the install namespace, a deployed one (status.phase) wins over older undeployed ones",
                        List.of(older, newer, installed), Optional.of(installed)),
                arguments("in the install namespace, without phases, the oldest wins",
                        List.of(newer, older), Optional.of(older)),
                arguments("one being deleted is ignored", List.of(deleting, newer), Optional.of(newer)),
                arguments("only one, being deleted: none", List.of(deleting), Optional.empty()),
                arguments("elsewhere only: a deployed one wins", List.of(elsewhereToo, elsewhere), Optional.of(elsewhere)),
                arguments("elsewhere only, same age, no phase: by namespace name",
                        List.of(elsewhereToo, kubeVirt("other", "kubevirt", "{}", "2024-01-01T00:00:00Z")),
                        Optional.of(elsewhereToo)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("selections")
    void moreThanOneKubeVirtCr(String description, List<KubeVirt> crs, Optional<KubeVirt> expected) {
        assertThat(ClusterConfig.select(crs, "kubevirt")).isEqualTo(expected);
    }

    @ParameterizedTest(name = "VMI {0}, cluster {1} → {2}")
    @CsvSource(nullValues = "unset", textBlock = """
            unset,                 None,          None
            unset,                 LiveMigrate,   LiveMigrate
            None,                  LiveMigrate,   None
            LiveMigrateIfPossible, None,          LiveMigrateIfPossible
            External,              LiveMigrate,   External
            Sideways,              LiveMigrate,   None
            """)
    void aVmisOwnStrategyWinsOverTheClusterDefault(String vmiValue, String clusterValue, String expected) throws Exception {
        ClusterConfig config = ClusterConfig.from(kubeVirt("kubevirt", "kubevirt",
                "{'spec':{'configuration':{'evictionStrategy':'" + clusterValue + "'}}}"));
        VirtualMachineInstance vmi = Serialization.unmarshal(
                "{\"apiVersion\":\"kubevirt.io/v1\",\"kind\":\"VirtualMachineInstance\",\"metadata\":{\"name\":\"v\"},\"spec\":{}}",
                VirtualMachineInstance.class);
        vmi.getSpec().setEvictionStrategy(vmiValue);

        assertThat(config.evictionStrategyFor(vmi).value()).isEqualTo(expected);
    }

    private static KubeVirt kubeVirt(String namespace, String name, String body) {
        return kubeVirt(namespace, name, body, null);
    }

    private static KubeVirt kubeVirt(String namespace, String name, String body, String created) {
        KubeVirt kv = Serialization.unmarshal(body.replace('\'', '"'), KubeVirt.class);
        kv.getMetadata().setNamespace(namespace);
        kv.getMetadata().setName(name);
        kv.getMetadata().setCreationTimestamp(created);
        return kv;
    }

    private static KubeVirt withPhase(KubeVirt kv, String phase) {
        var status = new dev.drainboard.kubevirt.api.KubeVirtStatus();
        status.setPhase(phase);
        kv.setStatus(status);
        return kv;
    }

    @ParameterizedTest(name = "{0}, gate {1}: queue {2}, priority field {3}")
    @CsvSource({
            "SEEDS, false, false, false",
            "SEEDS, true,  false, false",
            "V1_6,  true,  false, false",
            "V1_7,  false, false, true",
            "V1_7,  true,  true,  true",
            "V1_9,  false, true,  true",
            "V1_9,  true,  true,  true",
    })
    void migrationPriorityQueueIsTheProfileAndTheGate(KubeVirtProfile profile, boolean gate, boolean queue, boolean field) {
        ClusterConfig config = new ClusterConfig(EvictionStrategy.NONE, MigrationConfig.defaults(),
                gate ? Set.of("MigrationPriorityQueue") : Set.of(), Optional.empty()).withProfile(profile);
        assertThat(config.migrationPriorityQueue()).isEqualTo(queue);
        assertThat(config.migrationPriorityField()).isEqualTo(field);
    }
}
