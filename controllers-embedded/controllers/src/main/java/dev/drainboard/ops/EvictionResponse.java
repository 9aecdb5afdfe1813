package dev.drainboard.ops;

/**
 * The API server's answer to one eviction, verbatim: the HTTP code, the Status {@code reason} and {@code message}
 * ({@code code} 0 when no answer came; the message then says why).
 */
public record EvictionResponse(int code, String reason, String message) {

    /** 200 or 201: the pod is being deleted. */
    public boolean accepted() {
        return code == 200 || code == 201;
    }

    /** 429: refused for now (a webhook or a PodDisruptionBudget); worth retrying. */
    public boolean tooManyRequests() {
        return code == 429;
    }

    /** 404: the pod is not there (any more). */
    public boolean notFound() {
        return code == 404;
    }

    /** No answer from the API server. */
    public boolean unreachable() {
        return code == 0;
    }

    /** The message, or for an accepted eviction {@code evicted}. */
    public String text() {
        if (message != null && !message.isEmpty()) {
            return message;
        }
        return accepted() ? "evicted" : "HTTP " + code + (reason == null || reason.isEmpty() ? "" : " " + reason);
    }
}
