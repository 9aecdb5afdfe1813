package dev.drainboard.ui.actions;

import java.util.List;
import java.util.Objects;

/**
 * The answer to one or more {@link AccessCheck}s. Only a DENIED answer disables an action: when the review itself
 * cannot be made (an old server, no right to ask) the action stays and the API server has the last word.
 *
 * @param reason for DENIED and UNKNOWN, a sentence for the operator's tooltip; else empty
 */
public record AccessDecision(State state, String reason) {

    public enum State {
        /** The review is on its way. */
        CHECKING,
        ALLOWED,
        DENIED,
        /** The review could not be made; the action is offered and the API server decides. */
        UNKNOWN
    }

    public static final AccessDecision CHECKING = new AccessDecision(State.CHECKING, "Checking permission…");
    public static final AccessDecision ALLOWED = new AccessDecision(State.ALLOWED, "");

    public AccessDecision {
        Objects.requireNonNull(state, "state");
        reason = reason == null ? "" : reason;
    }

    public static AccessDecision denied(AccessCheck check, String why) {
        return new AccessDecision(State.DENIED, "Not allowed: your credentials may not " + check.describe()
                + (why == null || why.isBlank() ? "" : " (" + why.strip() + ")"));
    }

    public static AccessDecision unknown(AccessCheck check, String why) {
        return new AccessDecision(State.UNKNOWN, "Could not check whether you may " + check.describe() + ": " + why);
    }

    /** Whether the action may be offered now. */
    public boolean permits() {
        return state == State.ALLOWED || state == State.UNKNOWN;
    }

    /**
     * Several checks for one action: the first denial wins, then a check still running, then an unknown answer;
     * allowed only when every check is.
     */
    public static AccessDecision combine(List<AccessDecision> decisions) {
        for (State worst : List.of(State.DENIED, State.CHECKING, State.UNKNOWN)) {
            for (AccessDecision d : decisions) {
                if (d.state() == worst) {
                    return d;
                }
            }
        }
        return ALLOWED;
    }
}
