package dev.drainboard.cluster.apiserver;

import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The JSON of recently sent stored objects, so that one write watched by many clients is serialised
 * once rather than once per watch. Stored objects are immutable, so an object's identity (with the
 * apiVersion it is shown in) is a safe key. A small direct-mapped table: a miss only costs a
 * serialisation, and it never holds more than a few recent objects.
 */
final class SharedEncodings {

    private static final int SLOTS = 64;

    private record Entry(ObjectNode object, String apiVersion, byte[] json) {
    }

    private final AtomicReferenceArray<Entry> slots = new AtomicReferenceArray<>(SLOTS);

    /** The object as JSON, in the given resource's apiVersion. The array is shared: never modify it. */
    byte[] json(ResourceType type, ObjectNode stored) {
        int slot = System.identityHashCode(stored) & (SLOTS - 1);
        String apiVersion = type.apiVersion();
        Entry entry = slots.get(slot);
        if (entry != null && entry.object() == stored && entry.apiVersion().equals(apiVersion)) {
            return entry.json();
        }
        byte[] json = Json.bytes(ResourceHandler.inVersion(type, stored));
        slots.set(slot, new Entry(stored, apiVersion, json));
        return json;
    }
}
