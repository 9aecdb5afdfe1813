package dev.drainboard.controller.history;

import dev.drainboard.history.DrainRecord;
import dev.drainboard.history.DrainRecordSpec;
import dev.drainboard.history.DrainRecordStatus;
import dev.drainboard.history.HistoryLimits;
import dev.drainboard.history.HistoryStore;
import dev.drainboard.history.HistoryUnavailableException;
import dev.drainboard.history.RecordKind;
import dev.drainboard.history.RecordResult;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceMigration;
import dev.drainboard.runtime.ControllerManager;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Records evacuations while this process leads: every node whose VMIs someone marked for evacuation (the eviction
 * webhook marks them when {@code kubectl drain} evicts their launchers) gets a DrainRecord of kind Evacuation,
 * started by "evacuation", kept up to date until no VMI is marked for the node any more. A node that a Drainboard
 * drain covers is left to that drain's own record. An evacuation is followed from its first mark but written only
 * {@link #SETTLE} later (also when it has ended by then), so a Drainboard drain has written its record before the
 * loop decides the marks are someone else's.
 */
public final class EvacuationRecorder implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(EvacuationRecorder.class);
    static final Duration TICK = Duration.ofSeconds(1);
    static final Duration SETTLE = Duration.ofSeconds(3);
    /** How long before the first mark a Drainboard drain that has already ended may have started and still be its cause. */
    static final Duration DRAIN_BEFORE_MARKS = Duration.ofMinutes(2);
    static final String STARTED_BY = "evacuation";

    private final HistoryStore store;
    private final SharedIndexInformer<VirtualMachineInstance> vmis;
    private final SharedIndexInformer<VirtualMachineInstanceMigration> migrations;
    private final Clock clock;
    private final ScheduledExecutorService loop = Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().daemon().name("evacuation-history").factory());

    // Loop thread only.
    private ScheduledFuture<?> ticking;
    /** Nodes whose marks a Drainboard drain made: left alone until their marks clear. */
    private final Set<String> drainboards = new HashSet<>();
    private final Map<String, Tracked> tracked = new LinkedHashMap<>();
    private boolean unavailable;

    EvacuationRecorder(HistoryStore store, SharedIndexInformer<VirtualMachineInstance> vmis,
                       SharedIndexInformer<VirtualMachineInstanceMigration> migrations, Clock clock) {
        this.store = store;
        this.vmis = vmis;
        this.migrations = migrations;
        this.clock = clock;
    }

    /** Runs the loop while {@code manager} leads. */
    public static EvacuationRecorder register(ControllerManager manager, SharedIndexInformer<VirtualMachineInstance> vmis,
                                             SharedIndexInformer<VirtualMachineInstanceMigration> migrations) {
        EvacuationRecorder recorder = new EvacuationRecorder(new HistoryStore(manager.client()), vmis, migrations, Clock.systemUTC());
        manager.onLeadershipChange(recorder::leading);
        return recorder;
    }

    void leading(boolean leader) {
        try {
            loop.execute(() -> leadingChanged(leader));
        } catch (java.util.concurrent.RejectedExecutionException e) {
            // closed: the control plane is stopping, and tells its listeners last
        }
    }

    private void leadingChanged(boolean leader) {
        if (leader && ticking == null) {
            unavailable = false;
            ticking = loop.scheduleWithFixedDelay(this::tickSafely, TICK.toMillis(), TICK.toMillis(), TimeUnit.MILLISECONDS);
        } else if (!leader && ticking != null) {
            ticking.cancel(false);
            ticking = null;
            tracked.clear();
            drainboards.clear();
        }
    }

    private void tickSafely() {
        try {
            tick();
        } catch (HistoryUnavailableException e) {
            if (e.permanent()) {
                // No CRD or no permission: nothing to record here; said once, tried again on the next leadership.
                LOG.info("evacuations are not recorded: {}", e.getMessage());
                unavailable = true;
            } else {
                LOG.warn("evacuation history: {}", e.getMessage());
            }
        } catch (RuntimeException e) {
            LOG.warn("evacuation history failed", e);
        }
    }

    private void tick() throws HistoryUnavailableException {
        if (unavailable || !vmis.hasSynced()) {
            return;
        }
        Instant now = clock.instant();
        Map<String, VirtualMachineInstance> all = new HashMap<>();
        vmis.getStore().list().forEach(v -> all.put(v.key(), v));
        Map<String, Set<String>> marked = EvacuationRecords.markedByNode(all.values());
        drainboards.retainAll(marked.keySet());
        for (var e : marked.entrySet()) {
            String node = e.getKey();
            Tracked t = tracked.get(node);
            if (t != null) {
                t.marked.addAll(e.getValue());
            } else if (!drainboards.contains(node)) {
                tracked.put(node, new Tracked(node, now, e.getValue()));
            }
        }
        List<DrainRecord> records = null;
        for (Tracked t : List.copyOf(tracked.values())) {
            for (VirtualMachineInstanceMigration m : migrations.getStore().list()) {
                String key = m.getMetadata().getNamespace() + "/" + m.getMetadata().getName();
                if (t.migrations.containsKey(key) || EvacuationRecords.belongs(m, t.marked, t.start)) {
                    t.migrations.put(key, EvacuationRecords.entry(m));
                }
            }
            boolean ended = EvacuationRecords.ended(marked.containsKey(t.node),
                    t.migrations.keySet().stream().map(key -> migrations.getStore().getByKey(key)).toList());
            if (!t.decided) {
                // Followed from the first mark, decided once the marks have stood (or ended) for SETTLE: a
                // Drainboard drain has written its own record by then.
                if (Duration.between(t.start, now).compareTo(SETTLE) < 0) {
                    continue;
                }
                if (records == null) {
                    records = store.list();
                }
                if (records.stream().anyMatch(r -> drainboards(r, t))) {
                    tracked.remove(t.node);
                    if (!ended) {
                        drainboards.add(t.node);
                    }
                    continue;
                }
                DrainRecord adopted = records.stream().filter(r -> running(r) && r.getSpec().kind() == RecordKind.Evacuation
                        && r.getSpec().nodes().equals(List.of(t.node))).findFirst().orElse(null);
                if (adopted != null) {
                    // Another leader's: carried on from where it was.
                    t.stored = adopted;
                    t.start = adopted.startedAt();
                    if (adopted.getStatus() != null) {
                        adopted.getStatus().migrations().forEach(m -> t.migrations.putIfAbsent(m.namespace() + "/" + m.name(), m));
                    }
                }
                t.decided = true;
            }
            RecordResult end = ended ? EvacuationRecords.end(t.node, t.marked, all) : null;
            DrainRecordStatus status = EvacuationRecords.status(t.node, t.start, now, end, t.marked, all, t.migrations.values());
            if (t.stored == null) {
                t.stored = store.create(new DrainRecord(DrainRecord.namePrefix("evacuation", List.of(t.node)),
                        new DrainRecordSpec(RecordKind.Evacuation, List.of(t.node), STARTED_BY, null)), status);
                t.written = withoutDuration(status);
                store.prune(HistoryLimits.RECORDS_KEPT);
            } else if (ended || !Objects.equals(withoutDuration(status), t.written)) {
                t.stored = store.writeStatus(t.stored, status);
                t.written = withoutDuration(status);
            }
            if (ended) {
                tracked.remove(t.node);
            }
        }
    }

    /** A Drainboard drain of the node, running or started about when the marks appeared: it has its own record. */
    private static boolean drainboards(DrainRecord r, Tracked t) {
        return r.getSpec() != null && r.getSpec().kind() == RecordKind.Drain && r.getSpec().nodes().contains(t.node)
                && (running(r) || !r.startedAt().isBefore(t.start.minus(DRAIN_BEFORE_MARKS)));
    }

    /** The status without its ever-changing duration: written only when something else changed. */
    private static DrainRecordStatus withoutDuration(DrainRecordStatus s) {
        return new DrainRecordStatus(s.result(), s.message(), s.startedAt(), s.endedAt(), null, s.pods(), s.migrations(),
                s.stranded(), s.omitted());
    }

    private static boolean running(DrainRecord r) {
        return r.getSpec() != null && (r.getStatus() == null || r.getStatus().result() == null
                || r.getStatus().result() == RecordResult.Running);
    }

    @Override
    public void close() {
        loop.shutdownNow();
    }

    /** One evacuation being recorded. */
    private static final class Tracked {
        final String node;
        Instant start;
        final Set<String> marked;
        final Map<String, DrainRecordStatus.MigrationEntry> migrations = new LinkedHashMap<>();
        DrainRecord stored;
        DrainRecordStatus written;
        /** Known to be someone else's evacuation: recorded. */
        boolean decided;

        Tracked(String node, Instant start, Set<String> marked) {
            this.node = node;
            this.start = start;
            this.marked = new java.util.TreeSet<>(marked);
        }
    }
}
