package dev.drainboard.ops;

import java.time.Duration;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * {@code kubectl drain}'s options, with the same defaults.
 *
 * @param ignoreDaemonSets   skip DaemonSet pods instead of refusing to drain ({@code --ignore-daemonsets})
 * @param deleteEmptyDirData evict pods with emptyDir volumes, losing that data ({@code --delete-emptydir-data})
 * @param force              evict pods no controller will recreate ({@code --force})
 * @param gracePeriodSeconds the pods' termination grace period; negative: each pod's own ({@code --grace-period})
 * @param timeout            give up after this long; zero: wait as long as it takes ({@code --timeout})
 * @param podSelector        only pods matching this label selector; empty: all ({@code --pod-selector})
 * @param dryRun             only preview: write nothing ({@code --dry-run})
 * @param retryInterval      how often a refused eviction is retried when nothing it depends on changes
 * @param externalHandled    VMIs with eviction strategy External are moved by something outside KubeVirt: not blockers
 *                           ({@code --external-handled})
 * @param allowStranded      start even though blockers exist ({@code --allow-stranded}); the end state names them
 */
public record DrainOptions(boolean ignoreDaemonSets,
                           boolean deleteEmptyDirData,
                           boolean force,
                           long gracePeriodSeconds,
                           Duration timeout,
                           String podSelector,
                           boolean dryRun,
                           Duration retryInterval,
                           boolean externalHandled,
                           boolean allowStranded) {

    /** kubectl drain retries a refused eviction after 5 s; here only when no change prompted a retry sooner. */
    public static final Duration DEFAULT_RETRY_INTERVAL = Duration.ofSeconds(5);

    public DrainOptions {
        Objects.requireNonNull(timeout, "timeout");
        podSelector = podSelector == null ? "" : podSelector.strip();
        Objects.requireNonNull(retryInterval, "retryInterval");
        if (timeout.isNegative()) {
            throw new IllegalArgumentException("timeout must not be negative: " + timeout);
        }
        if (retryInterval.isNegative() || retryInterval.isZero()) {
            throw new IllegalArgumentException("retryInterval must be positive: " + retryInterval);
        }
    }

    /** kubectl's defaults: refuse DaemonSet, emptyDir and unmanaged pods; pods' own grace period; no timeout. */
    public static DrainOptions defaults() {
        return new DrainOptions(false, false, false, -1, Duration.ZERO, "", false, DEFAULT_RETRY_INTERVAL, false, false);
    }

    public DrainOptions withIgnoreDaemonSets(boolean value) {
        return new DrainOptions(value, deleteEmptyDirData, force, gracePeriodSeconds, timeout, podSelector, dryRun, retryInterval, externalHandled, allowStranded);
    }

    public DrainOptions withDeleteEmptyDirData(boolean value) {
        return new DrainOptions(ignoreDaemonSets, value, force, gracePeriodSeconds, timeout, podSelector, dryRun, retryInterval, externalHandled, allowStranded);
    }

    public DrainOptions withForce(boolean value) {
        return new DrainOptions(ignoreDaemonSets, deleteEmptyDirData, value, gracePeriodSeconds, timeout, podSelector, dryRun, retryInterval, externalHandled, allowStranded);
    }

    public DrainOptions withGracePeriodSeconds(long value) {
        return new DrainOptions(ignoreDaemonSets, deleteEmptyDirData, force, value, timeout, podSelector, dryRun, retryInterval, externalHandled, allowStranded);
    }

    public DrainOptions withTimeout(Duration value) {
        return new DrainOptions(ignoreDaemonSets, deleteEmptyDirData, force, gracePeriodSeconds, value, podSelector, dryRun, retryInterval, externalHandled, allowStranded);
    }

    public DrainOptions withPodSelector(String value) {
        return new DrainOptions(ignoreDaemonSets, deleteEmptyDirData, force, gracePeriodSeconds, timeout, value, dryRun, retryInterval, externalHandled, allowStranded);
    }

    public DrainOptions withDryRun(boolean value) {
        return new DrainOptions(ignoreDaemonSets, deleteEmptyDirData, force, gracePeriodSeconds, timeout, podSelector, value, retryInterval, externalHandled, allowStranded);
    }

    public DrainOptions withRetryInterval(Duration value) {
        return new DrainOptions(ignoreDaemonSets, deleteEmptyDirData, force, gracePeriodSeconds, timeout, podSelector, dryRun, value, externalHandled, allowStranded);
    }

    public DrainOptions withExternalHandled(boolean value) {
        return new DrainOptions(ignoreDaemonSets, deleteEmptyDirData, force, gracePeriodSeconds, timeout, podSelector, dryRun, retryInterval, value, allowStranded);
    }

    public DrainOptions withAllowStranded(boolean value) {
        return new DrainOptions(ignoreDaemonSets, deleteEmptyDirData, force, gracePeriodSeconds, timeout, podSelector, dryRun, retryInterval, externalHandled, value);
    }

    /** The grace period to send with each eviction, if one was asked for. */
    public OptionalLong gracePeriod() {
        return gracePeriodSeconds < 0 ? OptionalLong.empty() : OptionalLong.of(gracePeriodSeconds);
    }
}
