package dev.drainboard.ops;

import dev.drainboard.history.DrainRecord;
import dev.drainboard.history.DrainRecordSpec;
import dev.drainboard.history.DrainRecordStatus;
import dev.drainboard.history.HistoryLimits;
import dev.drainboard.history.HistoryStore;
import dev.drainboard.history.HistoryTimes;
import dev.drainboard.history.HistoryUnavailableException;
import dev.drainboard.history.MigrationEntries;
import dev.drainboard.history.RecordKind;
import dev.drainboard.history.RecordResult;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceMigration;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetAddress;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * Records Drainboard's drains and cancelled migrations as {@link DrainRecord}s in the cluster, so every console and
 * the CLI see them. A record is created as soon as the drains have their preview (it carries their estimate) and its
 * status follows them, written at most once per {@link #WRITE_INTERVAL}, until they end. On a cluster that does not
 * keep history (no CRD, or no permission) the drain runs as before and the notice is told, once per cluster, why.
 */
public final class DrainHistory {

    private static final Logger LOG = LoggerFactory.getLogger(DrainHistory.class);
    static final Duration WRITE_INTERVAL = Duration.ofSeconds(1);

    private final KubernetesClient client;
    private final HistoryStore store;
    private final String startedBy;
    private final Duration writeInterval;
    private final AtomicBoolean told = new AtomicBoolean();
    private volatile HistoryUnavailableException unavailable;
    private volatile Consumer<String> notice = message -> LOG.warn("{}", message);

    public DrainHistory(KubernetesClient client, String startedBy) {
        this(client, startedBy, WRITE_INTERVAL);
    }

    /** With another interval between status writes (tests: one so long that only the drains' end writes). */
    DrainHistory(KubernetesClient client, String startedBy, Duration writeInterval) {
        this.client = client;
        this.store = new HistoryStore(client);
        this.startedBy = startedBy;
        this.writeInterval = writeInterval;
    }

    /** {@code user@host} of this process. */
    public static String thisUser() {
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (java.io.IOException e) {
            host = "localhost";
        }
        return System.getProperty("user.name", "unknown") + "@" + host;
    }

    /** Where the one notice goes that this cluster keeps no history (the CLI's stderr, the console's status line). */
    public void onNotice(Consumer<String> notice) {
        this.notice = notice;
    }

    /** As {@link #record(List, Consumer)}, telling {@link #onNotice}. */
    public Recording record(List<DrainOperation> drains) {
        return record(drains, message -> notice.accept(message));
    }

    public HistoryStore store() {
        return store;
    }

    /** Why history is not kept here, once known; null while it is (or nothing was tried yet). */
    public HistoryUnavailableException unavailable() {
        return unavailable;
    }

    /**
     * Records these drains (started together) as one record. Returns at once; {@link Recording#written()} completes
     * once the end is written (or history turned out not to be kept), never exceptionally.
     *
     * @param notice told once, per DrainHistory, when this cluster does not keep history, with why and how to enable it
     */
    public Recording record(List<DrainOperation> drains, Consumer<String> notice) {
        Recording recording = new Recording(drains, notice);
        recording.start();
        return recording;
    }

    /** Records a migration the operator cancelled, as it was just before ({@code last}); never throws. */
    public void recordCancelledMigration(VirtualMachineInstanceMigration last) {
        if (unavailable != null) {
            return;
        }
        Instant now = Instant.now();
        DrainRecordStatus.MigrationEntry entry = MigrationEntries.cancelled(MigrationEntries.of(last),
                HistoryTimes.format(now), "cancelled by " + startedBy);
        List<String> nodes = entry.sourceNode() == null ? List.of() : List.of(entry.sourceNode());
        String started = entry.startedAt() != null ? entry.startedAt() : HistoryTimes.format(now);
        double duration = Math.max(0, Duration.between(HistoryTimes.parse(started), now).toMillis() / 1000.0);
        DrainRecordStatus status = new DrainRecordStatus(RecordResult.Cancelled,
                "migration " + entry.namespace() + "/" + entry.name() + " of VMI " + entry.vmi() + " cancelled",
                started, HistoryTimes.format(now), duration, List.of(), List.of(entry), List.of(), null);
        try {
            store.create(new DrainRecord(DrainRecord.namePrefix("cancel", List.of(entry.name())),
                    new DrainRecordSpec(RecordKind.MigrationCancel, nodes, startedBy, null)), status);
            store.prune(HistoryLimits.RECORDS_KEPT);
        } catch (HistoryUnavailableException e) {
            failed(e, message -> notice.accept(message));
        }
    }

    private void failed(HistoryUnavailableException e, Consumer<String> notice) {
        if (e.permanent()) {
            unavailable = e;
            if (told.compareAndSet(false, true)) {
                notice.accept(e.getMessage());
            }
        } else {
            LOG.warn("drain history: {}", e.getMessage());
        }
    }

    /** The record of drains started together. */
    public final class Recording {

        private final List<DrainOperation> drains;
        private final Consumer<String> notice;
        private final List<String> nodes;
        private final Instant startedAt = Instant.now();
        private final Map<String, DrainProgress> latest = new ConcurrentHashMap<>();
        /** Every migration of the drained VMIs seen since the start, kept after KubeVirt deletes it. */
        private final Map<String, DrainRecordStatus.MigrationEntry> migrations = new LinkedHashMap<>();
        private final Set<String> vmis = ConcurrentHashMap.newKeySet();
        private final ScheduledExecutorService writer;
        private final CompletableFuture<Void> written = new CompletableFuture<>();
        private SharedIndexInformer<VirtualMachineInstanceMigration> vmims;
        private volatile boolean dirty;
        private volatile String name;
        /** Writer thread only. */
        private DrainRecord stored;
        private boolean stopped;

        private Recording(List<DrainOperation> drains, Consumer<String> notice) {
            this.drains = List.copyOf(drains);
            this.notice = notice;
            this.nodes = drains.stream().map(DrainOperation::node).toList();
            this.writer = Executors.newSingleThreadScheduledExecutor(
                    Thread.ofPlatform().daemon().name("drain-history-" + String.join("-", nodes)).factory());
        }

        private void start() {
            // A dry run writes nothing, its record neither.
            if (unavailable != null || drains.isEmpty() || drains.stream().allMatch(d -> d.options().dryRun())) {
                written.complete(null);
                writer.shutdown();
                return;
            }
            for (DrainOperation drain : drains) {
                drain.addListener(progress -> {
                    latest.put(progress.node(), progress);
                    if (progress.preview() != null) {
                        progress.preview().pods().stream().filter(p -> p.vmi() != null)
                                .forEach(p -> vmis.add(p.namespace() + "/" + p.vmi()));
                    }
                    dirty = true;
                });
            }
            try {
                vmims = client.resources(VirtualMachineInstanceMigration.class).inAnyNamespace().runnableInformer(0);
                vmims.addEventHandler(new ResourceEventHandler<>() {
                    @Override
                    public void onAdd(VirtualMachineInstanceMigration m) {
                        seen(m, false);
                    }

                    @Override
                    public void onUpdate(VirtualMachineInstanceMigration old, VirtualMachineInstanceMigration m) {
                        seen(m, false);
                    }

                    @Override
                    public void onDelete(VirtualMachineInstanceMigration m, boolean unknown) {
                        seen(m, true);
                    }
                });
                vmims.start();
            } catch (KubernetesClientException e) {
                LOG.warn("drain history: cannot watch migrations: {}", e.getMessage());
            }
            writer.scheduleWithFixedDelay(this::tick, 0, writeInterval.toMillis(), TimeUnit.MILLISECONDS);
            // The end is written as soon as the last drain ends, not at the next tick: a CLI waits for it before it
            // exits (up to the write interval otherwise, docs/benchmarks.md "Cold drain from the command line").
            CompletableFuture.allOf(drains.stream().map(DrainOperation::result).toArray(CompletableFuture[]::new))
                    .whenComplete((ok, error) -> {
                        try {
                            writer.execute(this::tick);
                        } catch (java.util.concurrent.RejectedExecutionException stopped) {
                            // already ended (history not kept here)
                        }
                    });
        }

        /** The record's name once created, else null. */
        public String name() {
            return name;
        }

        /** Completes once the end is written, or history is not kept; never exceptionally. */
        public CompletableFuture<Void> written() {
            return written;
        }

        private void seen(VirtualMachineInstanceMigration m, boolean deleted) {
            String vmi = m.getMetadata().getNamespace() + "/" + (m.getSpec() == null ? "" : m.getSpec().getVmiName());
            Instant created = HistoryTimes.parse(m.getMetadata().getCreationTimestamp());
            // Creation times have whole seconds; an older migration of the same VMI is not this drain's.
            if (!vmis.contains(vmi) || created.isBefore(startedAt.truncatedTo(ChronoUnit.SECONDS))) {
                return;
            }
            String key = m.getMetadata().getNamespace() + "/" + m.getMetadata().getName();
            synchronized (migrations) {
                DrainRecordStatus.MigrationEntry entry = MigrationEntries.of(m);
                if (deleted && !m.isFinal()) {
                    entry = MigrationEntries.cancelled(entry, HistoryTimes.format(Instant.now()),
                            "deleted before it finished");
                }
                if (deleted && migrations.containsKey(key) && m.isFinal()) {
                    return; // garbage-collected: what it was is kept
                }
                migrations.put(key, entry);
            }
            dirty = true;
        }

        private void tick() {
            if (stopped) {
                return;
            }
            boolean ended = drains.stream().allMatch(d -> d.result().isDone());
            boolean previewed = drains.stream().allMatch(d -> d.result().isDone() || d.progress().preview() != null);
            if (!previewed || (!dirty && !ended && stored != null)) {
                return;
            }
            dirty = false;
            try {
                DrainRecordStatus status = status(ended);
                if (stored == null) {
                    stored = store.create(new DrainRecord(DrainRecord.namePrefix("drain", nodes),
                            new DrainRecordSpec(RecordKind.Drain, nodes, startedBy, estimate())), status);
                    name = stored.name();
                    store.prune(HistoryLimits.RECORDS_KEPT);
                } else {
                    stored = store.writeStatus(stored, status);
                }
                if (ended) {
                    stop();
                }
            } catch (HistoryUnavailableException e) {
                failed(e, notice);
                if (e.permanent() || ended) {
                    stop();
                }
            } catch (RuntimeException e) {
                LOG.warn("drain history: cannot record", e);
                if (ended) {
                    stop();
                }
            }
        }

        private void stop() {
            stopped = true;
            if (vmims != null) {
                vmims.close();
            }
            written.complete(null);
            writer.shutdown();
        }

        /** The total estimate: the latest end of any node's migrations. */
        private Double estimate() {
            Double total = null;
            for (DrainOperation d : drains) {
                DrainProgress p = latest.getOrDefault(d.node(), d.progress());
                Double e = p == null || p.preview() == null ? null : p.preview().estimateSeconds();
                if (e != null) {
                    total = total == null ? e : Math.max(total, e);
                }
            }
            return total;
        }

        private DrainRecordStatus status(boolean ended) {
            Instant now = Instant.now();
            List<DrainResult> results = new ArrayList<>();
            List<DrainRecordStatus.PodEntry> pods = new ArrayList<>();
            List<DrainRecordStatus.StrandedEntry> stranded = new ArrayList<>();
            for (DrainOperation d : drains) {
                DrainProgress p = d.result().isDone() ? d.progress() : latest.getOrDefault(d.node(), d.progress());
                if (d.result().isDone()) {
                    results.add(d.result().join());
                }
                for (PodProgress pod : p.pods()) {
                    pods.add(new DrainRecordStatus.PodEntry(pod.namespace(), pod.name(), d.node(), pod.preview().vmi(),
                            pod.preview().outcome().name(), pod.state().name(), pod.attempts(),
                            HistoryLimits.cut(pod.lastMessage().isEmpty() ? pod.preview().reason() : pod.lastMessage())));
                }
            }
            for (DrainResult r : results) {
                for (Blocker b : r.stranded()) {
                    stranded.add(new DrainRecordStatus.StrandedEntry(b.kind(), b.namespace(), b.name(), HistoryLimits.cut(b.reason())));
                }
            }
            List<DrainRecordStatus.MigrationEntry> moved;
            synchronized (migrations) {
                moved = new ArrayList<>(migrations.values());
            }
            int omitted = Math.max(0, pods.size() - HistoryLimits.ENTRIES_PER_LIST)
                    + Math.max(0, moved.size() - HistoryLimits.ENTRIES_PER_LIST)
                    + Math.max(0, stranded.size() - HistoryLimits.ENTRIES_PER_LIST);
            RecordResult result = ended ? result(results) : RecordResult.Running;
            String message = ended ? HistoryLimits.cut(String.join("; ", results.stream()
                    .map(r -> "node/" + r.node() + ": " + r.why()).toList())) : null;
            return new DrainRecordStatus(result, message, HistoryTimes.format(startedAt),
                    ended ? HistoryTimes.format(now) : null, Duration.between(startedAt, now).toMillis() / 1000.0,
                    head(pods), head(moved), head(stranded), omitted == 0 ? null : omitted);
        }
    }

    private static <T> List<T> head(List<T> list) {
        return list.size() <= HistoryLimits.ENTRIES_PER_LIST ? list : list.subList(0, HistoryLimits.ENTRIES_PER_LIST);
    }

    /** The worst end of the drains started together. */
    static RecordResult result(List<DrainResult> results) {
        Set<DrainResult.Status> ends = new LinkedHashSet<>();
        results.forEach(r -> ends.add(r.status()));
        if (ends.contains(DrainResult.Status.CANCELLED)) {
            return RecordResult.Cancelled;
        }
        if (ends.contains(DrainResult.Status.TIMED_OUT)) {
            return RecordResult.TimedOut;
        }
        if (ends.contains(DrainResult.Status.FAILED)) {
            return RecordResult.Failed;
        }
        return results.stream().anyMatch(r -> !r.stranded().isEmpty()) ? RecordResult.Stranded : RecordResult.Drained;
    }
}
