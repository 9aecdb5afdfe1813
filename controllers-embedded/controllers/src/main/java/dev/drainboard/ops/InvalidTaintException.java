package dev.drainboard.ops;

/** A taint argument or change Kubernetes would refuse; the message is kubectl's. Nothing was written. */
public final class InvalidTaintException extends Exception {
    public InvalidTaintException(String message) {
        super(message);
    }
}
