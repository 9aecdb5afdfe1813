package dev.drainboard.cluster.apiserver.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drainboard.cluster.apiserver.ApiException;
import dev.drainboard.cluster.apiserver.Json;
import dev.drainboard.cluster.apiserver.ResourceType;

import java.security.SecureRandom;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;

/**
 * The embedded cluster's storage: every object of every resource, one monotonic resourceVersion,
 * and a log of changes, bounded in number and bytes ({@link ChangeLog}), that watches replay from.
 *
 * <p>Reads are lock-free (sorted concurrent maps of immutable trees). Writes take one lock so that
 * resourceVersions are handed out, and delivered to watchers, in commit order — the property every
 * informer depends on. Objects handed out are shared: callers copy before changing them.
 */
public final class ObjectStore {

    /** Decides, under the write lock, what an update does to the current object. */
    @FunctionalInterface
    public interface Mutation extends UnaryOperator<ObjectNode> {
    }

    public static final int DEFAULT_LOG_CAPACITY = 200_000;
    /** The change log's default budget: 64 MiB of kept objects' JSON. */
    public static final long DEFAULT_LOG_MAX_BYTES = 64L * 1024 * 1024;
    private static final String NAME_SUFFIX_ALPHABET = "bcdfghjklmnpqrstvwxz2456789";
    private static final int MAX_GENERATED_PREFIX_LENGTH = 63 - 5;

    private final ReentrantLock writeLock = new ReentrantLock();
    private final Map<String, ConcurrentSkipListMap<String, ObjectNode>> tables = new ConcurrentHashMap<>();
    private final Map<String, CopyOnWriteArrayList<Subscription>> subscriptions = new ConcurrentHashMap<>();
    private final ChangeLog log;
    private final List<WatchSink> listeners = new CopyOnWriteArrayList<>();
    private final Clock clock;
    private final SecureRandom random = new SecureRandom();
    private volatile long resourceVersion = 1;

    /**
     * A store whose change log keeps at most {@code maxChanges} changes and {@code maxBytes} bytes of objects (see
     * {@link ChangeLog}); older changes are compacted away.
     */
    public ObjectStore(int maxChanges, long maxBytes, Clock clock) {
        this.log = new ChangeLog(maxChanges, maxBytes, resourceVersion);
        this.clock = clock;
    }

    public ObjectStore(int maxChanges, Clock clock) {
        this(maxChanges, DEFAULT_LOG_MAX_BYTES, clock);
    }

    public ObjectStore() {
        this(DEFAULT_LOG_CAPACITY, Clock.systemUTC());
    }

    /** Watches and list pages from a resourceVersion older than this are answered 410 Expired. */
    public long compactedResourceVersion() {
        writeLock.lock();
        try {
            return log.compactedResourceVersion();
        } finally {
            writeLock.unlock();
        }
    }

    /** How many changes the log keeps now, and the bytes of the objects it alone holds. */
    public record ChangeLogUse(int changes, long bytes) {
    }

    public ChangeLogUse changeLogUse() {
        writeLock.lock();
        try {
            return new ChangeLogUse(log.size(), log.bytes());
        } finally {
            writeLock.unlock();
        }
    }

    public long resourceVersion() {
        return resourceVersion;
    }

    public Clock clock() {
        return clock;
    }

    // ---- reads ----

    public ObjectNode get(ResourceType type, String namespace, String name) {
        return table(type).get(key(type, namespace, name));
    }

    /**
     * A page of objects in key order (namespace, then name). {@code namespace} null or "" lists every
     * namespace; {@code afterKey} continues a previous page; {@code limit} 0 means no limit.
     */
    public ListPage list(ResourceType type, String namespace, Predicate<ObjectNode> filter, long limit, String afterKey) {
        long rv = resourceVersion;
        NavigableMap<String, ObjectNode> range = range(type, namespace);
        if (afterKey != null) {
            range = range.tailMap(afterKey, false);
        }
        return page(range, filter, limit, rv);
    }

