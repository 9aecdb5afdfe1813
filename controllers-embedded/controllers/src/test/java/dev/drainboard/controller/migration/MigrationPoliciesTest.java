package dev.drainboard.controller.migration;

import dev.drainboard.handler.MigrationSync;
import dev.drainboard.kubevirt.api.KubeVirtSpec;
import dev.drainboard.kubevirt.api.MigrationPolicy;
import dev.drainboard.kubevirt.api.MigrationPolicySpec;
import dev.drainboard.kubevirt.api.MigrationState;
import dev.drainboard.kubevirt.config.MigrationConfig;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class MigrationPoliciesTest {

    /** "k=v,k2=v2" → map; "-" → no selector (null); "" → empty selector. */
    private static Map<String, String> labels(String text) {
        if (text == null || text.equals("-")) {
            return null;
        }
        Map<String, String> map = new LinkedHashMap<>();
        for (String pair : text.split(",")) {
            if (!pair.isBlank()) {
                String[] kv = pair.split("=");
                map.put(kv[0].trim(), kv[1].trim());
            }
        }
        return map;
    }

    private static MigrationPolicy policy(String name, String vmiSelector, String nsSelector) {
        MigrationPolicy p = new MigrationPolicy();
        p.setMetadata(new ObjectMetaBuilder().withName(name).build());
        MigrationPolicySpec spec = new MigrationPolicySpec();
        MigrationPolicySpec.Selectors selectors = new MigrationPolicySpec.Selectors();
        selectors.setVirtualMachineInstanceSelector(labels(vmiSelector));
        selectors.setNamespaceSelector(labels(nsSelector));
        spec.setSelectors(selectors);
        p.setSpec(spec);
        return p;
    }

    /**
     * Policies "name:vmiSelector:nsSelector" separated by ';' (KubeVirt's migrationpolicy_test.go cases in spirit):
     * the VMI's labels, the namespace's, and which policy wins.
     */
    @ParameterizedTest
    @CsvSource(delimiter = '|', nullValues = "null", value = {
            // no policy, or one whose selectors say nothing about this VMI
            "''                                           | app=web       | team=a | null",
            "p:app=db:-                                   | app=web       | team=a | null",
            // a matching VMI selector, a matching namespace selector
            "p:app=web:-                                  | app=web       | team=a | p",
            "p:-:team=a                                   | app=web       | team=a | p",
            "p:-:team=b                                   | app=web       | team=a | null",
            // every pair must match
            "p:app=web,tier=front:-                       | app=web       | team=a | null",
            // more matching pairs win
            "a:app=web:-;b:app=web,tier=front:-           | app=web,tier=front | team=a | b",
            "a:app=web:team=a;b:app=web,tier=front:-      | app=web,tier=front | team=a | b",
            "a:app=web:team=a;b:app=web:-                 | app=web,tier=front | team=a | a",
            // equal totals: more VMI pairs win
            "a:-:team=a;b:app=web:-                       | app=web       | team=a | b",
            "b:app=web:-;a:-:team=a                       | app=web       | team=a | b",
            // a full tie: the first name in lexicographic order
            "zeta:app=web:-;alpha:tier=front:-            | app=web,tier=front | team=a | alpha",
            // empty selectors match everything with score 0; anything more specific beats them
            "any::;web:app=web:-                          | app=web       | team=a | web",
            "any::                                        | app=web       | team=a | any",
            // KubeVirt's quirk: a VMI without labels is not checked against either selector
            "p:app=web:team=b                             | -             | team=a | p",
    })
    void mostSpecificMatchWins(String policies, String vmiLabels, String nsLabels, String expected) {
        List<MigrationPolicy> list = policies.isBlank() ? List.of() : java.util.Arrays.stream(policies.split(";"))
                .map(String::trim).map(p -> p.split(":", -1)).map(p -> policy(p[0], p[1], p[2])).toList();
        MigrationPolicy chosen = MigrationPolicies.match(list, labels(vmiLabels), labels(nsLabels));
        assertThat(chosen == null ? null : chosen.getMetadata().getName()).isEqualTo(expected);
    }

    @Test
    void policyWithoutSelectorsNeverMatches() {
        MigrationPolicy p = new MigrationPolicy();
        p.setMetadata(new ObjectMetaBuilder().withName("p").build());
        p.setSpec(new MigrationPolicySpec());
        assertThat(MigrationPolicies.match(List.of(p), Map.of("a", "b"), Map.of())).isNull();
    }

    @Test
    void configurationIsTheClustersWithThePolicysSettingsOverIt() {
        MigrationPolicy p = policy("slow", "app=web", "-");
        p.getSpec().setBandwidthPerMigration(new Quantity("64Mi"));
        p.getSpec().setCompletionTimeoutPerGiB(20L);
        p.getSpec().setAllowAutoConverge(true);
        p.getSpec().setAllowPostCopy(true);

        KubeVirtSpec.Migrations c = MigrationPolicies.configuration(MigrationConfig.defaults(), p);

        assertThat(c.getBandwidthPerMigration().toString()).isEqualTo("64Mi");
        assertThat(c.getCompletionTimeoutPerGiB()).isEqualTo(20);
        assertThat(c.getAllowAutoConverge()).isTrue();
        assertThat(c.getAllowPostCopy()).isTrue();
        assertThat(c.getAllowWorkloadDisruption()).as("allowPostCopy alone also allows workload disruption").isTrue();
        assertThat(c.getProgressTimeout()).as("not in the policy: the cluster's").isEqualTo(150);
        assertThat(c.getMaxDowntimeMs()).isEqualTo(900);
        assertThat(c.getParallelMigrationsPerCluster()).isEqualTo(5);
    }

    @Test
    void explicitWorkloadDisruptionWinsOverPostCopy() {
        MigrationPolicy p = policy("p", "app=web", "-");
        p.getSpec().setAllowPostCopy(true);
        p.getSpec().setAllowWorkloadDisruption(false);
        assertThat(MigrationPolicies.configuration(MigrationConfig.defaults(), p).getAllowWorkloadDisruption()).isFalse();
    }

    @Test
    void withoutPolicyTheClustersConfigurationIsWritten() {
        KubeVirtSpec.Migrations c = MigrationPolicies.configuration(MigrationConfig.defaults(), null);
        assertThat(c.getBandwidthPerMigration().toString()).isEqualTo("0Mi");
        assertThat(c.getCompletionTimeoutPerGiB()).isEqualTo(150);
        assertThat(c.getAllowAutoConverge()).isFalse();
    }

    @Test
    void theNodeHandlerTransfersWithTheMigrationsOwnConfiguration() {
        MigrationPolicy p = policy("slow", "app=web", "-");
        p.getSpec().setBandwidthPerMigration(new Quantity("64Mi"));
        p.getSpec().setCompletionTimeoutPerGiB(20L);
        MigrationState state = new MigrationState();
        state.setMigrationConfiguration(MigrationPolicies.configuration(MigrationConfig.defaults(), p));

        var options = MigrationSync.options(MigrationSync.configOf(state, MigrationConfig.defaults()), Map.of(), Map.of(), 2L << 30);

        assertThat(options.bandwidthBytesPerSecond()).isEqualTo(64L << 20);
        assertThat(options.completionTimeout()).isEqualTo(java.time.Duration.ofSeconds(20 * 3));
        var unlimited = MigrationSync.options(MigrationSync.configOf(new MigrationState(), MigrationConfig.defaults()), Map.of(), Map.of(), 2L << 30);
        assertThat(unlimited.bandwidthBytesPerSecond()).as("no configuration on the VMI: the cluster's (no limit: the link)")
                .isEqualTo(MigrationSync.DEFAULT_LINK_BYTES_PER_SECOND);
    }
}
