package dev.drainboard.cluster.apiserver;

/**
 * The warnings of the request being handled, sent as {@code Warning: 299 - "text"} response headers as
 * kube-apiserver does (apiserver pkg/endpoints/filters/warning.go); kubectl prints each as {@code Warning: text}.
 * Bound for the duration of {@link ApiServer#handle}; elsewhere (scenario loading) warnings go nowhere.
 */
public final class Warnings {

    static final ScopedValue<ResponseChannel> CHANNEL = ScopedValue.newInstance();

    private Warnings() {
    }

    /** Adds a warning to the current response (once: repeated texts are sent once, as kube does). */
    public static void add(String text) {
        if (CHANNEL.isBound()) {
            CHANNEL.get().warning(text);
        }
    }

    /** The header value for a warning: code 299, agent "-", the text quoted as Go's strconv.Quote does. */
    public static String headerValue(String text) {
        return "299 - " + dev.drainboard.validation.FieldError.quote(text);
    }
}
