package dev.drainboard.runtime;

/**
 * What the UI shows about leader election.
 *
 * @param identity      this process's identity
 * @param leader        whether this process runs the controllers now
 * @param currentLeader holder of the Lease as last observed, or null if none/unknown
 * @param lease         {@code namespace/name} of the Lease, or null when leader election is off
 */
public record LeaderState(String identity, boolean leader, String currentLeader, String lease) {
}
