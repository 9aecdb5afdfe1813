package dev.drainboard.ui.model;

/**
 * The eviction admission webhook this process serves while it leads.
 *
 * @param serving   whether it serves now
 * @param url       where the API server calls it, or empty
 * @param answered  reviews answered (allowed or denied) since it started
 * @param malformed requests refused as malformed since it started
 */
public record WebhookStatus(boolean serving, String url, long answered, long malformed) {

    public static final WebhookStatus NOT_SERVING = new WebhookStatus(false, "", 0, 0);
}
