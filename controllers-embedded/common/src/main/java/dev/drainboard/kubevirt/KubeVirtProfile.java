package dev.drainboard.kubevirt;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Which KubeVirt release's drain path a cluster runs. The eviction path changed between releases (see
 * docs/kubevirt-versions.md and KubeVirt's release notes): the eviction webhook's failure policy and match condition
 * (v1.5), the PodDisruptionBudgets for VMIs (gone in v1.6), the {@code EvictionRequested} condition and
 * {@code /evacuate/cancel} (v1.7), and the migration priority queue (v1.7 behind a gate, on by default in v1.9).
 *
 * <p>One place decides which applies ({@link #of(String)} from the KubeVirt CR's {@code status.observedKubeVirtVersion}
 * or the virt-controller image tag); everything that differs asks the profile, never the version string.
 */
public enum KubeVirtProfile {
    /** KubeVirt up to v1.4: webhook {@code failurePolicy: Ignore}, one PDB per protected VMI. The default. */
    SEEDS("≤ 1.4", 1, 4),
    /** v1.5: webhook {@code Fail} with a {@code matchConditions} for launcher pods; every eviction of a protected pod denied. */
    V1_5("1.5", 1, 5),
    /** v1.6: as 1.5, and no PDBs for VMIs (the PDB controller only deletes leftovers). */
    V1_6("1.6", 1, 6),
    /**
     * v1.7–v1.8: as 1.6; the VMI controller keeps the {@code EvictionRequested} condition and the descheduler's
     * {@code eviction-in-progress} annotation in step with the eviction mark; {@code /evacuate/cancel} is served. The
     * migration priority queue is a feature gate, off by default, so the evacuation controller still throttles.
     */
    V1_7("1.7–1.8", 1, 7),
    /** v1.9 and later: as 1.7, with the migration priority queue GA (the evacuation controller no longer throttles). */
    V1_9("≥ 1.9", 1, 9);

    private static final Pattern VERSION = Pattern.compile("v?(\\d+)\\.(\\d+)(?:\\.\\d+)?(?:[-+].*)?");

    private final String label;
    private final int major;
    private final int minor;

    KubeVirtProfile(String label, int major, int minor) {
        this.label = label;
        this.major = major;
        this.minor = minor;
    }

    /** What the console and the CLI print ("KubeVirt ≤ 1.4"). */
    public String label() {
        return "KubeVirt " + label;
    }

    /** The profile for a version such as {@code v1.6.2}, {@code 1.9.0-rc.1}; empty when it is not one. */
    public static Optional<KubeVirtProfile> of(String version) {
        if (version == null) {
            return Optional.empty();
        }
        Matcher m = VERSION.matcher(version.trim());
        if (!m.matches()) {
            return Optional.empty();
        }
        int major = Integer.parseInt(m.group(1));
        int minor = Integer.parseInt(m.group(2));
        KubeVirtProfile found = SEEDS;
        for (KubeVirtProfile p : values()) {
            if (major > p.major || (major == p.major && minor >= p.minor)) {
                found = p;
            }
        }
        return Optional.of(found);
    }

    private boolean atLeast(KubeVirtProfile other) {
        return compareTo(other) >= 0;
    }

    /** v1.5+: the launcher eviction webhook fails closed and is limited by a CEL {@code matchConditions}. */
    public boolean webhookFailsClosed() {
        return atLeast(V1_5);
    }

    /** v1.5+: a repeated eviction of a marked VMI's pod is denied by the webhook, not passed on to a PDB. */
    public boolean webhookDeniesRepeats() {
        return atLeast(V1_5);
    }

    /** ≤ 1.5: the disruption-budget controller creates and expands a PDB per protected VMI. */
    public boolean protectsWithPdbs() {
        return !atLeast(V1_6);
    }

    /**
     * v1.6+: a VMIM's {@code spec.addedNodeSelector} (and {@code MigrateOptions.addedNodeSelector}) narrows where the
     * target pod may run, so a migration can be sent to a chosen node; older releases' CRD has no such field.
     */
    public boolean migratesToAChosenNode() {
        return atLeast(V1_6);
    }

    /** v1.7+: the {@code EvictionRequested} condition and the descheduler annotation follow the VMI's eviction mark. */
    public boolean reportsEvictionRequested() {
        return atLeast(V1_7);
    }

    /** v1.7+: {@code PUT …/evacuate/cancel} is served by virt-api. */
    public boolean servesEvacuateCancel() {
        return reportsEvictionRequested();
    }

    /** v1.9+: migrations carry a priority and the migration controller, not the evacuation controller, throttles. */
    public boolean migrationPriorityQueue() {
        return atLeast(V1_9);
    }
}
