package dev.drainboard.runtime;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectReference;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * Writes core/v1 Events about objects, so {@code kubectl get events} and the UI show what the
 * controllers did and why.
 *
 * <ul>
 *   <li><b>Never in the way:</b> {@link #event} only queues; one background thread writes. A full
 *       queue or an API error drops the event with a log line: an event is worth less than the
 *       reconcile that wanted to record it.</li>
 *   <li><b>Repeats aggregate:</b> the same type, reason and message about the same object within
 *       {@link #AGGREGATION_WINDOW} bumps {@code count} and {@code lastTimestamp} of the Event
 *       already written instead of creating another one, as Kubernetes' own recorder does.</li>
 *   <li><b>Bursts combine:</b> when more than {@link #COMBINE_AT} events of one kind (namespace, kind of object,
 *       type, reason) are waiting at once — the writer is behind, e.g. 5,000 VMIs starting together — they are
 *       written as one Event about the last object, with message {@code (combined from similar events): <last
 *       message>} and {@code count} the number combined (client-go's aggregator words it so), bumped by later bursts
 *       within the window. While the writer keeps up, every event is written as it is.</li>
 *   <li><b>Named as Kubernetes names them:</b> {@code <object name>.<hex timestamp>}, in the object's
 *       namespace ({@code default} for cluster-scoped objects such as nodes).</li>
 * </ul>
 */
public final class EventRecorder implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(EventRecorder.class);

    public static final Duration AGGREGATION_WINDOW = Duration.ofMinutes(10);
    /** More than this many similar events waiting together are written as one combined Event. */
    public static final int COMBINE_AT = 10;
    public static final String COMBINED_PREFIX = "(combined from similar events): ";
    private static final int QUEUE_CAPACITY = 10_000;
    private static final int REMEMBERED_EVENTS = 4096;

    private record Identity(String objectUid, String kind, String namespace, String name,
                            EventType type, String reason, String message) {
    }

    /** What similar events share: they may be combined into one. */
    private record Burst(String namespace, String kind, EventType type, String reason) {
    }

    /** A queued event, or (event fields null) a marker completed once everything queued before it is written. */
    private record Pending(ObjectReference ref, EventType type, String reason, String message, Instant at,
                           CompletableFuture<Void> marker) {
        Burst burst() {
            return new Burst(ref.getNamespace(), ref.getKind(), type, reason);
        }
    }

    private static final class Written {
        final String eventName;
        final String namespace;
        int count;
        Instant lastSeen;

        Written(String eventName, String namespace, int count, Instant at) {
            this.eventName = eventName;
            this.namespace = namespace;
            this.count = count;
            this.lastSeen = at;
        }
    }

    private final LeanWrites writes;
    private final String component;
    private final String reportingInstance;
    private final Clock clock;
    private final BlockingQueue<Pending> queue = new LinkedBlockingQueue<>(QUEUE_CAPACITY);
    private final Thread writer;
    private volatile boolean closed;
    private final AtomicLong nameSequence = new AtomicLong();
    private final LongAdder written = new LongAdder();
    private final LongAdder dropped = new LongAdder();
    private final LongAdder combined = new LongAdder();

    /** Only touched by the writer thread; least recently used entries fall out. */
    private final Map<Identity, Written> recent = new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Identity, Written> eldest) {
            return size() > REMEMBERED_EVENTS;
        }
    };

    /**
     * @param component         {@code source.component} and {@code reportingComponent}; see {@link EventComponents}
     * @param reportingInstance which Drainboard wrote it (the leader identity); may be null
     */
    public EventRecorder(KubernetesClient client, String component, String reportingInstance) {
        this(client, component, reportingInstance, Clock.systemUTC(), true);
    }

    EventRecorder(KubernetesClient client, String component, String reportingInstance, Clock clock) {
        this(client, component, reportingInstance, clock, true);
    }

    /** {@code start} false: nothing is written until {@link #startWriting()} (tests queue a burst first). */
    EventRecorder(KubernetesClient client, String component, String reportingInstance, Clock clock, boolean start) {
        this.writes = new LeanWrites(client);
        this.component = component;
        this.reportingInstance = reportingInstance;
        this.clock = clock;
        // One thread keeps the writes for one recorder in order: a create lands before its patches.
        this.writer = Thread.ofPlatform().daemon().name("events-" + component).unstarted(this::writeLoop);
        if (start) {
            writer.start();
        }
    }

    void startWriting() {
        writer.start();
    }

    public void normal(HasMetadata object, String reason, String messageFormat, Object... args) {
        event(object, EventType.Normal, reason, messageFormat, args);
    }

    public void warning(HasMetadata object, String reason, String messageFormat, Object... args) {
        event(object, EventType.Warning, reason, messageFormat, args);
    }

    /** Queues an event about {@code object}; {@code messageFormat} is a {@link String#format} pattern. */
    public void event(HasMetadata object, EventType type, String reason, String messageFormat, Object... args) {
        try {
            String message = args.length == 0 ? messageFormat : String.format(messageFormat, args);
            ObjectReference ref = referenceTo(object);
            Instant at = clock.instant();
            if (closed || !queue.offer(new Pending(ref, type, reason, message, at, null))) {
                dropped.increment();
                if (!closed) {
                    log.warn("event queue of {} is full; dropping an event", component);
                }
            }
        } catch (RuntimeException e) {
            dropped.increment();
            log.warn("could not record event {} about {}: {}", reason, object == null ? null : object.getMetadata(), e.toString());
        }
    }

    private void writeLoop() {
        List<Pending> batch = new ArrayList<>();
        try {
            while (true) {
                batch.add(queue.take());
                queue.drainTo(batch);
                boolean stop = writeBatch(batch);
                batch.clear();
                if (stop) {
                    return;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Writes what was waiting, similar events combined when there are many; true when a close marker came. */
    private boolean writeBatch(List<Pending> batch) {
        Map<Burst, List<Pending>> bursts = new LinkedHashMap<>();
        List<CompletableFuture<Void>> markers = new ArrayList<>();
        for (Pending p : batch) {
            if (p.marker() != null) {
                markers.add(p.marker());
            } else {
                bursts.computeIfAbsent(p.burst(), b -> new ArrayList<>()).add(p);
            }
        }
        for (List<Pending> similar : bursts.values()) {
            if (similar.size() > COMBINE_AT) {
                writeCombined(similar);
            } else {
                similar.forEach(p -> write(p.ref(), p.type(), p.reason(), p.message(), p.at(), 1));
            }
        }
        boolean stop = false;
        for (CompletableFuture<Void> marker : markers) {
            stop |= marker == CLOSE;
            marker.complete(null);
        }
        return stop;
    }

    private static final CompletableFuture<Void> CLOSE = new CompletableFuture<>();

    /** One Event for the burst, about its last object; a later burst of the same kind in the window bumps it. */
    private void writeCombined(List<Pending> similar) {
        Pending last = similar.getLast();
        ObjectReference about = last.ref();
        // Keyed without the object or message, so that the next burst of this kind counts on the same Event.
        Identity id = new Identity("", about.getKind(), about.getNamespace(), "", last.type(), last.reason(), COMBINED_PREFIX);
        write(id, about, last.type(), last.reason(), COMBINED_PREFIX + last.message(), last.at(), similar.size());
        combined.add(similar.size());
    }

    private static ObjectReference referenceTo(HasMetadata object) {
        var m = object.getMetadata();
        return new ObjectReferenceBuilder()
                .withApiVersion(object.getApiVersion())
                .withKind(object.getKind())
                .withNamespace(m.getNamespace())
                .withName(m.getName())
                .withUid(m.getUid())
                .withResourceVersion(m.getResourceVersion())
                .build();
    }

    private void write(ObjectReference ref, EventType type, String reason, String message, Instant at, int count) {
        Identity id = new Identity(ref.getUid(), ref.getKind(), ref.getNamespace(), ref.getName(), type, reason, message);
        write(id, ref, type, reason, message, at, count);
    }

    /** Bumps the Event written for {@code id} within the window by {@code count}, or creates one with that count. */
    private void write(Identity id, ObjectReference ref, EventType type, String reason, String message, Instant at, int count) {
        try {
            Written previous = recent.get(id);
            if (previous != null && Duration.between(previous.lastSeen, at).compareTo(AGGREGATION_WINDOW) <= 0) {
                if (bump(previous, at, count)) {
                    written.add(count);
                    return;
                }
                // The earlier Event is gone (deleted or expired): start a new one.
            }
            recent.put(id, create(ref, type, reason, message, at, count));
            written.add(count);
        } catch (RuntimeException e) {
            dropped.add(count);
            log.warn("could not write event {} about {} {}/{}: {}", reason, ref.getKind(), ref.getNamespace(), ref.getName(), e.toString());
        }
    }

    private Written create(ObjectReference ref, EventType type, String reason, String message, Instant at, int count) {
        String namespace = ref.getNamespace() == null || ref.getNamespace().isEmpty() ? "default" : ref.getNamespace();
        String name = ref.getName() + "." + uniqueHexTimestamp(at);
        String ts = timestamp(at);
        Event event = new EventBuilder()
                .withNewMetadata().withName(name).withNamespace(namespace).endMetadata()
                .withInvolvedObject(ref)
                .withType(type.name())
                .withReason(reason)
                .withMessage(message)
                .withNewSource().withComponent(component).endSource()
                .withReportingComponent(component)
                .withReportingInstance(reportingInstance)
                .withFirstTimestamp(ts)
                .withLastTimestamp(ts)
                .withCount(count)
                .build();
        writes.create(event);
        return new Written(name, namespace, count, at);
    }

    /** Returns false if the Event to bump no longer exists. */
    private boolean bump(Written previous, Instant at, int by) {
        int count = previous.count + by;
        String patch = "{\"count\":" + count + ",\"lastTimestamp\":\"" + timestamp(at) + "\"}";
        try {
            writes.patch(Event.class, previous.namespace, previous.eventName, null, PatchType.JSON_MERGE, patch);
        } catch (KubernetesClientException e) {
            if (e.getCode() == 404) {
                return false;
            }
            throw e;
        }
        previous.count = count;
        previous.lastSeen = at;
        return true;
    }

    /** Nanoseconds since the epoch in hex, made unique per recorder so two events in one tick differ. */
    private String uniqueHexTimestamp(Instant at) {
        long nanos = at.getEpochSecond() * 1_000_000_000L + at.getNano();
        return Long.toHexString(nanos + nameSequence.getAndIncrement());
    }

    private static String timestamp(Instant at) {
        return DateTimeFormatter.ISO_INSTANT.format(at.truncatedTo(ChronoUnit.SECONDS));
    }

    /** Events written (created or aggregated) so far. */
    public long written() {
        return written.sum();
    }

    /** Events lost to a full queue, a closed recorder or an API error. */
    public long dropped() {
        return dropped.sum();
    }

    /** Events written as part of a combined Event (a burst). */
    public long combined() {
        return combined.sum();
    }

    /** Waits until everything queued before this call is written (for tests and shutdown). */
    public boolean flush(Duration timeout) {
        if (closed) {
            return !writer.isAlive();
        }
        CompletableFuture<Void> marker = new CompletableFuture<>();
        try {
            queue.put(new Pending(null, null, null, null, null, marker));
            marker.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            return true;
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            return false;
        }
    }

    /** Writes what is queued (up to 5 s) and stops. Later events are dropped. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            if (writer.isAlive() && queue.offer(new Pending(null, null, null, null, null, CLOSE), 1, TimeUnit.SECONDS)) {
                writer.join(Duration.ofSeconds(5));
            }
            writer.interrupt();
        } catch (InterruptedException e) {
            writer.interrupt();
            Thread.currentThread().interrupt();
        }
    }
}
