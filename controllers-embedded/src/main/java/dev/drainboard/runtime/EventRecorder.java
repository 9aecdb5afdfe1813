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
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadPoolExecutor;
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
 *   <li><b>Named as Kubernetes names them:</b> {@code <object name>.<hex timestamp>}, in the object's
 *       namespace ({@code default} for cluster-scoped objects such as nodes).</li>
 * </ul>
 */
public final class EventRecorder implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(EventRecorder.class);

    public static final Duration AGGREGATION_WINDOW = Duration.ofMinutes(10);
    private static final int QUEUE_CAPACITY = 1000;
    private static final int REMEMBERED_EVENTS = 4096;

    private record Identity(String objectUid, String kind, String namespace, String name,
                            EventType type, String reason, String message) {
    }

    private static final class Written {
        final String eventName;
        final String namespace;
        int count;
        Instant lastSeen;

        Written(String eventName, String namespace, Instant at) {
            this.eventName = eventName;
            this.namespace = namespace;
            this.count = 1;
            this.lastSeen = at;
        }
    }

    private final LeanWrites writes;
    private final String component;
    private final String reportingInstance;
    private final Clock clock;
    private final ThreadPoolExecutor writer;
    private final AtomicLong nameSequence = new AtomicLong();
    private final LongAdder written = new LongAdder();
    private final LongAdder dropped = new LongAdder();

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
        this(client, component, reportingInstance, Clock.systemUTC());
    }

    EventRecorder(KubernetesClient client, String component, String reportingInstance, Clock clock) {
        this.writes = new LeanWrites(client);
        this.component = component;
        this.reportingInstance = reportingInstance;
        this.clock = clock;
        // One thread keeps the writes for one recorder in order: a create lands before its patches.
        this.writer = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS,
                new ArrayBlockingQueue<>(QUEUE_CAPACITY),
                r -> Thread.ofPlatform().daemon().name("events-" + component).unstarted(r),
                (task, executor) -> {
                    dropped.increment();
                    log.warn("event queue of {} is full; dropping an event", component);
                });
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
            if (writer.isShutdown()) {
                dropped.increment();
                return;
            }
            writer.execute(() -> write(ref, type, reason, message, at));
        } catch (RuntimeException e) {
            dropped.increment();
            log.warn("could not record event {} about {}: {}", reason, object == null ? null : object.getMetadata(), e.toString());
        }
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

    private void write(ObjectReference ref, EventType type, String reason, String message, Instant at) {
        Identity id = new Identity(ref.getUid(), ref.getKind(), ref.getNamespace(), ref.getName(), type, reason, message);
        try {
            Written previous = recent.get(id);
            if (previous != null && Duration.between(previous.lastSeen, at).compareTo(AGGREGATION_WINDOW) <= 0) {
                if (bump(previous, at)) {
                    written.increment();
                    return;
                }
                // The earlier Event is gone (deleted or expired): start a new one.
            }
            recent.put(id, create(ref, type, reason, message, at));
            written.increment();
        } catch (RuntimeException e) {
            dropped.increment();
            log.warn("could not write event {} about {} {}/{}: {}", reason, ref.getKind(), ref.getNamespace(), ref.getName(), e.toString());
        }
    }

    private Written create(ObjectReference ref, EventType type, String reason, String message, Instant at) {
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
                .withCount(1)
                .build();
        writes.create(event);
        return new Written(name, namespace, at);
    }

    /** Returns false if the Event to bump no longer exists. */
    private boolean bump(Written previous, Instant at) {
        int count = previous.count + 1;
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

    /** Waits until everything queued before this call is written (for tests and shutdown). */
    public boolean flush(Duration timeout) {
        if (writer.isShutdown()) {
            return writer.isTerminated();
        }
        CompletableFuture<Void> marker = new CompletableFuture<>();
        try {
            writer.execute(() -> marker.complete(null));
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
        writer.shutdown();
        try {
            if (!writer.awaitTermination(5, TimeUnit.SECONDS)) {
                writer.shutdownNow();
            }
        } catch (InterruptedException e) {
            writer.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }
}
