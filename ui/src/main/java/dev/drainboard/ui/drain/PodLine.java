package dev.drainboard.ui.drain;

import dev.drainboard.ops.DrainWaits;

import dev.drainboard.ops.PodOutcome;
import dev.drainboard.ops.PodPreview;
import dev.drainboard.ops.PodProgress;
import dev.drainboard.ops.PodState;

/**
 * One row of the drain dialog: a pod as the preview saw it and, once the drain runs, where it stands.
 *
 * @param state       null in the preview
 * @param lastAnswer  the API server's last answer to its eviction, verbatim, with the HTTP code
 */
record PodLine(String node, String pod, PodOutcome outcome, String reason, String expected, PodState state,
               int attempts, String lastAnswer) {

    static PodLine of(String node, PodPreview preview) {
        return new PodLine(node, preview.key(), preview.outcome(), preview.reason(),
                preview.expectedMessage() == null ? "" : preview.expectedMessage(), null, 0, "");
    }

    static PodLine of(String node, PodProgress progress) {
        return of(node, progress, DrainWaits.NONE);
    }

    /** While its VMI's migration has not started, the row says why instead of the webhook's answer. */
    static PodLine of(String node, PodProgress progress, DrainWaits waits) {
        String answer = progress.lastMessage().isEmpty() ? ""
                : (progress.lastCode() == 0 ? "" : progress.lastCode() + " · ") + progress.lastMessage();
        if (progress.state() == PodState.WAITING_FOR_MIGRATION && progress.preview().vmi() != null) {
            answer = waits.of(progress.namespace(), progress.preview().vmi()).map(w -> "Migration waits: " + w.text())
                    .orElse(progress.stateText().equals(progress.state().name()) ? answer : progress.stateText());
        }
        return new PodLine(node, progress.key(), progress.preview().outcome(), progress.preview().reason(), "",
                progress.state(), progress.attempts(), answer);
    }
}