    private NavigableMap<String, ObjectNode> range(ResourceType type, String namespace) {
        NavigableMap<String, ObjectNode> range = table(type);
        if (type.namespaced() && namespace != null && !namespace.isEmpty()) {
            range = range.subMap(namespace + "/", true, namespace + "0", false);
        }
        return range;
    }

    private static ListPage page(NavigableMap<String, ObjectNode> range, Predicate<ObjectNode> filter, long limit, long rv) {
        List<ObjectNode> items = new ArrayList<>();
        String nextKey = null;
        long remaining = 0;
        for (Map.Entry<String, ObjectNode> entry : range.entrySet()) {
            if (!filter.test(entry.getValue())) {
                continue;
            }
            if (limit > 0 && items.size() >= limit) {
                remaining++;
                continue;
            }
            items.add(entry.getValue());
            nextKey = entry.getKey();
        }
        return new ListPage(items, rv, remaining > 0 ? nextKey : null, remaining);
    }

    /**
     * A page of objects as they were at {@code resourceVersion}: the current objects with every later change of the
     * resource undone from the change log, so that every page of one list shows one moment, as etcd's reads at a
     * revision do. Empty when that moment has been compacted away.
     */
    public java.util.Optional<ListPage> listAt(ResourceType type, String namespace, Predicate<ObjectNode> filter, long limit,
                                               String afterKey, long resourceVersion) {
        writeLock.lock();
        try {
            if (resourceVersion < log.compactedResourceVersion()) {
                return java.util.Optional.empty();
            }
            if (resourceVersion >= this.resourceVersion) {
                return java.util.Optional.of(list(type, namespace, filter, limit, afterKey));
            }
            java.util.TreeMap<String, ObjectNode> snapshot = new java.util.TreeMap<>(range(type, namespace));
            boolean inNamespace = type.namespaced() && namespace != null && !namespace.isEmpty();
            for (WatchEvent event : log.newestFirstSince(resourceVersion)) {
                if (!event.resource().groupResource().equals(type.groupResource())
                        || (inNamespace && !namespace.equals(Json.namespace(event.object())))) {
                    continue;
                }
                String key = key(type, Json.namespace(event.object()), Json.name(event.object()));
                if (event.type() == WatchEvent.Type.ADDED) {
                    snapshot.remove(key);
                } else {
                    snapshot.put(key, event.previous());
                }
            }
            NavigableMap<String, ObjectNode> pageRange = afterKey == null ? snapshot : snapshot.tailMap(afterKey, false);
            return java.util.Optional.of(page(pageRange, filter, limit, resourceVersion));
        } finally {
            writeLock.unlock();
        }
    }

    public List<ObjectNode> list(ResourceType type, String namespace, Predicate<ObjectNode> filter) {
        return list(type, namespace, filter, 0, null).items();
    }

    public int count(ResourceType type) {
        return table(type).size();
    }

    // ---- writes ----

    /**
     * Stores a new object. Assigns name (from generateName), uid, creationTimestamp, generation and
     * resourceVersion, unless {@code keepIdentity} asks to keep a given uid and creationTimestamp
     * (scenario loading, so that owner references in a copied cluster stay valid).
     */
    public ObjectNode create(ResourceType type, ObjectNode object, boolean dryRun, boolean keepIdentity) {
        ObjectNode created = object.deepCopy();
        ObjectNode meta = Json.metadata(created);
        created.put("apiVersion", type.apiVersion());
        created.put("kind", type.kind());
        // Made before taking the lock: a random UUID reads the system's entropy source under its own lock.
        String uid = UUID.randomUUID().toString();
        String creationTimestamp = Json.timestamp(clock.instant());
        writeLock.lock();
        try {
            String name = Json.text(meta, "name");
            if (name.isEmpty()) {
                String prefix = Json.text(meta, "generateName");
                if (prefix.isEmpty()) {
                    throw ApiException.invalid(type, "", "metadata.name", "Required value: name or generateName is required");
                }
                name = freeGeneratedName(type, Json.text(meta, "namespace"), prefix);
                meta.put("name", name);
            }
            String key = key(type, Json.text(meta, "namespace"), name);
            if (table(type).containsKey(key)) {
                throw ApiException.alreadyExists(type, name);
            }
            if (!keepIdentity || Json.text(meta, "uid").isEmpty()) {
                meta.put("uid", uid);
            }
            if (!keepIdentity || Json.text(meta, "creationTimestamp").isEmpty()) {
                meta.put("creationTimestamp", creationTimestamp);
            }
            meta.remove("deletionTimestamp");
            meta.remove("deletionGracePeriodSeconds");
            meta.remove("managedFields");
            if (tracksGeneration(type, created)) {
                meta.put("generation", 1);
            } else {
                meta.remove("generation");
            }
            if (dryRun) {
                meta.put("resourceVersion", Long.toString(resourceVersion));
                return created;
            }
            long rv = ++resourceVersion;
            meta.put("resourceVersion", Long.toString(rv));
            table(type).put(key, created);
            publish(new WatchEvent(WatchEvent.Type.ADDED, type, created, null, rv), key, false);
            return created;
        } finally {
            writeLock.unlock();
        }
    }

