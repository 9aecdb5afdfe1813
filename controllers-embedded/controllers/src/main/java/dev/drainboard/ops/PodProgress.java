package dev.drainboard.ops;

import java.time.Instant;

/**
 * One pod of a running drain.
 *
 * @param preview     what the preview said would happen
 * @param attempts    eviction requests sent so far
 * @param lastCode    HTTP code of the last answer (0: none, or no answer)
 * @param lastMessage the last answer's message, verbatim (empty before the first)
 * @param since       when the pod entered {@code state}
 */
public record PodProgress(String namespace, String name, String uid, PodState state, int attempts,
                          int lastCode, String lastMessage, PodPreview preview, Instant since) {

    public String key() {
        return namespace + "/" + name;
    }
}
