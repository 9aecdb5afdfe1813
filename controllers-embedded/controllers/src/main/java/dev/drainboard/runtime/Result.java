package dev.drainboard.runtime;

import java.time.Duration;
import java.util.Objects;

/** What a reconcile pass tells the loop to do with its key next. */
public sealed interface Result {

    /** The key is reconciled; its back-off is reset. */
    record Done() implements Result {
    }

    /** Not finished, nothing went wrong (e.g. waiting for expectations): retry with back-off. */
    record Requeue() implements Result {
    }

    /** Look again after a fixed time (e.g. a timeout to check); the back-off is reset. */
    record RequeueAfter(Duration delay) implements Result {
        public RequeueAfter {
            Objects.requireNonNull(delay);
        }
    }

    /** The pass failed: counted as an error, retried with back-off. */
    record Failed(Throwable cause) implements Result {
        public Failed {
            Objects.requireNonNull(cause);
        }
    }

    static Result done() {
        return new Done();
    }

    static Result requeue() {
        return new Requeue();
    }

    static Result requeueAfter(Duration delay) {
        return new RequeueAfter(delay);
    }

    static Result error(Throwable cause) {
        return new Failed(cause);
    }
}