    /**
     * Read-modify-write of one object under the write lock. The mutation gets a private copy of the
     * current object and returns the desired object (it may throw an {@link ApiException}, e.g. a
     * precondition failure). Identity fields are kept; generation follows spec changes; an object
     * that ends with a deletionTimestamp, no finalizers and no grace period left is removed.
     * Returns the stored (or removed) object; when nothing changed, the current one, without a new
     * resourceVersion, as kube-apiserver does for no-op updates.
     */
    public ObjectNode update(ResourceType type, String namespace, String name, Mutation mutation, boolean dryRun) {
        String key = key(type, namespace, name);
        writeLock.lock();
        try {
            ObjectNode current = table(type).get(key);
            if (current == null) {
                throw ApiException.notFound(type, name);
            }
            ObjectNode desired = mutation.apply(current.deepCopy());
            keepIdentity(type, current, desired);
            if (desired.equals(current)) {
                return current;
            }
            ObjectNode meta = Json.metadata(desired);
            if (tracksGeneration(type, desired)) {
                long generation = current.path("metadata").path("generation").asLong(1);
                if (!sameOutsideMetadata(type, current, desired)) {
                    generation++;
                }
                meta.put("generation", generation);
            }
            boolean remove = isReadyToRemove(desired);
            if (dryRun) {
                return desired;
            }
            long rv = ++resourceVersion;
            meta.put("resourceVersion", Long.toString(rv));
            if (remove) {
                table(type).remove(key);
                publish(new WatchEvent(WatchEvent.Type.DELETED, type, desired, current, rv), key, false);
            } else {
                table(type).put(key, desired);
                publish(new WatchEvent(WatchEvent.Type.MODIFIED, type, desired, current, rv), key, false);
            }
            return desired;
        } finally {
            writeLock.unlock();
        }
    }

    /** Removes an object at once (no finalizers or grace considered: callers decide that). */
    public ObjectNode remove(ResourceType type, String namespace, String name, boolean dryRun) {
        String key = key(type, namespace, name);
        writeLock.lock();
        try {
            ObjectNode current = table(type).get(key);
            if (current == null) {
                throw ApiException.notFound(type, name);
            }
            if (dryRun) {
                return current;
            }
            long rv = ++resourceVersion;
            // The last state with the deletion's resourceVersion: new metadata, everything else shared with the stored
            // object, so that the change log keeps no second copy of it.
            ObjectNode last = current.objectNode();
            current.fields().forEachRemaining(field -> last.set(field.getKey(), field.getValue()));
            ObjectNode meta = ((ObjectNode) current.get("metadata")).deepCopy();
            meta.put("resourceVersion", Long.toString(rv));
            last.set("metadata", meta);
            table(type).remove(key);
            publish(new WatchEvent(WatchEvent.Type.DELETED, type, last, current, rv), key, true);
            return last;
        } finally {
            writeLock.unlock();
        }
    }

