package dev.drainboard.ui.actions;

import java.util.Objects;

/**
 * What became of an operator's action, for the toast or the dialog that shows it.
 *
 * @param title   a short headline ({@code Cordoned node02})
 * @param message the API server's or ops' own words, verbatim ({@code node/node02 cordoned}, a 403's message)
 */
public record ActionResult(Outcome outcome, String title, String message) {

    public enum Outcome {
        /** Written. */
        DONE,
        /** Nothing to do: already so. */
        UNCHANGED,
        /** Refused for now (an eviction's 429): something else has to happen first; not a failure. */
        REFUSED_FOR_NOW,
        /** Refused or not carried out; {@code message} says why. */
        FAILED,
        /** The input was invalid; nothing was written. Dialogs show it in place and stay open. */
        INVALID
    }

    public ActionResult {
        Objects.requireNonNull(outcome, "outcome");
        title = title == null ? "" : title;
        message = message == null ? "" : message;
    }

    public boolean failed() {
        return outcome == Outcome.FAILED || outcome == Outcome.INVALID;
    }
}
