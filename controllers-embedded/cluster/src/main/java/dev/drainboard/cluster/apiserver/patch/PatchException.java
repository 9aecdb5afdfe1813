package dev.drainboard.cluster.apiserver.patch;

/**
 * A patch that could not be applied, carrying what kube-apiserver would answer with: the HTTP status
 * code, the {@code metav1.Status} reason and message, plus the underlying cause for logs.
 */
public final class PatchException extends Exception {

    /** kube-apiserver hides JSON patch failures behind this generic 422 text; the cause goes to {@link #detail()}. */
    private static final String GENERIC_INVALID_MESSAGE = "the server rejected our request due to an error in our request";

    private final int code;
    private final String reason;
    private final String detail;

    private PatchException(int code, String reason, String message, String detail) {
        super(message);
        this.code = code;
        this.reason = reason;
        this.detail = detail;
    }

    /** 400 BadRequest: the patch document itself is malformed. */
    static PatchException badRequest(String message) {
        return new PatchException(400, "BadRequest", message, message);
    }

    /** 422 Invalid with kube's generic text, as sent when a JSON patch operation fails to apply. */
    static PatchException jsonPatchFailed(String detail) {
        return new PatchException(422, "Invalid", GENERIC_INVALID_MESSAGE, detail);
    }

    /**
     * 500 with an empty reason: strategic merge errors kube-apiserver does not classify are passed
     * through as plain errors, which its error-to-status conversion turns into this.
     */
    static PatchException unclassified(String message) {
        return new PatchException(500, "", message, message);
    }

    /** HTTP status code of the answer. */
    public int code() {
        return code;
    }

    /** {@code metav1.Status} reason; empty when kube answers with reason Unknown. */
    public String reason() {
        return reason;
    }

    /** The specific cause, which may be more precise than the message kube-apiserver sends. */
    public String detail() {
        return detail;
    }
}
