package dev.drainboard.ui.model;

import dev.drainboard.runtime.LeaderState;

/**
 * Who runs the controllers for this connection, as the status bar and the Controllers screen say it.
 *
 * @param role     what this process is
 * @param identity this process's identity (empty when it runs no controllers)
 * @param leader   holder of the Lease as last observed, or empty if none/unknown
 * @param lease    {@code namespace/name} of the Lease, or empty when leader election is off
 */
public record Leadership(Role role, String identity, String leader, String lease) {

    public enum Role {
        /** This process holds the Lease (or runs without leader election) and runs the controllers. */
        LEADER,
        /** This process stands for leader; another holds the Lease (or nobody does yet). */
        STANDBY,
        /** Observe mode: this process runs no controllers. */
        OBSERVING
    }

    public static final Leadership OBSERVING = new Leadership(Role.OBSERVING, "", "", "");

    /** What a control plane's leader state means; null (no controllers in this process) is Observe. */
    public static Leadership of(LeaderState state) {
        if (state == null) {
            return OBSERVING;
        }
        return new Leadership(state.leader() ? Role.LEADER : Role.STANDBY, orEmpty(state.identity()),
                orEmpty(state.currentLeader()), orEmpty(state.lease()));
    }

    private static String orEmpty(String s) {
        return s == null ? "" : s;
    }
}
