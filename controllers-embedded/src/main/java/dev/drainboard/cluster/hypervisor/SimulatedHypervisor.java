package dev.drainboard.cluster.hypervisor;

import dev.drainboard.cluster.kubelet.GoDurations;
import dev.drainboard.handler.Domain;
import dev.drainboard.handler.DomainDefinition;
import dev.drainboard.handler.DomainListener;
import dev.drainboard.handler.DomainState;
import dev.drainboard.handler.Hypervisor;
import dev.drainboard.handler.StopReason;
import dev.drainboard.kubevirt.KubeVirtNames;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
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
 */
public final class SimulatedHypervisor implements Hypervisor {

    public static final String BOOT_DELAY = KubeVirtNames.Simulation.BOOT_DELAY;
    public static final String GUEST_SHUTDOWN_DELAY = KubeVirtNames.Simulation.GUEST_SHUTDOWN_DELAY;
    public static final String NEVER = "never";

    /** Defaults when a VMI sets no knob. */
    public record Timing(Duration bootDelay, Duration guestShutdownDelay) {
        public static Timing defaults() {
            return new Timing(Duration.ofMillis(100), Duration.ofMillis(500));
        }
    }

    private final String nodeName;
    private final Clock clock;
    private final ScheduledExecutorService timers;
    private final Timing timing;
    private final Map<String, Domain> domains = new LinkedHashMap<>();
    private final Map<String, Duration> shutdownDelays = new LinkedHashMap<>();
    private final List<DomainListener> listeners = new CopyOnWriteArrayList<>();
    /** Serialises listener calls so they see this node's changes in order. */
    private final Object notifyLock = new Object();

    public SimulatedHypervisor(String nodeName, Clock clock, ScheduledExecutorService timers, Timing timing) {
        this.nodeName = nodeName;
        this.clock = clock;
        this.timers = timers;
        this.timing = timing;
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
        Duration boot = knob(d.annotations(), BOOT_DELAY, timing.bootDelay());
        synchronized (this) {
            Domain existing = domains.get(d.vmiUid());
            if (existing != null) {
                return existing;
            }
            domain = new Domain(d.vmiUid(), d.namespace(), d.name(), nodeName, DomainState.STARTING, StopReason.NONE,
                    d.memoryBytes(), d.gracePeriodSeconds(), false, null, false, null);
            domains.put(d.vmiUid(), domain);
            Duration shutdown = knob(d.annotations(), GUEST_SHUTDOWN_DELAY, timing.guestShutdownDelay());
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
            changed = copy(d, d.state(), d.stopReason(), true, d.shutdownRequestedAt());
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
            removed = Domain.none(d.vmiUid(), d.namespace(), d.name(), nodeName);
        }
        notifyListeners(removed);
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
                d.gracePeriodSeconds(), gracefulRequested, shutdownRequestedAt, d.incoming(), startedAt);
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