    /** Forgets every object of a resource, e.g. when its CRD is deleted. */
    public void dropResource(ResourceType type) {
        writeLock.lock();
        try {
            for (ObjectNode object : List.copyOf(table(type).values())) {
                remove(type, Json.namespace(object), Json.name(object), false);
            }
        } finally {
            writeLock.unlock();
        }
    }

    // ---- watches ----

    /**
     * Subscribes to changes of one resource. With {@code fromResourceVersion} null, the sink first
     * gets an ADDED event for every existing matching object (kube-apiserver's "send initial
     * events"); otherwise the log is replayed from just after that resourceVersion, or 410 Gone if
     * it has been compacted away. A change that makes an object start or stop matching the filter is
     * delivered as ADDED or DELETED, as kube-apiserver's watch cache does.
     */
    public Subscription watch(ResourceType type, String namespace, Predicate<ObjectNode> filter,
                              Long fromResourceVersion, WatchSink sink) {
        writeLock.lock();
        try {
            Subscription subscription = new Subscription(type, namespace, filter, sink);
            if (fromResourceVersion == null) {
                for (ObjectNode object : list(type, namespace, filter)) {
                    sink.onEvent(new WatchEvent(WatchEvent.Type.ADDED, type, object, null, Json.resourceVersion(object)));
                }
            } else {
                long from = fromResourceVersion;
                long compacted = log.compactedResourceVersion();
                if (from < compacted) {
                    // kube-apiserver's watch cache (storage/cacher/watch_cache.go): "too old resource version: %d (%d)"
                    throw ApiException.gone("too old resource version: " + from + " (" + compacted + ")");
                }
                for (WatchEvent event : log.since(from)) {
                    if (event.resource().groupResource().equals(type.groupResource())) {
                        subscription.deliver(event);
                    }
                }
            }
            subscriptions.computeIfAbsent(type.groupResource(), k -> new CopyOnWriteArrayList<>()).add(subscription);
            return subscription;
        } finally {
            writeLock.unlock();
        }
    }

    /** Sends a bookmark with the current resourceVersion to every open subscription. */
    public void bookmarkAll() {
        writeLock.lock();
        try {
            long rv = resourceVersion;
            for (List<Subscription> list : subscriptions.values()) {
                for (Subscription s : list) {
                    s.sink.onBookmark(rv);
                }
            }
        } finally {
            writeLock.unlock();
        }
    }

    /**
     * Adds a listener for every change of every resource (the embedded cluster's own controllers:
     * garbage collector, namespace lifecycle). Like watch sinks, it is called under the write lock.
     */
    public void addListener(WatchSink listener) {
        listeners.add(listener);
    }

    public int subscriptionCount() {
        return subscriptions.values().stream().mapToInt(List::size).sum();
    }

    /** An open watch; {@link #close()} stops delivery. */
    public final class Subscription implements AutoCloseable {
        private final ResourceType type;
        private final String namespace;
        private final Predicate<ObjectNode> filter;
        private final WatchSink sink;

        private Subscription(ResourceType type, String namespace, Predicate<ObjectNode> filter, WatchSink sink) {
            this.type = type;
            this.namespace = namespace == null ? "" : namespace;
            this.filter = filter;
            this.sink = sink;
        }

        private void deliver(WatchEvent event) {
            if (type.namespaced() && !namespace.isEmpty() && !namespace.equals(Json.namespace(event.object()))) {
                return;
            }
            boolean now = event.type() != WatchEvent.Type.DELETED && filter.test(event.object());
            boolean before = event.previous() != null && filter.test(event.previous());
            if (event.type() == WatchEvent.Type.DELETED) {
                if (before || filter.test(event.object())) {
                    sink.onEvent(event);
                }
            } else if (now && before) {
                sink.onEvent(event);
            } else if (now) {
                sink.onEvent(new WatchEvent(WatchEvent.Type.ADDED, event.resource(), event.object(), event.previous(), event.resourceVersion()));
            } else if (before) {
                sink.onEvent(new WatchEvent(WatchEvent.Type.DELETED, event.resource(), event.object(), event.previous(), event.resourceVersion()));
            }
        }

