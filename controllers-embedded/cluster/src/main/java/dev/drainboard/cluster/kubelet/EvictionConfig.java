package dev.drainboard.cluster.kubelet;

import dev.drainboard.simulation.SimulationKnobs;
import dev.drainboard.units.GoDurations;
import dev.drainboard.units.Quantities;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A simulated kubelet's node-pressure eviction configuration for the {@code memory.available} signal, read from
 * annotations on its Node in the kubelet's own flag syntax (docs/embedded-cluster.md):
 *
 * <pre>
 * sim.drainboard.dev/eviction-soft:                        memory.available&lt;3500Mi   (or a percentage: &lt;10%)
 * sim.drainboard.dev/eviction-soft-grace-period:           memory.available=5s
 * sim.drainboard.dev/eviction-max-pod-grace-period:        300
 * sim.drainboard.dev/eviction-hard:                        memory.available&lt;10Mi
 * sim.drainboard.dev/eviction-pressure-transition-period:  5m
 * </pre>
 *
 * A node with neither threshold never evicts (the kubelet's default {@code memory.available<100Mi} is not assumed,
 * so scenarios that do not ask for node pressure never see it).
 *
 * @param soft                      the soft threshold, or null
 * @param softGracePeriod           how long the soft threshold must hold before pods are evicted
 * @param maxPodGracePeriodSeconds  the cap on a soft eviction's grace period (0: kill at once, as the kubelet's default)
 * @param hard                      the hard threshold, or null
 * @param pressureTransitionPeriod  how long MemoryPressure stays True after the last threshold was met
 */
public record EvictionConfig(Threshold soft, Duration softGracePeriod, long maxPodGracePeriodSeconds, Threshold hard,
                             Duration pressureTransitionPeriod) {

    public static final String SIGNAL = "memory.available";
    public static final Duration DEFAULT_PRESSURE_TRANSITION_PERIOD = Duration.ofMinutes(5);
    private static final Pattern THRESHOLD = Pattern.compile("\\s*memory\\.available\\s*<\\s*(\\S+)\\s*");
    private static final Pattern GRACE = Pattern.compile("\\s*memory\\.available\\s*=\\s*(\\S+)\\s*");

    public static final EvictionConfig NONE = new EvictionConfig(null, Duration.ZERO, 0, null, DEFAULT_PRESSURE_TRANSITION_PERIOD);

    /** Whether any threshold is configured. */
    public boolean enabled() {
        return soft != null || hard != null;
    }

    /**
     * A threshold on {@code memory.available}: an absolute quantity or a percentage of the node's capacity.
     *
     * @param text as written, for messages ("Threshold quantity: …")
     */
    public record Threshold(String text, long bytes, BigDecimal percentage) {

        /** The threshold in bytes on a node of this capacity. */
        public long bytesOf(long capacity) {
            return percentage == null ? bytes
                    : percentage.multiply(BigDecimal.valueOf(capacity)).movePointLeft(2).longValue();
        }
    }

    /** Reads the annotations; throws {@link IllegalArgumentException} naming the annotation and the expected syntax. */
    public static EvictionConfig parse(Map<String, String> annotations) {
        if (annotations == null) {
            return NONE;
        }
        Threshold soft = threshold(annotations, SimulationKnobs.EVICTION_SOFT);
        Threshold hard = threshold(annotations, SimulationKnobs.EVICTION_HARD);
        Duration softGrace = Duration.ZERO;
        String grace = annotations.get(SimulationKnobs.EVICTION_SOFT_GRACE_PERIOD);
        if (grace != null && !grace.isBlank()) {
            Matcher m = GRACE.matcher(grace);
            if (!m.matches()) {
                throw new IllegalArgumentException(SimulationKnobs.EVICTION_SOFT_GRACE_PERIOD + ": expected memory.available=<duration> (e.g. memory.available=5s), got \"" + grace + "\"");
            }
            softGrace = duration(SimulationKnobs.EVICTION_SOFT_GRACE_PERIOD, m.group(1));
        }
        if (soft != null && (grace == null || grace.isBlank())) {
            // As the kubelet refuses to start with a soft threshold that has no grace period.
            throw new IllegalArgumentException(SimulationKnobs.EVICTION_SOFT + " needs " + SimulationKnobs.EVICTION_SOFT_GRACE_PERIOD + " (e.g. memory.available=5s)");
        }
        long maxPodGrace = 0;
        String max = annotations.get(SimulationKnobs.EVICTION_MAX_POD_GRACE_PERIOD);
        if (max != null && !max.isBlank()) {
            try {
                maxPodGrace = Long.parseLong(max.trim());
            } catch (NumberFormatException e) {
                maxPodGrace = -1;
            }
            if (maxPodGrace < 0) {
                throw new IllegalArgumentException(SimulationKnobs.EVICTION_MAX_POD_GRACE_PERIOD + ": expected whole seconds ≥ 0 (e.g. 300), got \"" + max + "\"");
            }
        }
        Duration transition = DEFAULT_PRESSURE_TRANSITION_PERIOD;
        String period = annotations.get(SimulationKnobs.EVICTION_PRESSURE_TRANSITION_PERIOD);
        if (period != null && !period.isBlank()) {
            transition = duration(SimulationKnobs.EVICTION_PRESSURE_TRANSITION_PERIOD, period.trim());
        }
        return new EvictionConfig(soft, softGrace, maxPodGrace, hard, transition);
    }

    private static Threshold threshold(Map<String, String> annotations, String key) {
        String text = annotations.get(key);
        if (text == null || text.isBlank()) {
            return null;
        }
        Matcher m = THRESHOLD.matcher(text);
        if (!m.matches()) {
            throw new IllegalArgumentException(key + ": expected memory.available<<quantity or percentage> (e.g. memory.available<3500Mi), got \"" + text + "\"");
        }
        String value = m.group(1);
        try {
            if (value.endsWith("%")) {
                BigDecimal percentage = new BigDecimal(value.substring(0, value.length() - 1));
                if (percentage.signum() < 0 || percentage.compareTo(BigDecimal.valueOf(100)) > 0) {
                    throw new IllegalArgumentException("percentage out of range");
                }
                return new Threshold(value, 0, percentage);
            }
            long bytes = Quantities.whole(value);
            if (bytes < 0) {
                throw new IllegalArgumentException("negative");
            }
            return new Threshold(value, bytes, null);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(key + ": \"" + value + "\" is neither a quantity (e.g. 3500Mi) nor a percentage (e.g. 10%)");
        }
    }

    private static Duration duration(String key, String text) {
        try {
            Duration d = GoDurations.parse(text);
            if (d.isNegative()) {
                throw new IllegalArgumentException("negative");
            }
            return d;
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(key + ": \"" + text + "\" is not a duration (e.g. 5s, 1m30s)");
        }
    }
}
