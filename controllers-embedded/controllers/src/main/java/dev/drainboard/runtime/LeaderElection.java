package dev.drainboard.runtime;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElectionConfig;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElector;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaseLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Leader election on a {@code coordination.k8s.io/v1} Lease, so that of several Drainboards on one
 * cluster exactly one runs the controllers.
 *
 * <p>Timing (defaults): the leader renews every 2 s; if it cannot renew for 7 s it stops its
 * controllers; the Lease is valid for 10 s after the last renewal. The 3 s between giving up and
 * the Lease expiring is what keeps two leaders from acting at once. A crashed leader is replaced
 * once its Lease expires, then at the next candidate retry, which fabric8 jitters to 2–4.4 s: at
 * most 10 + 4.4 = 14.4 s after the crash, inside the 15 s Drainboard promises. (Kubernetes'
 * usual 15/10/2 s would allow up to 19.4 s with fabric8's jitter; pass it with
 * {@link Options#withTiming} if wanted.)
 *
 * <p>Those 3 s assume the old leader's timers run on time. A leader that stalled (a long GC pause, a starved CPU)
 * can find another holder in the Lease while it still thinks it leads; it then stops its controllers the moment it
 * sees that holder (a watch on the Lease while leading, and every renewal's read), instead of running on until its
 * renew deadline with two leaders acting at once (found by the chaos test, docs/reliability.md).
 *
 * <p>A clean {@link #stop} first stops the controllers, then releases the Lease (empties the
 * holder), so another Drainboard takes over at its next retry instead of waiting 15 s.
 *
 * <p>fabric8's {@link LeaderElector} is single-use: once it loses the Lease it is done. This class
 * starts a new campaign then, so a Drainboard that lost leadership (network hiccup) becomes a
 * candidate again instead of idling for good.
 */
public final class LeaderElection implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(LeaderElection.class);

    /**
     * @param namespace     namespace of the Lease (it must exist)
     * @param leaseName     name of the Lease
     * @param identity      this process's holder identity, see {@link LeaderIdentity}
     * @param leaseDuration how long a Lease stays valid after a renewal
     * @param renewDeadline how long the leader keeps trying to renew before it steps down
     * @param retryPeriod   how often candidates try and the leader renews
     */
    public record Options(String namespace, String leaseName, String identity,
                          Duration leaseDuration, Duration renewDeadline, Duration retryPeriod) {

        public static final String DEFAULT_LEASE_NAME = "drainboard-controllers";
        public static final String DEFAULT_NAMESPACE = "kube-system";
        public static final Duration DEFAULT_LEASE_DURATION = Duration.ofSeconds(10);
        public static final Duration DEFAULT_RENEW_DEADLINE = Duration.ofSeconds(7);
        public static final Duration DEFAULT_RETRY_PERIOD = Duration.ofSeconds(2);

        public Options {
            Objects.requireNonNull(namespace);
            Objects.requireNonNull(leaseName);
            Objects.requireNonNull(identity);
            if (renewDeadline.compareTo(leaseDuration) >= 0 || retryPeriod.compareTo(renewDeadline) >= 0) {
                throw new IllegalArgumentException("need retryPeriod < renewDeadline < leaseDuration");
            }
        }

        public static Options defaults() {
            return new Options(DEFAULT_NAMESPACE, DEFAULT_LEASE_NAME, LeaderIdentity.generate(),
                    DEFAULT_LEASE_DURATION, DEFAULT_RENEW_DEADLINE, DEFAULT_RETRY_PERIOD);
        }

        public Options withNamespace(String ns) {
            return new Options(ns, leaseName, identity, leaseDuration, renewDeadline, retryPeriod);
        }

        public Options withLeaseName(String name) {
            return new Options(namespace, name, identity, leaseDuration, renewDeadline, retryPeriod);
        }

        public Options withIdentity(String id) {
            return new Options(namespace, leaseName, id, leaseDuration, renewDeadline, retryPeriod);
        }

        public Options withTiming(Duration lease, Duration renew, Duration retry) {
            return new Options(namespace, leaseName, identity, lease, renew, retry);
        }
    }

    private final KubernetesClient client;
    private final Options options;
    private final Runnable onStartLeading;
    private final Runnable onStopLeading;
    private final ExecutorService executor;

    private volatile boolean leader;
    private final AtomicReference<Watch> leaseWatch = new AtomicReference<>();
    private volatile String currentLeader;
    // Guarded by this.
    private CompletableFuture<?> campaign;
    private boolean running;

    /**
     * @param onStartLeading called when this process becomes leader (start the controllers); must not block long
     * @param onStopLeading  called when it stops being leader, before the Lease is released; may block
     *                       until the controllers have stopped
     */
    public LeaderElection(KubernetesClient client, Options options, Runnable onStartLeading, Runnable onStopLeading) {
        this.client = client;
        this.options = options;
        this.onStartLeading = onStartLeading;
        this.onStopLeading = onStopLeading;
        this.executor = Executors.newCachedThreadPool(Thread.ofPlatform().daemon().name("leader-election-", 0).factory());
    }

    /** Becomes a candidate. Returns at once; the callbacks say when this process leads. */
    public synchronized void start() {
        if (running) {
            return;
        }
        running = true;
        campaign();
    }

    private synchronized void campaign() {
        if (!running) {
            return;
        }
        LeaderElectionConfig config = new LeaderElectionConfig(
                new LeaseLock(options.namespace(), options.leaseName(), options.identity()),
                options.leaseDuration(), options.renewDeadline(), options.retryPeriod(),
                new LeaderCallbacks(this::startedLeading, this::stoppedLeading, this::newLeader),
                true, // release on cancel: a clean stop hands over at once
                options.leaseName());
        CompletableFuture<?> thisCampaign = new LeaderElector(client, config, executor).start();
        campaign = thisCampaign;
        thisCampaign.whenComplete((v, t) -> {
            // The elector ends when it loses the Lease or is cancelled; a lost Lease means: try again.
            synchronized (this) {
                if (running && campaign == thisCampaign) {
                    log.info("leader election for {} ended ({}); standing again", lease(), t == null ? "lost the lease" : t.toString());
                    CompletableFuture.delayedExecutor(options.retryPeriod().toMillis(), TimeUnit.MILLISECONDS, executor)
                            .execute(this::campaign);
                }
            }
        });
    }

    private void startedLeading() {
        synchronized (this) {
            if (!running || leader) {
                return;
            }
            leader = true;
        }
        currentLeader = options.identity();
        log.info("{} is now the leader of {}", options.identity(), lease());
        watchLease();
        try {
            onStartLeading.run();
        } catch (RuntimeException e) {
            log.error("starting the controllers failed", e);
        }
    }

    private void stoppedLeading() {
        synchronized (this) {
            if (!leader) {
                return;
            }
            leader = false;
        }
        log.info("{} is no longer the leader of {}", options.identity(), lease());
        unwatchLease();
        try {
            onStopLeading.run();
        } catch (RuntimeException e) {
            log.error("stopping the controllers failed", e);
        }
    }

    private void newLeader(String identity) {
        currentLeader = identity;
        if (identity != null && !identity.equals(options.identity())) {
            lostTo(identity);
        }
    }

    /**
     * Another process holds the Lease while this one still thinks it leads: it took over a Lease that had expired
     * (this process stalled: a long GC pause, a starved CPU, a stale renewal). fabric8's elector would keep the
     * controllers running until its renew deadline passed (seconds with two leaders acting at once); stop them now and
     * stand again. The Lease is not released: it is not ours.
     */
    private void lostTo(String holder) {
        CompletableFuture<?> c;
        synchronized (this) {
            if (!leader) {
                return;
            }
            c = campaign;
        }
        log.warn("{} sees {} holding the Lease {}: stopping its controllers at once", options.identity(), holder, lease());
        stoppedLeading();
        if (c != null) {
            c.cancel(true); // the elector ends; campaign() stands again after the retry period
        }
    }

    /** Watches the Lease while leading, so a take-over is seen at once rather than at the next renewal. */
    private void watchLease() {
        try {
            Watch w = client.leases().inNamespace(options.namespace()).withName(options.leaseName()).watch(new Watcher<>() {
                @Override
                public void eventReceived(Action action, Lease lease) {
                    String holder = lease == null || lease.getSpec() == null ? null : lease.getSpec().getHolderIdentity();
                    if (action == Action.MODIFIED && holder != null && !holder.isEmpty() && !holder.equals(options.identity())) {
                        currentLeader = holder;
                        executor.execute(() -> lostTo(holder));
                    }
                }

                @Override
                public void onClose(WatcherException cause) {
                    // Renewals still notice a take-over (the elector's observed record).
                }
            });
            Watch previous = leaseWatch.getAndSet(w);
            if (previous != null) {
                previous.close();
            }
        } catch (RuntimeException e) {
            log.debug("cannot watch the Lease {}: {}", lease(), e.toString());
        }
    }

    private void unwatchLease() {
        Watch w = leaseWatch.getAndSet(null);
        if (w != null) {
            w.close();
        }
    }

    /**
     * Stops the controllers (if leading), then releases the Lease so another candidate takes over
     * at once. Blocks until both are done.
     */
    public void stop() {
        CompletableFuture<?> c;
        synchronized (this) {
            if (!running) {
                return;
            }
            running = false;
            c = campaign;
            campaign = null;
        }
        // Controllers stop before the Lease is let go: never two leaders acting at once.
        stoppedLeading();
        if (c != null) {
            c.cancel(true); // fabric8 releases the Lease synchronously in this call
        }
        if (Objects.equals(currentLeader, options.identity())) {
            currentLeader = null;
        }
    }

    /**
     * Simulates this process dying: controllers stop and the elector stops renewing, but the Lease
     * is not released, so the others must wait for it to expire. For tests.
     */
    void haltWithoutRelease() {
        synchronized (this) {
            running = false;
            campaign = null;
        }
        stoppedLeading();
        executor.shutdownNow(); // no more renewals; the abandoned elector can reach nothing
    }

    public boolean isLeader() {
        return leader;
    }

    /** The Lease holder as last observed by this process's elector; null if none or unknown. */
    public String currentLeader() {
        return currentLeader;
    }

    public String identity() {
        return options.identity();
    }

    public String lease() {
        return options.namespace() + "/" + options.leaseName();
    }

    public LeaderState state() {
        return new LeaderState(options.identity(), leader, currentLeader, lease());
    }

    @Override
    public void close() {
        stop();
        executor.shutdownNow();
    }
}