        @Override
        public void close() {
            List<Subscription> list = subscriptions.get(type.groupResource());
            if (list != null) {
                list.remove(this);
            }
        }
    }

    // ---- internals ----

    private void publish(WatchEvent event, String key, boolean sharesPrevious) {
        log.append(event, event.resource().groupResource() + "|" + key, sharesPrevious);
        List<Subscription> list = subscriptions.get(event.resource().groupResource());
        if (list != null) {
            for (Subscription s : list) {
                s.deliver(event);
            }
        }
        for (WatchSink listener : listeners) {
            listener.onEvent(event);
        }
    }

    private ConcurrentSkipListMap<String, ObjectNode> table(ResourceType type) {
        return tables.computeIfAbsent(type.groupResource(), k -> new ConcurrentSkipListMap<>());
    }

    private static String key(ResourceType type, String namespace, String name) {
        return type.namespaced() ? Objects.requireNonNullElse(namespace, "") + "/" + name : name;
    }

    /**
     * A name made from {@code prefix} that no object of the type has yet: the prefix, cut to 58 characters, and five
     * random characters, as apiserver's SimpleNameGenerator makes them (pkg/storage/names/generate.go).
     */
    public String generateName(ResourceType type, String namespace, String prefix) {
        return freeGeneratedName(type, namespace, prefix);
    }

    private String freeGeneratedName(ResourceType type, String namespace, String prefix) {
        String base = prefix.length() > MAX_GENERATED_PREFIX_LENGTH ? prefix.substring(0, MAX_GENERATED_PREFIX_LENGTH) : prefix;
        for (int attempt = 0; attempt < 100; attempt++) {
            StringBuilder name = new StringBuilder(base);
            for (int i = 0; i < 5; i++) {
                name.append(NAME_SUFFIX_ALPHABET.charAt(random.nextInt(NAME_SUFFIX_ALPHABET.length())));
            }
            if (!table(type).containsKey(key(type, namespace, name.toString()))) {
                return name.toString();
            }
        }
        throw ApiException.alreadyExists(type, prefix);
    }

    private static boolean tracksGeneration(ResourceType type, ObjectNode object) {
        return type.isCustom() || object.has("spec");
    }

    /** Fields a client can never change through an update. */
    private static void keepIdentity(ResourceType type, ObjectNode current, ObjectNode desired) {
        ObjectNode meta = Json.metadata(desired);
        JsonNode currentMeta = current.get("metadata");
        for (String field : List.of("name", "namespace", "uid", "creationTimestamp", "generation", "resourceVersion")) {
            JsonNode value = currentMeta.get(field);
            if (value == null) {
                meta.remove(field);
            } else {
                meta.set(field, value);
            }
        }
        // Once set, a deletionTimestamp can only be kept, never cleared.
        if (currentMeta.has("deletionTimestamp")) {
            meta.set("deletionTimestamp", currentMeta.get("deletionTimestamp"));
        }
        desired.put("apiVersion", type.apiVersion());
        desired.put("kind", type.kind());
    }

    private static boolean sameOutsideMetadata(ResourceType type, ObjectNode a, ObjectNode b) {
        ObjectNode x = a.deepCopy();
        ObjectNode y = b.deepCopy();
        x.remove("metadata");
        y.remove("metadata");
        if (type.hasSubresource("status")) {
            x.remove("status");
            y.remove("status");
        }
        return x.equals(y);
    }

    private static boolean isReadyToRemove(ObjectNode object) {
        JsonNode meta = object.get("metadata");
        if (meta == null || !meta.has("deletionTimestamp")) {
            return false;
        }
        JsonNode finalizers = meta.get("finalizers");
        // A namespace also waits for its spec.finalizers ("kubernetes": its contents are gone).
        JsonNode specFinalizers = "Namespace".equals(object.path("kind").asText()) ? object.path("spec").get("finalizers") : null;
        boolean noFinalizers = (finalizers == null || finalizers.isEmpty()) && (specFinalizers == null || specFinalizers.isEmpty());
        return noFinalizers && meta.path("deletionGracePeriodSeconds").asLong(0) == 0;
    }
}
