package dev.drainboard.kubevirt.config;

import dev.drainboard.kubevirt.DrainboardAnnotations;
import dev.drainboard.kubevirt.KubeVirtProfile;
import dev.drainboard.kubevirt.KubeVirtValues;
import dev.drainboard.kubevirt.ProfileChoice;
import dev.drainboard.kubevirt.api.EvictionStrategy;
import dev.drainboard.kubevirt.api.KubeVirt;
import dev.drainboard.kubevirt.api.KubeVirtSpec;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import io.fabric8.kubernetes.api.model.Quantity;

import java.math.BigDecimal;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The cluster-wide KubeVirt configuration in force: an immutable snapshot computed from the KubeVirt CR by pure
 * functions, with KubeVirt's defaults for every field the CR leaves out (its configuration is laid over the
 * defaults field by field).
 *
 * @param evictionStrategy the cluster default for VMIs without their own ({@code None} unless configured)
 * @param migrations       migration limits and timeouts
 * @param featureGates     enabled feature gates, in the CR's order
 * @param source           {@code namespace/name} of the KubeVirt CR this came from; empty for the defaults
 * @param nodePressureAssist how Drainboard helps a node-pressure migration finish in time (annotation
 *                           {@value DrainboardAnnotations#NODE_PRESSURE_MIGRATION_ASSIST} on the CR)
 * @param profileChoice    which KubeVirt release's drain path applies and what said so ({@link ProfileChoice#resolve}:
 *                         the CR's {@code status.observedKubeVirtVersion}, else the virt-controller image's tag, else
 *                         {@link KubeVirtProfile#SEEDS})
 * @param timeScale        how many times faster than real time the cluster's simulated world runs (annotation
 *                         {@value DrainboardAnnotations#TIME_SCALE} on the CR, which a time-scaled embedded cluster
 *                         writes; 1 on a real cluster): the controllers divide their own timers and KubeVirt's
 *                         timeouts by it (docs/embedded-cluster.md, "Time scale")
 */
public record ClusterConfig(
        EvictionStrategy evictionStrategy,
        MigrationConfig migrations,
        Set<String> featureGates,
        Optional<String> source,
        NodePressureAssist nodePressureAssist,
        ProfileChoice profileChoice,
        double timeScale) {

    public ClusterConfig {
        featureGates = Collections.unmodifiableSet(new LinkedHashSet<>(featureGates));
        nodePressureAssist = nodePressureAssist == null ? NodePressureAssist.NONE : nodePressureAssist;
        profileChoice = profileChoice == null ? ProfileChoice.defaults() : profileChoice;
        if (!(timeScale > 0) || Double.isInfinite(timeScale)) {
            throw new IllegalArgumentException("time scale must be a positive number, got " + timeScale);
        }
    }

    /** At real time (time scale 1). */
    public ClusterConfig(EvictionStrategy evictionStrategy, MigrationConfig migrations, Set<String> featureGates,
                         Optional<String> source, NodePressureAssist nodePressureAssist, ProfileChoice profileChoice) {
        this(evictionStrategy, migrations, featureGates, source, nodePressureAssist, profileChoice, 1.0);
    }

    /** With a profile an operator chose (a test, a scenario's override); the default profile counts as said by nobody. */
    public ClusterConfig(EvictionStrategy evictionStrategy, MigrationConfig migrations, Set<String> featureGates,
                         Optional<String> source, NodePressureAssist nodePressureAssist, KubeVirtProfile profile) {
        this(evictionStrategy, migrations, featureGates, source, nodePressureAssist,
                profile == null || profile == KubeVirtProfile.SEEDS ? ProfileChoice.defaults()
                        : new ProfileChoice(profile, ProfileChoice.Source.OVERRIDE, ""));
    }

    public ClusterConfig(EvictionStrategy evictionStrategy, MigrationConfig migrations, Set<String> featureGates,
                         Optional<String> source, NodePressureAssist nodePressureAssist) {
        this(evictionStrategy, migrations, featureGates, source, nodePressureAssist, ProfileChoice.defaults());
    }

    /** Which KubeVirt release's drain path applies: everything that differs between releases asks this. */
    public KubeVirtProfile profile() {
        return profileChoice.profile();
    }

    /** The same configuration under another profile (an operator's override of what the cluster reports). */
    public ClusterConfig withProfile(KubeVirtProfile profile) {
        return withProfile(new ProfileChoice(profile, ProfileChoice.Source.OVERRIDE, ""));
    }

    /** The same configuration with this profile choice. */
    public ClusterConfig withProfile(ProfileChoice choice) {
        return new ClusterConfig(evictionStrategy, migrations, featureGates, source, nodePressureAssist, choice, timeScale);
    }

    /** The same configuration at another time scale. */
    public ClusterConfig withTimeScale(double scale) {
        return new ClusterConfig(evictionStrategy, migrations, featureGates, source, nodePressureAssist, profileChoice, scale);
    }

    /**
     * A duration of the simulated world's real-time clock as it runs in this cluster: divided by the time scale
     * (never below a millisecond when it was positive). At scale 1 the duration itself.
     */
    public java.time.Duration scaled(java.time.Duration realTime) {
        return scaled(realTime, timeScale);
    }

    /** {@code realTime} divided by {@code scale}; a positive duration stays at least 1 ms, so a timer still waits. */
    public static java.time.Duration scaled(java.time.Duration realTime, double scale) {
        if (realTime == null || scale == 1.0 || realTime.isZero() || realTime.isNegative()) {
            return realTime;
        }
        long nanos = Math.round(realTime.toNanos() / scale);
        return java.time.Duration.ofNanos(Math.max(1_000_000L, nanos));
    }

    public ClusterConfig(EvictionStrategy evictionStrategy, MigrationConfig migrations, Set<String> featureGates,
                         Optional<String> source) {
        this(evictionStrategy, migrations, featureGates, source, NodePressureAssist.NONE);
    }

    /**
     * The feature gate that turns node-pressure evictions of VMIs into live migrations: Drainboard's, named as in
     * KubeVirt's proposal, in no KubeVirt release (docs/behaviour.md, "Node-pressure eviction turned into live
     * migration").
     */
    public static final String NODE_PRESSURE_EVICTION_LIVE_MIGRATION = "NodePressureEvictionLiveMigration";

    /** Whether {@link #NODE_PRESSURE_EVICTION_LIVE_MIGRATION} is on. */
    public boolean nodePressureEvictionLiveMigration() {
        return isFeatureGateEnabled(NODE_PRESSURE_EVICTION_LIVE_MIGRATION);
    }

    /** KubeVirt's configuration when no KubeVirt CR is there. */
    public static ClusterConfig defaults() {
        return new ClusterConfig(EvictionStrategy.NONE, MigrationConfig.defaults(), Set.of(), Optional.empty());
    }

    /**
     * Whether the migration priority queue is on: always from v1.9, behind the {@code MigrationPriorityQueue} gate in
     * v1.7–v1.8, absent before. When on, the evacuation controller creates every migration at once, with a
     * {@code spec.priority}, and the migration controller starts them by priority within the limits; when off, the
     * evacuation controller throttles (KubeVirt's {@code MigrationPriorityQueueEnabled}, pkg/virt-config/feature-gates.go).
     * The one place that decides.
     */
    public boolean migrationPriorityQueue() {
        return profile().migrationPriorityQueue()
                || (profile() == KubeVirtProfile.V1_7 && isFeatureGateEnabled(KubeVirtValues.MIGRATION_PRIORITY_QUEUE_GATE));
    }

    /** Whether VMIMs have {@code spec.priority} at all: the field came with v1.7. */
    public boolean migrationPriorityField() {
        return profile().compareTo(KubeVirtProfile.V1_7) >= 0;
    }

    public boolean isFeatureGateEnabled(String gate) {
        return featureGates.contains(gate);
    }

    /**
     * The eviction strategy that applies to a VMI: its own {@code spec.evictionStrategy}, else the cluster default.
     * A value KubeVirt does not know protects nothing, so it counts as {@code None}.
     */
    public EvictionStrategy evictionStrategyFor(VirtualMachineInstance vmi) {
        String own = vmi.getSpec() == null ? null : vmi.getSpec().getEvictionStrategy();
        if (own == null) {
            return evictionStrategy;
        }
        return EvictionStrategy.parse(own).orElse(EvictionStrategy.NONE);
    }

    /**
     * Which KubeVirt CR configures the cluster when there are several. KubeVirt reads only its install namespace,
     * ignores CRs being deleted and prefers one its operator has deployed (a status phase is set). Drainboard may
     * not know the install namespace of a foreign cluster, so CRs elsewhere are used when the install namespace
     * has none; within a namespace group the oldest wins, then the name decides, so the choice is stable.
     */
    public static Optional<KubeVirt> select(Collection<KubeVirt> kubeVirts, String installNamespace) {
        Comparator<KubeVirt> order = Comparator
                .comparing((KubeVirt kv) -> !installNamespace.equals(kv.getMetadata().getNamespace()))
                .thenComparing(kv -> !hasPhase(kv))
                .thenComparing(kv -> Optional.ofNullable(kv.getMetadata().getCreationTimestamp()).orElse(""))
                .thenComparing(kv -> kv.getMetadata().getNamespace(), Comparator.nullsFirst(Comparator.naturalOrder()))
                .thenComparing(kv -> kv.getMetadata().getName(), Comparator.nullsFirst(Comparator.naturalOrder()));
        return kubeVirts.stream()
                .filter(kv -> kv.getMetadata() != null && kv.getMetadata().getDeletionTimestamp() == null)
                .min(order);
    }

    /** The configuration of one KubeVirt CR: its fields over KubeVirt's defaults. */
    public static ClusterConfig from(KubeVirt kubeVirt) throws InvalidClusterConfigException {
        return from(kubeVirt, null);
    }

    /**
     * The configuration of one KubeVirt CR, the profile falling back on the virt-controller Deployment's image
     * ({@code virtControllerImage}, null when unknown) when the CR reports no version.
     */
    public static ClusterConfig from(KubeVirt kubeVirt, String virtControllerImage) throws InvalidClusterConfigException {
        KubeVirtSpec.Configuration configuration = kubeVirt.getSpec() == null ? null : kubeVirt.getSpec().getConfiguration();
        String source = kubeVirt.getMetadata().getNamespace() + "/" + kubeVirt.getMetadata().getName();
        NodePressureAssist assist = nodePressureAssist(kubeVirt);
        ProfileChoice profile = profile(kubeVirt, virtControllerImage);
        double timeScale = timeScale(kubeVirt);
        if (configuration == null) {
            return new ClusterConfig(EvictionStrategy.NONE, MigrationConfig.defaults(), Set.of(), Optional.of(source), assist, profile, timeScale);
        }
        EvictionStrategy evictionStrategy = EvictionStrategy.NONE;
        if (configuration.getEvictionStrategy() != null) {
            evictionStrategy = EvictionStrategy.parse(configuration.getEvictionStrategy()).orElseThrow(() ->
                    new InvalidClusterConfigException("spec.configuration.evictionStrategy is set with an unrecognized option: "
                            + configuration.getEvictionStrategy()));
        }
        List<String> gates = configuration.getDeveloperConfiguration() == null
                || configuration.getDeveloperConfiguration().getFeatureGates() == null
                ? List.of() : configuration.getDeveloperConfiguration().getFeatureGates();
        return new ClusterConfig(evictionStrategy, migrations(configuration.getMigrations()),
                new LinkedHashSet<>(gates), Optional.of(source), assist, profile, timeScale);
    }

    /**
     * The CR's {@value DrainboardAnnotations#TIME_SCALE}: a positive decimal ({@code "10"}, {@code "2.5"}); absent or
     * blank is 1. Anything else is refused, as the other malformed settings of the CR are: a cluster that runs at
     * another pace than its controllers believe would time out migrations at the wrong moment.
     */
    static double timeScale(KubeVirt kubeVirt) throws InvalidClusterConfigException {
        var annotations = kubeVirt.getMetadata().getAnnotations();
        String text = annotations == null ? null : annotations.get(DrainboardAnnotations.TIME_SCALE);
        if (text == null || text.isBlank()) {
            return 1.0;
        }
        return parseTimeScale(text).orElseThrow(() -> new InvalidClusterConfigException(
                "annotation " + DrainboardAnnotations.TIME_SCALE + " must be a positive number, got " + text));
    }

    /** A time scale as written on the CR or given to {@code serve --time-scale}: a finite decimal above 0. */
    public static Optional<Double> parseTimeScale(String text) {
        if (text == null || !text.trim().matches("[0-9]+(\\.[0-9]+)?|\\.[0-9]+")) {
            return Optional.empty();
        }
        double value = Double.parseDouble(text.trim());
        return value > 0 && value <= MAX_TIME_SCALE ? Optional.of(value) : Optional.empty();
    }

    /** Beyond this a millisecond of wall time is more than a minute of simulated time: timers lose all precision. */
    public static final double MAX_TIME_SCALE = 1000;

    /** The profile of the version the CR reports running, else of the image's tag, else the default. */
    static ProfileChoice profile(KubeVirt kubeVirt, String virtControllerImage) {
        String version = kubeVirt.getStatus() == null ? null : kubeVirt.getStatus().getObservedKubeVirtVersion();
        return ProfileChoice.resolve(version, virtControllerImage);
    }

    /** Whether the CR reports the version it runs (if not, the virt-controller image is worth reading). */
    public static boolean reportsVersion(KubeVirt kubeVirt) {
        return kubeVirt.getStatus() != null && KubeVirtProfile.of(kubeVirt.getStatus().getObservedKubeVirtVersion()).isPresent();
    }

    private static NodePressureAssist nodePressureAssist(KubeVirt kubeVirt) throws InvalidClusterConfigException {
        var annotations = kubeVirt.getMetadata().getAnnotations();
        String text = annotations == null ? null : annotations.get(DrainboardAnnotations.NODE_PRESSURE_MIGRATION_ASSIST);
        if (text == null || text.isBlank()) {
            return NodePressureAssist.NONE;
        }
        return NodePressureAssist.parse(text.trim()).orElseThrow(() -> new InvalidClusterConfigException(
                "annotation " + DrainboardAnnotations.NODE_PRESSURE_MIGRATION_ASSIST + " must be None, AutoConverge or PauseBeforeKill, got " + text));
    }

    /**
     * {@code spec.configuration.migrations} (or a migration's {@code migrationConfiguration}, which has the same
     * fields) over KubeVirt's defaults; refuses what KubeVirt refuses.
     */
    public static MigrationConfig migrations(KubeVirtSpec.Migrations m) throws InvalidClusterConfigException {
        MigrationConfig d = MigrationConfig.defaults();
        if (m == null) {
            return d;
        }
        boolean allowPostCopy = or(m.getAllowPostCopy(), d.allowPostCopy());
        return new MigrationConfig(
                (int) positive("parallelMigrationsPerCluster", m.getParallelMigrationsPerCluster(), d.parallelMigrationsPerCluster()),
                (int) positive("parallelOutboundMigrationsPerNode", m.getParallelOutboundMigrationsPerNode(), d.parallelOutboundMigrationsPerNode()),
                m.getNodeDrainTaintKey() == null || m.getNodeDrainTaintKey().isEmpty() ? d.nodeDrainTaintKey() : m.getNodeDrainTaintKey(),
                bandwidth(m.getBandwidthPerMigration(), d.bandwidthPerMigration()),
                positive("completionTimeoutPerGiB", m.getCompletionTimeoutPerGiB(), d.completionTimeoutPerGiB()),
                positive("progressTimeout", m.getProgressTimeout(), d.progressTimeout()),
                allowPostCopy,
                or(m.getAllowAutoConverge(), d.allowAutoConverge()),
                or(m.getAllowWorkloadDisruption(), allowPostCopy),
                or(m.getUnsafeMigrationOverride(), d.unsafeMigrationOverride()),
                maxDowntime(m.getMaxDowntimeMs(), d.maxDowntimeMs()),
                positive("utilityVolumesTimeout", m.getUtilityVolumesTimeout(), d.utilityVolumesTimeout()));
    }

    private static boolean hasPhase(KubeVirt kv) {
        return kv.getStatus() != null && kv.getStatus().getPhase() != null && !kv.getStatus().getPhase().isEmpty();
    }

    private static boolean or(Boolean value, boolean fallback) {
        return value == null ? fallback : value;
    }

    private static long positive(String field, Long value, long fallback) throws InvalidClusterConfigException {
        if (value == null) {
            return fallback;
        }
        if (value < 1 || value > Integer.MAX_VALUE) {
            throw new InvalidClusterConfigException("spec.configuration.migrations." + field + " must be at least 1, got " + value);
        }
        return value;
    }

    private static long maxDowntime(Long value, long fallback) throws InvalidClusterConfigException {
        if (value == null) {
            return fallback;
        }
        if (value < 1 || value > 2_000_000) {
            throw new InvalidClusterConfigException("spec.configuration.migrations.maxDowntimeMs must be between 1 and 2000000, got " + value);
        }
        return value;
    }

    private static Quantity bandwidth(Quantity value, Quantity fallback) throws InvalidClusterConfigException {
        if (value == null) {
            return fallback;
        }
        BigDecimal bytes;
        try {
            bytes = value.getNumericalAmount();
        } catch (RuntimeException e) {
            throw new InvalidClusterConfigException("spec.configuration.migrations.bandwidthPerMigration is not a quantity: " + value);
        }
        if (bytes.signum() < 0) {
            throw new InvalidClusterConfigException("spec.configuration.migrations.bandwidthPerMigration must not be negative: " + value);
        }
        return value;
    }
}
