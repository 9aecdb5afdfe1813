package dev.drainboard.ui.model;

import java.time.Instant;

/**
 * One Kubernetes event as the live stream shows it.
 *
 * @param last   when it last happened (lastTimestamp, else eventTime, else creation), for sorting
 * @param object {@code Kind/name} of the object it is about
 */
public record EventRow(
        String namespace,
        String name,
        Instant last,
        String type,
        String reason,
        String object,
        String message,
        int count,
        String source) implements Row {

    public boolean warning() {
        return "Warning".equals(type);
    }

    @Override
    public ObjectRef ref() {
        return new ObjectRef(ObjectRef.Kind.EVENT, namespace, name);
    }

    @Override
    public String searchText() {
        return String.join(" ", namespace, type, reason, object, message, source);
    }
}
