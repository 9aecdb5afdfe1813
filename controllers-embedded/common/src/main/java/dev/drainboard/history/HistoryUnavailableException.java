package dev.drainboard.history;

/** The cluster does not keep drain history, or cannot be asked: the message says why and what to do. */
public final class HistoryUnavailableException extends Exception {

    /** Why. */
    public enum Reason {
        /** {@code drainrecords.drainboard.dev} is not installed. */
        NO_CRD,
        /** RBAC refuses (kube's Forbidden message is in the text). */
        FORBIDDEN,
        /** Anything else: the cluster cannot be reached, or refused otherwise. */
        FAILED
    }

    private final Reason reason;

    public HistoryUnavailableException(Reason reason, String message, Throwable cause) {
        super(message, cause);
        this.reason = reason;
    }

    public Reason reason() {
        return reason;
    }

    /** History cannot be kept here for good (no CRD, no permission): say so once and stop trying. */
    public boolean permanent() {
        return reason != Reason.FAILED;
    }
}
