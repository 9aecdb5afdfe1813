package dev.drainboard.cluster.apiserver.store;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * The store's history of committed changes, which watches replay from and consistent list pages are rebuilt from,
 * bounded by a number of changes and by the bytes of the objects it keeps. The oldest changes are dropped first
 * (compaction, as etcd compacts its history and kube-apiserver's watch cache forgets its oldest events): a
 * resourceVersion older than the newest dropped change can then no longer be replayed, and is answered 410 Expired.
 *
 * <p>Bytes are those of the compact JSON of every tree the log alone keeps: an event's object, and its previous object
 * while no older change in the log holds that same tree. A deletion keeps the deleted object's content shared with
 * its last stored state, so it costs the log its metadata only. Not thread-safe: the store calls it under its write
 * lock.
 */
final class ChangeLog {

    /** One change and what it costs the log. */
    private static final class Entry {
        final WatchEvent event;
        final String key;
        final long objectBytes;
        long bytes;
        /** The next change of the same object while this one is in the log: its previous object is this one's object. */
        Entry next;

        Entry(WatchEvent event, String key, long objectBytes, long bytes) {
            this.event = event;
            this.key = key;
            this.objectBytes = objectBytes;
            this.bytes = bytes;
        }
    }

    private final ArrayDeque<Entry> entries = new ArrayDeque<>();
    /** The newest change in the log per object (group-resource and storage key). */
    private final Map<String, Entry> newestByKey = new HashMap<>();
    private final int maxChanges;
    private final long maxBytes;
    private long bytes;
    private long compactedResourceVersion;

    ChangeLog(int maxChanges, long maxBytes, long startResourceVersion) {
        if (maxChanges < 1 || maxBytes < 1) {
            throw new IllegalArgumentException("a change log keeps at least one change and one byte, got "
                    + maxChanges + " changes and " + maxBytes + " bytes");
        }
        this.maxChanges = maxChanges;
        this.maxBytes = maxBytes;
        this.compactedResourceVersion = startResourceVersion;
    }

    /**
     * Appends a change of the object stored under {@code key}. {@code sharesPrevious} says that the event's object
     * is a shallow copy of its previous object (a removal), so that only its metadata is new.
     */
    void append(WatchEvent event, String key, boolean sharesPrevious) {
        long objectBytes = JsonSize.of(event.object());
        long cost = sharesPrevious ? JsonSize.of(event.object().get("metadata")) : objectBytes;
        Entry older = newestByKey.get(key);
        boolean previousHeldByOlder = older != null && older.event.object() == event.previous();
        if (event.previous() != null && !previousHeldByOlder) {
            cost += JsonSize.of(event.previous());
        }
        Entry entry = new Entry(event, key, objectBytes, cost);
        if (previousHeldByOlder) {
            older.next = entry;
        }
        if (event.type() == WatchEvent.Type.DELETED) {
            newestByKey.remove(key);
        } else {
            newestByKey.put(key, entry);
        }
        entries.addLast(entry);
        bytes += cost;
        compact();
    }

    private void compact() {
        while (!entries.isEmpty() && (entries.size() > maxChanges || bytes > maxBytes)) {
            Entry dropped = entries.removeFirst();
            bytes -= dropped.bytes;
            compactedResourceVersion = dropped.event.resourceVersion();
            if (dropped.next != null) {
                // the next change of the object now holds the dropped change's object alone, as its previous
                dropped.next.bytes += dropped.objectBytes;
                bytes += dropped.objectBytes;
            }
            if (newestByKey.get(dropped.key) == dropped) {
                newestByKey.remove(dropped.key);
            }
        }
    }

    /** Watches from a resourceVersion older than this cannot be replayed. */
    long compactedResourceVersion() {
        return compactedResourceVersion;
    }

    /** The changes after {@code resourceVersion}, oldest first. */
    List<WatchEvent> since(long resourceVersion) {
        List<WatchEvent> out = new ArrayList<>();
        for (Entry entry : entries) {
            if (entry.event.resourceVersion() > resourceVersion) {
                out.add(entry.event);
            }
        }
        return out;
    }

    /** The changes after {@code resourceVersion}, newest first (to undo them). */
    List<WatchEvent> newestFirstSince(long resourceVersion) {
        List<WatchEvent> out = new ArrayList<>();
        for (Iterator<Entry> it = entries.descendingIterator(); it.hasNext(); ) {
            Entry entry = it.next();
            if (entry.event.resourceVersion() <= resourceVersion) {
                break;
            }
            out.add(entry.event);
        }
        return out;
    }

    int size() {
        return entries.size();
    }

    long bytes() {
        return bytes;
    }
}
