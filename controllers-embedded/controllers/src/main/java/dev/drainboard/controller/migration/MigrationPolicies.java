package dev.drainboard.controller.migration;

import dev.drainboard.architecture.Pure;
import dev.drainboard.kubevirt.api.KubeVirtSpec;
import dev.drainboard.kubevirt.api.MigrationPolicy;
import dev.drainboard.kubevirt.api.MigrationPolicySpec;
import dev.drainboard.kubevirt.config.MigrationConfig;
import io.fabric8.kubernetes.api.model.Quantity;

import java.util.Collection;
import java.util.Map;

/**
 * Which MigrationPolicy a migration follows and what configuration results, as KubeVirt's migration controller
 * decides at the hand-off ({@code pkg/virt-controller/watch/migration/migrationpolicy.go}, {@code matchPolicy},
 * {@code applyMigrationPolicySpec}). Pure.
 *
 * <pre>
 * a policy matches when    every pair of its virtualMachineInstanceSelector is among the VMI's labels, and every pair
 *                          of its namespaceSelector among the namespace's labels (a policy without selectors: never)
 * the most specific wins   most matching pairs (VMI + namespace); on a tie, more VMI pairs; then the first name
 *                          in lexicographic order
 * KubeVirt's quirk kept    the namespace selector is only checked when the VMI has labels (KubeVirt tests the VMI's
 *                          labels there), and neither selector is checked against a VMI without labels
 * the configuration        the cluster's (spec.configuration.migrations with defaults), with each field the policy
 *                          sets laid over it; allowPostCopy alone also sets allowWorkloadDisruption
 * </pre>
 */
@Pure
public final class MigrationPolicies {

    private MigrationPolicies() {
    }

    /** The policy for a VMI with these labels in a namespace with these labels, or null. */
    public static MigrationPolicy match(Collection<MigrationPolicy> policies, Map<String, String> vmiLabels,
                                        Map<String, String> namespaceLabels) {
        MigrationPolicy best = null;
        int bestVmi = 0;
        int bestNs = 0;
        for (MigrationPolicy policy : policies) {
            int[] score = score(policy, vmiLabels, namespaceLabels);
            if (score == null) {
                continue;
            }
            int total = score[0] + score[1];
            int bestTotal = bestVmi + bestNs;
            boolean better = best == null || total > bestTotal || (total == bestTotal && score[0] > bestVmi);
            boolean tie = best != null && score[0] == bestVmi && score[1] == bestNs;
            if (better && !tie) {
                best = policy;
                bestVmi = score[0];
                bestNs = score[1];
            } else if (tie && policy.getMetadata().getName().compareTo(best.getMetadata().getName()) < 0) {
                best = policy;
            }
        }
        return best;
    }

    /** {matching VMI pairs, matching namespace pairs}, or null when the policy does not match. */
    static int[] score(MigrationPolicy policy, Map<String, String> vmiLabels, Map<String, String> namespaceLabels) {
        MigrationPolicySpec spec = policy.getSpec();
        if (spec == null || spec.getSelectors() == null) {
            return null;
        }
        int vmi = 0;
        int ns = 0;
        Map<String, String> vmiSelector = spec.getSelectors().getVirtualMachineInstanceSelector();
        if (vmiSelector != null && vmiLabels != null) {
            vmi = count(vmiSelector, vmiLabels);
            if (vmi < 0) {
                return null;
            }
        }
        Map<String, String> nsSelector = spec.getSelectors().getNamespaceSelector();
        if (nsSelector != null && vmiLabels != null) {
            ns = count(nsSelector, namespaceLabels == null ? Map.of() : namespaceLabels);
            if (ns < 0) {
                return null;
            }
        }
        return new int[] {vmi, ns};
    }

    private static int count(Map<String, String> selector, Map<String, String> labels) {
        for (Map.Entry<String, String> pair : selector.entrySet()) {
            if (!pair.getValue().equals(labels.get(pair.getKey()))) {
                return -1;
            }
        }
        return selector.size();
    }

    /** The migration's configuration: the cluster's, with the policy's settings laid over it (null policy: as is). */
    public static KubeVirtSpec.Migrations configuration(MigrationConfig cluster, MigrationPolicy policy) {
        KubeVirtSpec.Migrations result = cluster.toOptions();
        if (policy == null || policy.getSpec() == null) {
            return result;
        }
        MigrationPolicySpec spec = policy.getSpec();
        if (spec.getAllowWorkloadDisruption() == null && spec.getAllowPostCopy() != null) {
            result.setAllowWorkloadDisruption(spec.getAllowPostCopy());
        }
        if (spec.getAllowAutoConverge() != null) {
            result.setAllowAutoConverge(spec.getAllowAutoConverge());
        }
        if (spec.getBandwidthPerMigration() != null) {
            result.setBandwidthPerMigration(new Quantity(spec.getBandwidthPerMigration().toString()));
        }
        if (spec.getCompletionTimeoutPerGiB() != null) {
            result.setCompletionTimeoutPerGiB(spec.getCompletionTimeoutPerGiB());
        }
        if (spec.getMaxDowntimeMs() != null) {
            result.setMaxDowntimeMs(spec.getMaxDowntimeMs());
        }
        if (spec.getAllowPostCopy() != null) {
            result.setAllowPostCopy(spec.getAllowPostCopy());
        }
        if (spec.getAllowWorkloadDisruption() != null) {
            result.setAllowWorkloadDisruption(spec.getAllowWorkloadDisruption());
        }
        return result;
    }
}
