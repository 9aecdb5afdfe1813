package dev.drainboard.ops;

import io.fabric8.kubernetes.client.KubernetesClientException;

import java.util.Objects;

/** An operation could not be carried out; the message says why in the operator's terms. */
public final class OpsException extends RuntimeException {

    /** What went wrong, for callers that react differently (the CLI's messages, the UI's dialogs). */
    public enum Kind {
        /** The node or pod does not exist. */
        NOT_FOUND,
        /** The API server could not be reached. */
        UNREACHABLE,
        /** The API server refused the request (forbidden, invalid, conflict after retries...). */
        REFUSED
    }

    private final Kind kind;

    public OpsException(Kind kind, String message, Throwable cause) {
        super(message, cause);
        this.kind = Objects.requireNonNull(kind);
    }

    public Kind kind() {
        return kind;
    }

    /** Translates a client failure: an HTTP status from the API server, or no answer at all. */
    public static OpsException from(String what, KubernetesClientException e) {
        if (e.getCode() == 404) {
            return new OpsException(Kind.NOT_FOUND, what + " not found", e);
        }
        if (e.getCode() == 0) {
            return new OpsException(Kind.UNREACHABLE, "cannot reach the cluster: " + rootMessage(e), e);
        }
        String message = e.getStatus() != null && e.getStatus().getMessage() != null ? e.getStatus().getMessage() : e.getMessage();
        return new OpsException(Kind.REFUSED, what + ": " + message, e);
    }

    static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t == e ? String.valueOf(e.getMessage()) : t.getClass().getSimpleName() + ": " + t.getMessage();
    }
}
