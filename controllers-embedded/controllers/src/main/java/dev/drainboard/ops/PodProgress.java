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

    /**
     * The state in the operator's words where the name would mislead: a VMI with strategy External is not waiting
     * for a migration (nothing in KubeVirt migrates it), it waits for something outside to remove it.
     */
    public String stateText() {
        return DrainRules.waitingFor(preview, state);
    }

    /** Short enough for a state column: {@code WAITING_FOR_EXTERNAL} names what an External VMI waits for. */
    public String stateWord() {
        return preview.outcome() == PodOutcome.EXTERNAL_EVACUATION && state == PodState.WAITING_FOR_MIGRATION
                ? "WAITING_FOR_EXTERNAL" : state.name();
    }
}
