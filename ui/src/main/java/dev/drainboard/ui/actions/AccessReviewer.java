package dev.drainboard.ui.actions;

/** Asks the cluster one {@link AccessCheck}; blocking (called off the FX thread). Tests pass their own answers. */
@FunctionalInterface
public interface AccessReviewer {
    AccessDecision review(AccessCheck check);
}
