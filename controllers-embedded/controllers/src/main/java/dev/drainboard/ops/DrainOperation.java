package dev.drainboard.ops;

import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.units.GoDurations;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * One running drain of one node: preview, cordon, then evict every pod through the eviction API until each is
 * really gone. Retries are driven by what changes, watched through informers: the pod (it finished, it went), its
 * VMI (it moved, its mark or strategy changed) and the PodDisruptionBudgets of its namespace (a disruption is now
 * allowed); {@link DrainOptions#retryInterval()} only is the fallback when nothing changes.
 *
 * <p>All state lives on one thread (the drain's loop): informer events, answers and timers are posted to it, so
 * nothing here needs a lock and listeners see changes in order.
 */
public final class DrainOperation {

    private static final Logger LOG = LoggerFactory.getLogger(DrainOperation.class);
    /** A burst of events (a VMI's status written several times) makes at most one eviction per pod in this time. */
    static final Duration MIN_RETRY_GAP = Duration.ofMillis(500);
    /**
     * Eviction requests in flight at once. A node's worth of evictions sent together makes the API server, the
     * eviction webhook and the controllers handle dozens of VMI marks in the same instant, and the first migrations
     * wait behind them; a few at a time still marks every VMI long before a migration slot frees.
     */
    static final int MAX_EVICTIONS_IN_FLIGHT = 8;

    private final KubernetesClient client;
    private final PodEviction eviction;
    private final NodeOps nodes;
    private final String node;
    /** The nodes drained at the same time (this one included): the placement check counts them all gone. */
    private final List<String> together;
    private final Supplier<List<DrainPreview>> previews;
    private final DrainOptions options;
    private final ScheduledExecutorService loop;
    private final List<DrainListener> listeners = new CopyOnWriteArrayList<>();
    private final CompletableFuture<DrainResult> result = new CompletableFuture<>();
    private final Instant startedAt = Instant.now();

    // Loop thread only.
    private final Map<String, Track> tracks = new LinkedHashMap<>();
    /** Tracks whose attempt waits for a request to end (see {@link #MAX_EVICTIONS_IN_FLIGHT}). */
    private final ArrayDeque<Track> waitingToSend = new ArrayDeque<>();
    private int requestsInFlight;
    private final List<SharedIndexInformer<?>> informers = new ArrayList<>();
    private SharedIndexInformer<Pod> pods;
    /** The informers have listed: a pod missing from the cache is really gone. */
    private boolean listed;
    private SharedIndexInformer<VirtualMachineInstance> vmis;
    private DrainPreview preview;
    /** The previews of the nodes drained together with this one. */
    private List<DrainPreview> others = List.of();
    private DrainProgress.Phase phase = DrainProgress.Phase.PREPARING;
    private ScheduledFuture<?> timeout;

    private volatile DrainProgress latest;

    /**
     * @param together the nodes drained at the same time, this one included
     * @param previews the previews of {@code together}, in its order (shared by their drains: see {@link SharedPreviews})
     */
    DrainOperation(KubernetesClient client, PodEviction eviction, String node, List<String> together,
                   Supplier<List<DrainPreview>> previews, DrainOptions options) {
        this.client = client;
        this.previews = Objects.requireNonNull(previews, "previews");
        this.eviction = eviction;
        this.nodes = new NodeOps(client);
        this.node = Objects.requireNonNull(node);
        if (!together.contains(node)) {
            throw new IllegalArgumentException("node " + node + " is not among the nodes drained together: " + together);
        }
        this.together = List.copyOf(together);
        this.options = Objects.requireNonNull(options);
        this.loop = Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform().daemon().name("drain-" + node).factory());
        this.latest = new DrainProgress(node, phase, null, List.of(), startedAt, Optional.empty());
    }

    void begin() {
        post(this::prepare);
    }

    public String node() {
        return node;
    }

    public DrainOptions options() {
        return options;
    }

    /** The latest snapshot. */
    public DrainProgress progress() {
        return latest;
    }

    /** Completes once the drain has ended, never exceptionally. */
    public CompletableFuture<DrainResult> result() {
        return result;
    }

    /** Waits for the end. */
    public DrainResult await() {
        return result.join();
    }

    /** Adds a listener and hands it the latest snapshot at once (on the drain's thread). */
    public AutoCloseable addListener(DrainListener listener) {
        listeners.add(Objects.requireNonNull(listener));
        post(() -> notify(listener, latest));
        return () -> listeners.remove(listener);
    }

    /** Stops retrying and ends the drain as CANCELLED (the node stays cordoned; evictions already accepted stand). */
    public void cancel() {
        post(() -> finish(DrainResult.Status.CANCELLED, "cancelled"));
    }

    // ---- the loop

    private void prepare() {
        LOG.debug("drain of {}: preparing, {} ms after the JVM started", node, sinceJvmStart());
        try {
            List<DrainPreview> all = previews.get();
            preview = all.get(together.indexOf(node));
            others = all.stream().filter(p -> p != preview).toList();
            LOG.debug("drain of {}: read and previewed, {} ms after the JVM started", node, sinceJvmStart());
        } catch (OpsException e) {
            finish(DrainResult.Status.FAILED, e.getMessage());
            return;
        }
        if (options.dryRun()) {
            finish(DrainResult.Status.DRY_RUN, "dry run: nothing was written");
            return;
        }
        if (!preview.canStart()) {
            // Refused before cordoning: a drain that cannot start leaves the node as it was.
            finish(DrainResult.Status.FAILED, String.join("; ", preview.errors()));
            return;
        }
        String blocked = DrainRules.refusalForBlockers(preview, others, options);
        if (blocked != null) {
            // As kubectl refuses DaemonSet pods: nothing cordoned, each blocker named.
            finish(DrainResult.Status.FAILED, blocked);
            return;
        }
        phase = DrainProgress.Phase.CORDONING;
        publish();
        try {
            nodes.cordon(node);
        } catch (OpsException e) {
            finish(DrainResult.Status.FAILED, "cannot cordon: " + e.getMessage());
            return;
        }
        LOG.debug("drain of {}: cordoned, {} ms after the JVM started", node, sinceJvmStart());
        for (PodPreview pod : preview.toEvict()) {
            tracks.put(pod.key(), new Track(pod));
        }
        phase = DrainProgress.Phase.EVICTING;
        CompletableFuture<Void> watching;
        try {
            watching = startInformers();
        } catch (KubernetesClientException e) {
            finish(DrainResult.Status.FAILED, "cannot watch the node's pods: " + OpsException.rootMessage(e));
            return;
        }
        if (!options.timeout().isZero()) {
            timeout = loop.schedule(() -> finish(DrainResult.Status.TIMED_OUT, timedOutWhy()),
                    options.timeout().toMillis(), TimeUnit.MILLISECONDS);
        }
        // The first evictions go out at once: the informers only drive the retries, so their start (a list and a
        // watch each) need not hold up the migrations a refused eviction sets off.
        for (Track track : tracks.values()) {
            schedule(track, Duration.ZERO);
        }
        publish();
        watching.whenComplete((ok, error) -> post(() -> {
            if (error != null) {
                finish(DrainResult.Status.FAILED, "cannot watch the node's pods: " + OpsException.rootMessage(error));
                return;
            }
            listed = true;
            // Pods that went between the preview and the watch's list: no event will tell.
            for (Track track : tracks.values()) {
                if (!track.state.isFinal() && DrainRules.observed(track.state, track.uid, pods.getStore().getByKey(track.key())) == PodState.GONE) {
                    track.set(PodState.GONE);
                }
            }
            publish();
            checkDone();
        }));
    }

    private static long sinceJvmStart() {
        return System.currentTimeMillis() - java.lang.management.ManagementFactory.getRuntimeMXBean().getStartTime();
    }

    /** The pod's state as the watch cache shows it; nothing is concluded before the cache has listed. */
    private PodState cached(Track track) {
        return listed ? DrainRules.observed(track.state, track.uid, pods.getStore().getByKey(track.key())) : track.state;
    }

    /** Starts the node's pod, VMI and PDB informers all at once; completes when every one has listed. */
    private CompletableFuture<Void> startInformers() {
        pods = client.pods().inAnyNamespace().withField("spec.nodeName", node).runnableInformer(0);
        pods.addEventHandler(handler(this::onPod));
        informers.add(pods);
        if (tracks.values().stream().anyMatch(t -> t.preview.vmi() != null)) {
            vmis = client.resources(VirtualMachineInstance.class).inAnyNamespace().runnableInformer(0);
            vmis.addEventHandler(handler(this::onVmi));
            informers.add(vmis);
        }
        SharedIndexInformer<PodDisruptionBudget> budgets = client.policy().v1().podDisruptionBudget().inAnyNamespace().runnableInformer(0);
        budgets.addEventHandler(handler(this::onBudget));
        informers.add(budgets);
        return CompletableFuture.allOf(informers.stream().map(i -> i.start().toCompletableFuture()).toArray(CompletableFuture[]::new));
    }

    /** Events go to the loop; a deletion is passed on as null with the last known object. */
    private <T> ResourceEventHandler<T> handler(java.util.function.BiConsumer<T, Boolean> onChange) {
        return new ResourceEventHandler<>() {
            @Override
            public void onAdd(T obj) {
                post(() -> onChange.accept(obj, false));
            }

            @Override
            public void onUpdate(T oldObj, T newObj) {
                post(() -> onChange.accept(newObj, false));
            }

            @Override
            public void onDelete(T obj, boolean deletedFinalStateUnknown) {
                post(() -> onChange.accept(obj, true));
            }
        };
    }

    private void onPod(Pod pod, boolean deleted) {
        Track track = tracks.get(pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName());
        if (track == null || done()) {
            return;
        }
        boolean sameIncarnation = Objects.equals(track.uid, pod.getMetadata().getUid());
        PodState next = deleted ? (sameIncarnation ? PodState.GONE : null) : DrainRules.observed(track.state, track.uid, pod);
        if (next != null && next != track.state) {
            track.set(next);
            publish();
            checkDone();
        } else if (!deleted && sameIncarnation && DrainPreview.isFinished(pod)) {
            // A finished pod is no longer protected: evicting it now removes it. No burst to damp here (a pod
            // finishes once), and for a migrated VMI this is the last step before the node counts as drained.
            retryNow(track);
        }
    }

    private void onVmi(VirtualMachineInstance vmi, boolean deleted) {
        for (Track track : tracks.values()) {
            if (DrainRules.concerns(track.preview, vmi)) {
                poke(track);
            }
        }
    }

    private void onBudget(PodDisruptionBudget pdb, boolean deleted) {
        for (Track track : tracks.values()) {
            if (track.preview.namespace().equals(pdb.getMetadata().getNamespace())) {
                poke(track);
            }
        }
    }

    private void retryNow(Track track) {
        if (awaitsRetry(track)) {
            schedule(track, Duration.ZERO);
        }
    }

    /** Refused or unanswered so far: another eviction attempt is what it waits for. */
    private boolean awaitsRetry(Track track) {
        return !done() && !track.state.isFinal() && track.state != PodState.EVICTED && track.state != PodState.PENDING;
    }

    /** Something the pod's eviction depends on changed: try again soon. */
    private void poke(Track track) {
        if (!awaitsRetry(track)) {
            return;
        }
        long sinceLast = track.lastAttemptNanos == 0 ? Long.MAX_VALUE : System.nanoTime() - track.lastAttemptNanos;
        long wait = Math.max(0, MIN_RETRY_GAP.toNanos() - sinceLast);
        schedule(track, Duration.ofNanos(wait));
    }

    /** Runs the next attempt after {@code delay}, unless one is already due sooner. */
    private void schedule(Track track, Duration delay) {
        long due = System.nanoTime() + delay.toNanos();
        if (track.next != null && !track.next.isDone() && track.nextDue <= due) {
            return;
        }
        if (track.next != null) {
            track.next.cancel(false);
        }
        track.nextDue = due;
        track.next = loop.schedule(() -> attempt(track), delay.toNanos(), TimeUnit.NANOSECONDS);
    }

    private void attempt(Track track) {
        track.next = null;
        if (done() || track.state.isFinal() || track.inFlight) {
            return;
        }
        if (track.state == PodState.EVICTED) {
            // Accepted earlier: only check, from the watch cache, whether it has gone (a missed event).
            PodState seen = cached(track);
            if (seen == PodState.GONE) {
                track.set(PodState.GONE);
                publish();
                checkDone();
            } else {
                schedule(track, options.retryInterval());
            }
            return;
        }
        if (requestsInFlight >= MAX_EVICTIONS_IN_FLIGHT) {
            if (!waitingToSend.contains(track)) {
                waitingToSend.add(track);
            }
            return;
        }
        requestsInFlight++;
        track.inFlight = true;
        track.attempts++;
        track.lastAttemptNanos = System.nanoTime();
        track.beforeAttempt = track.state;
        if (track.state == PodState.PENDING) {
            track.set(PodState.EVICTING);
        }
        publish();
        eviction.evictAsync(track.preview.namespace(), track.preview.name(), track.uid, options.gracePeriod(), false)
                .whenComplete((answer, error) -> post(() -> onAnswer(track, answer != null ? answer
                        : new EvictionResponse(0, "", OpsException.rootMessage(error)))));
    }

    private void onAnswer(Track track, EvictionResponse answer) {
        track.inFlight = false;
        requestsInFlight--;
        while (requestsInFlight < MAX_EVICTIONS_IN_FLIGHT && !waitingToSend.isEmpty()) {
            attempt(waitingToSend.poll());
        }
        if (done() || track.state.isFinal()) {
            return;
        }
        if (LOG.isDebugEnabled() && track.attempts == 1) {
            LOG.debug("drain of {}: first answer for {}: {}, {} ms after the JVM started", node, track.key(), answer.code(), sinceJvmStart());
        }
        track.lastCode = answer.code();
        track.lastMessage = answer.text();
        if (answer.accepted()) {
            track.set(PodState.EVICTED);
            schedule(track, options.retryInterval());
        } else if (answer.notFound()) {
            track.set(PodState.GONE);
        } else if (answer.tooManyRequests()) {
            VirtualMachineInstance vmi = vmis == null || track.preview.vmi() == null ? null
                    : vmis.getStore().getByKey(track.preview.namespace() + "/" + track.preview.vmi());
            track.set(DrainRules.afterRefusal(track.preview, vmi, answer.message()));
            schedule(track, options.retryInterval());
        } else if (answer.code() == 409) {
            // A UID precondition failed: a new pod has the name, so the one we drain is gone.
            PodState seen = cached(track);
            if (seen == PodState.GONE) {
                track.set(PodState.GONE);
            } else {
                track.set(track.beforeAttempt == PodState.PENDING ? PodState.EVICTING : track.beforeAttempt);
                schedule(track, options.retryInterval());
            }
        } else if (answer.unreachable()) {
            track.set(track.beforeAttempt == PodState.PENDING ? PodState.EVICTING : track.beforeAttempt);
            schedule(track, options.retryInterval());
        } else {
            track.set(PodState.FAILED);
        }
        publish();
        checkDone();
    }

    private void checkDone() {
        if (done()) {
            return;
        }
        List<Track> failed = tracks.values().stream().filter(t -> t.state == PodState.FAILED).toList();
        if (!failed.isEmpty()) {
            finish(DrainResult.Status.FAILED, String.join("; ", failed.stream()
                    .map(t -> "eviction of pod " + t.key() + " refused (HTTP " + t.lastCode + "): " + t.lastMessage).toList()));
        } else if (tracks.values().stream().allMatch(t -> t.state == PodState.GONE)) {
            finish(DrainResult.Status.DRAINED, DrainRules.drainedWhy(node, tracks.size(), preview.blockers().stream()
                    .filter(b -> b.cause() == Blocker.Cause.NOWHERE_TO_RUN).toList()));
        }
    }

    private String timedOutWhy() {
        List<String> left = tracks.values().stream().filter(t -> t.state != PodState.GONE)
                .map(t -> t.key() + " " + DrainRules.waitingFor(t.preview, t.state) + (t.lastMessage.isEmpty() ? "" : " (" + t.lastMessage + ")"))
                .toList();
        // As kubectl drain reports its timeout: Go's Duration.String (1m30s, 1h0m0s).
        return "timed out after " + GoDurations.format(options.timeout().toNanos()) + " with " + left.size() + " pod(s) left: " + String.join("; ", left);
    }

    private void finish(DrainResult.Status status, String why) {
        if (done()) {
            return;
        }
        phase = DrainProgress.Phase.ENDED;
        if (timeout != null) {
            timeout.cancel(false);
        }
        tracks.values().forEach(t -> {
            if (t.next != null) {
                t.next.cancel(false);
            }
        });
        List<Blocker> stranded = status == DrainResult.Status.DRAINED && preview != null ? preview.blockers().stream()
                .filter(b -> b.cause() == Blocker.Cause.NOWHERE_TO_RUN).toList() : List.of();
        DrainResult end = new DrainResult(node, status, why, snapshots(), stranded);
        latest = new DrainProgress(node, phase, preview, end.pods(), startedAt, Optional.of(end));
        listeners.forEach(l -> notify(l, latest));
        result.complete(end);
        LOG.info("drain of {} ended {}: {}", node, status, why);
        // After the result: whoever waits for it (a CLI about to exit) need not wait for the watches to close.
        informers.forEach(SharedIndexInformer::close);
        LOG.debug("drain of {}: informers closed, {} ms after the JVM started", node, sinceJvmStart());
        loop.shutdown();
    }

    private boolean done() {
        return result.isDone();
    }

    private void publish() {
        latest = new DrainProgress(node, phase, preview, snapshots(), startedAt, Optional.empty());
        listeners.forEach(l -> notify(l, latest));
    }

    private List<PodProgress> snapshots() {
        return tracks.values().stream().map(Track::snapshot).toList();
    }

    private static void notify(DrainListener listener, DrainProgress progress) {
        try {
            listener.onProgress(progress);
        } catch (RuntimeException e) {
            LOG.warn("drain listener failed", e);
        }
    }

    private void post(Runnable task) {
        try {
            loop.execute(() -> {
                try {
                    task.run();
                } catch (RuntimeException e) {
                    LOG.error("drain of {} failed unexpectedly", node, e);
                    finish(DrainResult.Status.FAILED, "internal error: " + e);
                }
            });
        } catch (RejectedExecutionException e) {
            // ended: late events and answers are of no interest any more
        }
    }

    /** One pod's drain state (loop thread only). */
    private static final class Track {
        final PodPreview preview;
        final String uid;
        PodState state = PodState.PENDING;
        PodState beforeAttempt = PodState.PENDING;
        Instant since = Instant.now();
        int attempts;
        int lastCode;
        String lastMessage = "";
        long lastAttemptNanos;
        boolean inFlight;
        ScheduledFuture<?> next;
        long nextDue;

        Track(PodPreview preview) {
            this.preview = preview;
            this.uid = preview.uid();
        }

        String key() {
            return preview.key();
        }

        void set(PodState next) {
            if (next != state) {
                state = next;
                since = Instant.now();
            }
        }

        PodProgress snapshot() {
            return new PodProgress(preview.namespace(), preview.name(), uid, state, attempts, lastCode, lastMessage, preview, since);
        }
    }

}
