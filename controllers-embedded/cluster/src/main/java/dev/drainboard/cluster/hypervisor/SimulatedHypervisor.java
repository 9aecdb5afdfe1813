package dev.drainboard.cluster.hypervisor;

import dev.drainboard.hypervisor.Domain;
import dev.drainboard.hypervisor.DomainDefinition;
import dev.drainboard.hypervisor.DomainListener;
import dev.drainboard.hypervisor.DomainState;
import dev.drainboard.hypervisor.Hypervisor;
import dev.drainboard.hypervisor.MigrationOptions;
import dev.drainboard.hypervisor.MigrationProgress;
import dev.drainboard.hypervisor.StopReason;
import dev.drainboard.kubevirt.KubeVirtMessages;
import dev.drainboard.kubevirt.KubeVirtValues;
import dev.drainboard.simulation.SimulationKnobs;
import dev.drainboard.units.GoDurations;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * One simulated node's hypervisor: domains boot after a boot delay, power off some time after an ACPI shutdown,
 * and can be destroyed or crashed. Timers run on an executor shared by all nodes; listeners are called outside the
 * lock with the domain as it was just after the change, so they re-read {@link #domain} for the latest state.
 *
 * <p>Knobs, as annotations on the VMI (they reach the hypervisor with the domain definition):
 * {@value #BOOT_DELAY} and {@value #GUEST_SHUTDOWN_DELAY} (Go durations; the latter {@code never} for a guest that
 * ignores ACPI, so only the end of the grace period stops it).
 *
 * <p>Live migration is pre-copy: the first pass sends the guest memory M at the bandwidth B while the guest dirties
 * memory at D ({@value #MEMORY_DIRTY_RATE} on the VMI); each further pass sends what the previous one left dirty;
 * once what remains can be sent within the allowed downtime, the guest is paused, the rest sent and the target
 * takes over. With D = 0 a migration takes M / B (1 GiB at the default 512 MiB/s link: 2 s). When D approaches B
 * it never converges and the completion timeout decides: post-copy, pausing the guest, or aborting.
 */
public final class SimulatedHypervisor implements Hypervisor {

    public static final String BOOT_DELAY = SimulationKnobs.BOOT_DELAY;
    public static final String GUEST_SHUTDOWN_DELAY = SimulationKnobs.GUEST_SHUTDOWN_DELAY;
    public static final String NEVER = "never";
    public static final String MEMORY_DIRTY_RATE = SimulationKnobs.MEMORY_DIRTY_RATE;
    /** How often a running transfer advances, by default. */
    static final Duration TICK = Duration.ofMillis(50);
    /** Listeners hear of a running transfer at most this often by default (and at once when it ends or changes mode). */
    static final Duration PROGRESS_INTERVAL = Duration.ofMillis(250);
    /** The finest transfer tick a time scale brings: finer ones cost CPU and change nothing but rounding. */
    static final Duration MIN_SCALED_TICK = Duration.ofMillis(5);

    /**
     * The hypervisor's timing.
     *
     * @param bootDelay          a guest's boot time when its VMI sets no {@value #BOOT_DELAY}
     * @param guestShutdownDelay a guest's ACPI shutdown time when its VMI sets no {@value #GUEST_SHUTDOWN_DELAY}
     * @param tick               how often a running transfer advances (the transfer model integrates over the time
     *                           that passed, so the tick only sets how finely a pass's end and the switch-over fall)
     * @param progressInterval   listeners hear of a running transfer at most this often
     */
    public record Timing(Duration bootDelay, Duration guestShutdownDelay, Duration tick, Duration progressInterval) {
        public Timing {
            Objects.requireNonNull(bootDelay);
            Objects.requireNonNull(guestShutdownDelay);
            if (!tick.isPositive() || progressInterval.isNegative()) {
                throw new IllegalArgumentException("tick must be positive, progress interval not negative: " + tick + ", " + progressInterval);
            }
        }

        /** The given boot and shutdown times, the default tick and progress interval. */
        public Timing(Duration bootDelay, Duration guestShutdownDelay) {
            this(bootDelay, guestShutdownDelay, TICK, PROGRESS_INTERVAL);
        }

        public static Timing defaults() {
            return new Timing(Duration.ofMillis(100), Duration.ofMillis(500));
        }

        /**
         * Every duration divided by {@code factor}, to run the simulated world {@code factor} times faster (a
         * benchmark that also divides the cluster's timeouts and multiplies its rates by the same factor).
         */
        public Timing dividedBy(long factor) {
            if (factor < 1) {
                throw new IllegalArgumentException("factor must be at least 1, got " + factor);
            }
            return new Timing(bootDelay.dividedBy(factor), guestShutdownDelay.dividedBy(factor),
                    tick.dividedBy(factor), progressInterval.dividedBy(factor));
        }

        /**
         * This timing in a cluster running {@code scale} times faster ({@code --time-scale}): boot and shutdown
         * times divided by it; the transfer tick too, but never below {@link #MIN_SCALED_TICK} (the model integrates
         * over the time that passed, so a coarser tick only rounds where a pass ends); the progress interval is left
         * as it is, since it only sets how often progress is written to the API, not how the transfer goes.
         */
        public Timing scaledBy(double scale) {
            if (!(scale > 0)) {
                throw new IllegalArgumentException("time scale must be positive, got " + scale);
            }
            if (scale == 1.0) {
                return this;
            }
            Duration scaledTick = dev.drainboard.kubevirt.config.ClusterConfig.scaled(tick, scale);
            if (scaledTick.compareTo(MIN_SCALED_TICK) < 0) {
                scaledTick = tick.compareTo(MIN_SCALED_TICK) < 0 ? tick : MIN_SCALED_TICK;
            }
            return new Timing(dev.drainboard.kubevirt.config.ClusterConfig.scaled(bootDelay, scale),
                    dev.drainboard.kubevirt.config.ClusterConfig.scaled(guestShutdownDelay, scale), scaledTick, progressInterval);
        }
    }

    private final String nodeName;
    private final Clock clock;
    private final ScheduledExecutorService timers;
    private final Timing timing;
    /** How many times faster than real time the cluster runs: the VMIs' boot and shutdown knobs are divided by it. */
    private final double timeScale;
    private final Map<String, Domain> domains = new LinkedHashMap<>();
    private final Map<String, Duration> shutdownDelays = new LinkedHashMap<>();
    private final List<DomainListener> listeners = new CopyOnWriteArrayList<>();
    private final Map<String, Transfer> transfers = new LinkedHashMap<>();
    /** Serialises listener calls so they see this node's changes in order. */
    private final Object notifyLock = new Object();

    public SimulatedHypervisor(String nodeName, Clock clock, ScheduledExecutorService timers, Timing timing) {
        this(nodeName, clock, timers, timing, 1.0);
    }

    /**
     * @param timing    already at the cluster's time scale ({@link Timing#scaledBy})
     * @param timeScale the cluster's time scale, by which the VMIs' {@value #BOOT_DELAY} and
     *                  {@value #GUEST_SHUTDOWN_DELAY} (real time) are divided
     */
    public SimulatedHypervisor(String nodeName, Clock clock, ScheduledExecutorService timers, Timing timing, double timeScale) {
        this.nodeName = nodeName;
        this.clock = clock;
        this.timers = timers;
        this.timing = timing;
        this.timeScale = timeScale;
    }

    @Override
    public String nodeName() {
        return nodeName;
    }

    @Override
    public synchronized Optional<Domain> domain(String vmiUid) {
        return Optional.ofNullable(domains.get(vmiUid));
    }

    @Override
    public synchronized List<Domain> domains() {
        return List.copyOf(domains.values());
    }

    @Override
    public Domain start(DomainDefinition d) {
        Domain domain;
        Duration boot = knob(d.annotations(), BOOT_DELAY, timing.bootDelay(), timeScale);
        synchronized (this) {
            Domain existing = domains.get(d.vmiUid());
            if (existing != null) {
                return existing;
            }
            domain = new Domain(d.vmiUid(), d.namespace(), d.name(), nodeName, DomainState.STARTING, StopReason.NONE,
                    d.memoryBytes(), d.gracePeriodSeconds(), false, null, false, null);
            domains.put(d.vmiUid(), domain);
            Duration shutdown = knob(d.annotations(), GUEST_SHUTDOWN_DELAY, timing.guestShutdownDelay(), timeScale);
            shutdownDelays.put(d.vmiUid(), shutdown);
        }
        notifyListeners(domain);
        after(boot, () -> transition(d.vmiUid(), DomainState.STARTING, DomainState.RUNNING, StopReason.NONE));
        return domain;
    }

    @Override
    public void shutdown(String vmiUid) {
        Domain changed;
        Duration delay;
        synchronized (this) {
            Domain d = domains.get(vmiUid);
            if (d == null || !d.isAlive() || d.state() == DomainState.SHUTTING_DOWN) {
                return;
            }
            changed = copy(d, DomainState.SHUTTING_DOWN, StopReason.NONE, d.gracefulShutdownRequested(),
                    d.shutdownRequestedAt() != null ? d.shutdownRequestedAt() : clock.instant());
            domains.put(vmiUid, changed);
            delay = shutdownDelays.get(vmiUid);
        }
        notifyListeners(changed);
        if (delay != null) {
            after(delay, () -> transition(vmiUid, DomainState.SHUTTING_DOWN, DomainState.SHUTOFF, StopReason.SHUTDOWN));
        }
    }

    @Override
    public void destroy(String vmiUid) {
        stop(vmiUid, DomainState.SHUTOFF, StopReason.DESTROYED);
    }

    /** Simulates a guest or QEMU crash. */
    public void crash(String vmiUid) {
        stop(vmiUid, DomainState.CRASHED, StopReason.CRASHED);
    }

    /**
     * What virt-launcher does when its pod gets SIGTERM: records, once, that the handler should shut the guest
     * down gracefully (KubeVirt's {@code markedForGracefulShutdown}).
     */
    public void requestGracefulShutdown(String vmiUid) {
        Domain changed;
        synchronized (this) {
            Domain d = domains.get(vmiUid);
            if (d == null || d.gracefulShutdownRequested() || d.isFinal()) {
                return;
            }
            Domain marked = copy(d, d.state(), d.stopReason(), true, d.shutdownRequestedAt());
            changed = new Domain(marked.vmiUid(), marked.namespace(), marked.name(), nodeName, marked.state(),
                    marked.stopReason(), marked.memoryBytes(), marked.gracePeriodSeconds(), true,
                    marked.shutdownRequestedAt(), marked.incoming(), marked.startedAt(), clock.instant());
            domains.put(vmiUid, changed);
        }
        notifyListeners(changed);
    }

    @Override
    public void undefine(String vmiUid) {
        Domain removed;
        synchronized (this) {
            Domain d = domains.get(vmiUid);
            if (d == null || d.isAlive()) {
                return;
            }
            domains.remove(vmiUid);
            shutdownDelays.remove(vmiUid);
            transfers.remove(vmiUid);
            removed = Domain.none(d.vmiUid(), d.namespace(), d.name(), nodeName);
        }
        notifyListeners(removed);
    }

    @Override
    public Domain prepareIncoming(DomainDefinition d) {
        Domain domain;
        synchronized (this) {
            Domain existing = domains.get(d.vmiUid());
            if (existing != null && existing.isAlive()) {
                return existing;
            }
            // A domain left off here by an earlier migration of this VMI is replaced.
            transfers.remove(d.vmiUid());
            domain = new Domain(d.vmiUid(), d.namespace(), d.name(), nodeName, DomainState.RUNNING, StopReason.NONE,
                    d.memoryBytes(), d.gracePeriodSeconds(), false, null, true, null);
            domains.put(d.vmiUid(), domain);
            shutdownDelays.put(d.vmiUid(), knob(d.annotations(), GUEST_SHUTDOWN_DELAY, timing.guestShutdownDelay(), timeScale));
        }
        notifyListeners(domain);
        return domain;
    }

    @Override
    public void finishIncoming(String vmiUid, boolean takeOver) {
        Domain changed;
        synchronized (this) {
            Domain d = domains.get(vmiUid);
            if (d == null || !d.incoming()) {
                return;
            }
            changed = takeOver
                    ? new Domain(d.vmiUid(), d.namespace(), d.name(), nodeName, DomainState.RUNNING, StopReason.NONE,
                    d.memoryBytes(), d.gracePeriodSeconds(), false, null, false, clock.instant())
                    : new Domain(d.vmiUid(), d.namespace(), d.name(), nodeName, DomainState.SHUTOFF, StopReason.DESTROYED,
                    d.memoryBytes(), d.gracePeriodSeconds(), false, null, false, d.startedAt());
            domains.put(vmiUid, changed);
        }
        notifyListeners(changed);
    }

    @Override
    public void migrate(String vmiUid, Hypervisor target, MigrationOptions options) {
        Transfer transfer;
        synchronized (this) {
            Domain d = domains.get(vmiUid);
            Transfer running = transfers.get(vmiUid);
            if (d == null || d.state() != DomainState.RUNNING || d.incoming()
                    || (running != null && running.state == MigrationProgress.State.RUNNING)) {
                return;
            }
            transfer = new Transfer(vmiUid, target, options, d.memoryBytes(), clock.instant());
            transfer.timeScale = timeScale;
            transfers.put(vmiUid, transfer);
        }
        notifyListeners(domain(vmiUid).orElseThrow());
        scheduleNextTick(transfer, timing.tick());
    }

    @Override
    public synchronized Optional<MigrationProgress> migration(String vmiUid) {
        Transfer t = transfers.get(vmiUid);
        return t == null ? Optional.empty() : Optional.of(t.progress());
    }

    @Override
    public void abortMigration(String vmiUid) {
        synchronized (this) {
            Transfer t = transfers.get(vmiUid);
            if (t == null || t.state != MigrationProgress.State.RUNNING) {
                return;
            }
            t.abortRequested = true;
        }
    }

    /** One tick of a transfer: send, dirty, maybe switch over, fail or change mode; then tell the listeners. */
    private void advance(Transfer t) {
        Instant now = clock.instant();
        boolean finished;
        boolean tell;
        Duration nextTick;
        synchronized (this) {
            if (t.state != MigrationProgress.State.RUNNING) {
                return;
            }
            Domain d = domains.get(t.vmiUid);
            String modeBefore = t.mode;
            if (d == null || !d.isAlive()) {
                t.fail(now, "domain stopped during migration");
            } else if (t.abortRequested) {
                t.fail(now, KubeVirtMessages.MIGRATION_ABORTED);
            } else {
                t.step(now);
            }
            finished = t.state != MigrationProgress.State.RUNNING;
            nextTick = finished ? null : t.untilNextTick(timing.tick());
            tell = finished || !t.mode.equals(modeBefore) || !now.isBefore(t.lastTold.plus(timing.progressInterval()));
            if (tell) {
                t.lastTold = now;
            }
        }
        if (!finished) {
            scheduleNextTick(t, nextTick);
        } else {
            boolean done = t.state == MigrationProgress.State.COMPLETED;
            if (done) {
                // Switch-over as libvirt does it: the source's guest is paused for the last pass and let go, then the
                // target resumes it; the guest never runs on two nodes at once.
                stop(t.vmiUid, DomainState.SHUTOFF, StopReason.MIGRATED);
                t.target.finishIncoming(t.vmiUid, true);
            } else {
                t.target.finishIncoming(t.vmiUid, false);
            }
        }
        if (tell) {
            domain(t.vmiUid).ifPresent(this::notifyListeners);
        }
    }

    private void scheduleNextTick(Transfer t, Duration delay) {
        try {
            timers.schedule(() -> advance(t), Math.max(1, delay.toNanos()), TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException e) {
            // The node is shutting down: the transfer ends with it.
        }
    }

    /** A live transfer out of this node; guarded by the hypervisor's lock. */
    static final class Transfer {
        final String vmiUid;
        final Hypervisor target;
        final MigrationOptions options;
        final long memory;
        final Instant startedAt;
        MigrationProgress.State state = MigrationProgress.State.RUNNING;
        String mode = KubeVirtValues.MIGRATION_MODE_PRE_COPY;
        long processed;
        /** Left to send in the current pass. */
        long passRemaining;
        /** Dirtied since the current pass began. */
        long dirty;
        int iteration = 1;
        Instant lastTick;
        Instant lastProgressAt;
        Instant lastTold;
        Instant endedAt;
        Duration completionTimeout;
        boolean abortRequested;
        String failureReason;
        /** Auto-converge: the share of vCPU time taken from the guest, raised with every pass that does not converge. */
        double throttle;
        /** The cluster's time scale: failure messages give real seconds, as the copied cluster would have said. */
        double timeScale = 1.0;

        Transfer(String vmiUid, Hypervisor target, MigrationOptions options, long memory, Instant now) {
            this.vmiUid = vmiUid;
            this.target = target;
            this.options = options;
            this.memory = Math.max(0, memory);
            this.startedAt = now;
            this.passRemaining = this.memory;
            this.lastTick = now;
            this.lastProgressAt = now;
            this.lastTold = now;
            this.completionTimeout = options.completionTimeout();
        }

        void step(Instant now) {
            double dt = Math.max(0, Duration.between(lastTick, now).toNanos() / 1e9);
            lastTick = now;
            boolean guestRuns = mode.equals(KubeVirtValues.MIGRATION_MODE_PRE_COPY);
            if (guestRuns && options.pauseBy() != null && mustPauseNow(now)) {
                // What is left only just fits before the kill: stop the guest dirtying and send the rest.
                mode = KubeVirtValues.MIGRATION_MODE_PAUSED;
                passRemaining += dirty;
                dirty = 0;
                guestRuns = false;
            }
            if (guestRuns) {
                dirty = Math.min(memory, dirty + (long) (options.dirtyRateBytesPerSecond() * (1 - throttle) * dt));
            }
            long budget = (long) (options.bandwidthBytesPerSecond() * dt);
            if (budget > 0) {
                lastProgressAt = now;
            }
            while (budget > 0 && state == MigrationProgress.State.RUNNING) {
                long sent = Math.min(budget, passRemaining);
                passRemaining -= sent;
                processed += sent;
                budget -= sent;
                if (passRemaining > 0) {
                    break;
                }
                if (!guestRuns || fitsDowntime(dirty)) {
                    // The guest pauses, the last dirty pages go within the downtime, the target takes over.
                    processed += dirty;
                    dirty = 0;
                    state = MigrationProgress.State.COMPLETED;
                    endedAt = now;
                    return;
                }
                iteration++;
                passRemaining = dirty;
                dirty = 0;
                if (options.autoConverge()) {
                    // QEMU's defaults: 20 % at first, 10 % more per pass, at most 99 %.
                    throttle = throttle == 0 ? 0.20 : Math.min(0.99, throttle + 0.10);
                }
            }
            Duration elapsed = Duration.between(startedAt, now);
            if (Duration.between(lastProgressAt, now).compareTo(options.progressTimeout()) >= 0) {
                fail(now, KubeVirtMessages.ABORTING_STUCK.formatted(realSeconds(Duration.between(lastProgressAt, now))));
            } else if (elapsed.compareTo(completionTimeout) >= 0 && guestRuns) {
                if (options.allowWorkloadDisruption() && options.allowPostCopy()) {
                    mode = KubeVirtValues.MIGRATION_MODE_POST_COPY; // the rest is pulled by the target: no more dirtying
                    passRemaining += dirty;
                    dirty = 0;
                } else if (options.allowWorkloadDisruption()) {
                    mode = KubeVirtValues.MIGRATION_MODE_PAUSED;
                    passRemaining += dirty;
                    dirty = 0;
                    completionTimeout = completionTimeout.multipliedBy(2);
                } else {
                    fail(now, KubeVirtMessages.ABORTING_NOT_COMPLETED.formatted(realSeconds(completionTimeout)));
                }
            }
        }

        /**
         * The next tick: one {@code tick} on, or sooner when the current pass ends before that, so a transfer ends
         * when its last byte is sent rather than at the next tick after it.
         */
        Duration untilNextTick(Duration tick) {
            long bandwidth = Math.max(1, options.bandwidthBytesPerSecond());
            long passEndNanos = (long) Math.ceil(passRemaining * 1e9 / bandwidth);
            return passEndNanos > 0 && passEndNanos < tick.toNanos() ? Duration.ofNanos(passEndNanos) : tick;
        }

        /** Whole seconds of real time that a duration of this (time-scaled) cluster stands for. */
        long realSeconds(Duration scaled) {
            return timeScale == 1.0 ? scaled.toSeconds() : Math.round(scaled.toNanos() * timeScale / 1e9);
        }

        /** Sending everything still to send takes us to the pause deadline (or past it). */
        boolean mustPauseNow(Instant now) {
            double seconds = (passRemaining + dirty) / (double) Math.max(1, options.bandwidthBytesPerSecond());
            return !now.plusNanos((long) (seconds * 1e9)).isBefore(options.pauseBy());
        }

        boolean fitsDowntime(long bytes) {
            long bandwidth = Math.max(1, options.bandwidthBytesPerSecond());
            return bytes * 1000.0 / bandwidth <= options.maxDowntime().toMillis();
        }

        void fail(Instant now, String reason) {
            state = MigrationProgress.State.FAILED;
            failureReason = reason;
            endedAt = now;
        }

        MigrationProgress progress() {
            long remaining = state == MigrationProgress.State.COMPLETED ? 0 : passRemaining + dirty;
            return new MigrationProgress(vmiUid, target.nodeName(), state, mode, memory, processed, remaining,
                    state == MigrationProgress.State.RUNNING ? options.bandwidthBytesPerSecond() : 0, iteration,
                    startedAt, endedAt, failureReason);
        }
    }

    /** The node went away: every domain on it is gone, as after a power loss. */
    void powerOff() {
        List<String> alive;
        synchronized (this) {
            alive = new ArrayList<>(domains.keySet());
        }
        alive.forEach(this::destroy);
    }

    @Override
    public synchronized long memoryInUseBytes() {
        long sum = 0;
        for (Domain d : domains.values()) {
            sum += d.memoryInUseBytes();
        }
        return sum;
    }

    @Override
    public void addListener(DomainListener listener) {
        listeners.add(listener);
    }

    @Override
    public void removeListener(DomainListener listener) {
        listeners.remove(listener);
    }

    private void stop(String vmiUid, DomainState state, StopReason reason) {
        Domain changed;
        synchronized (this) {
            Domain d = domains.get(vmiUid);
            if (d == null || !d.isAlive()) {
                return;
            }
            changed = copy(d, state, reason, d.gracefulShutdownRequested(), d.shutdownRequestedAt());
            domains.put(vmiUid, changed);
        }
        notifyListeners(changed);
    }

    /** A timed step, applied only if nothing else moved the domain meanwhile. */
    private void transition(String vmiUid, DomainState from, DomainState to, StopReason reason) {
        Domain changed;
        synchronized (this) {
            Domain d = domains.get(vmiUid);
            if (d == null || d.state() != from) {
                return;
            }
            changed = copy(d, to, reason, d.gracefulShutdownRequested(), d.shutdownRequestedAt());
            domains.put(vmiUid, changed);
        }
        notifyListeners(changed);
    }

    private Domain copy(Domain d, DomainState state, StopReason reason, boolean gracefulRequested,
                        java.time.Instant shutdownRequestedAt) {
        var startedAt = d.startedAt() == null && state == DomainState.RUNNING ? clock.instant() : d.startedAt();
        return new Domain(d.vmiUid(), d.namespace(), d.name(), nodeName, state, reason, d.memoryBytes(),
                d.gracePeriodSeconds(), gracefulRequested, shutdownRequestedAt, d.incoming(), startedAt,
                d.gracefulShutdownRequestedAt());
    }

    /** A null delay is "never". */
    private void after(Duration delay, Runnable step) {
        if (delay == null) {
            return;
        }
        if (delay.isZero() || delay.isNegative()) {
            step.run();
        } else if (!timers.isShutdown()) {
            timers.schedule(step, delay.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    private void notifyListeners(Domain domain) {
        synchronized (notifyLock) {
            for (DomainListener l : listeners) {
                try {
                    l.onDomainChanged(domain);
                } catch (RuntimeException e) {
                    // A listener's bug must not stop the guest.
                }
            }
        }
    }

    /**
     * A duration knob (real time, divided by the time scale; the fallback is already scaled); {@code never} is null
     * (the step never happens); a malformed value keeps the default.
     */
    static Duration knob(Map<String, String> annotations, String key, Duration fallback, double timeScale) {
        Duration value = knob(annotations, key, null);
        if (value == null) {
            String text = annotations.get(key);
            return text != null && text.trim().equals(NEVER) ? null : fallback;
        }
        return dev.drainboard.kubevirt.config.ClusterConfig.scaled(value, timeScale);
    }

    /** A duration knob; {@code never} is null (the step never happens); a malformed value keeps the default. */
    static Duration knob(Map<String, String> annotations, String key, Duration fallback) {
        String text = annotations.get(key);
        if (text == null || text.isBlank()) {
            return fallback;
        }
        if (text.trim().equals(NEVER)) {
            return null;
        }
        try {
            return GoDurations.parse(text.trim());
        } catch (IllegalArgumentException e) {
            return fallback;
        }
    }
}
