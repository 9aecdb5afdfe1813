package dev.drainboard.ui.model;

/**
 * The eviction admission webhook this process serves while it leads.
 *
 * @param serving       whether it serves now
 * @param url           where the API server calls it, or empty
 * @param answered      reviews answered (allowed or denied) since it started
 * @param malformed     requests refused as malformed since it started
 * @param authenticated whether callers need a client certificate from a trusted CA
 * @param callers       what it says about its callers: whose certificates it accepts, or the unauthenticated warning
 *                      (who can reach it); empty when not serving
 */
public record WebhookStatus(boolean serving, String url, long answered, long malformed, boolean authenticated,
                            String callers) {

    public static final WebhookStatus NOT_SERVING = new WebhookStatus(false, "", 0, 0, false, "");
}
