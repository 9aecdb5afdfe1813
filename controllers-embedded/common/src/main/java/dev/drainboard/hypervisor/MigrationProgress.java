package dev.drainboard.hypervisor;

import java.time.Instant;

/**
 * A live transfer as the source hypervisor reports it. {@code remainingBytes} can grow again while the guest dirties
 * memory faster than it is sent, so a progress bar built on it must not assume it only shrinks.
 *
 * @param mode           {@code PreCopy}, {@code PostCopy} or {@code Paused} (KubeVirt's migrationState.mode values)
 * @param iteration      the pre-copy pass, from 1
 * @param failureReason  why it failed, when it did
 */
public record MigrationProgress(String vmiUid, String targetNode, State state, String mode, long totalBytes,
                                long processedBytes, long remainingBytes, long bytesPerSecond, int iteration,
                                Instant startedAt, Instant endedAt, String failureReason) {

    public enum State { RUNNING, COMPLETED, FAILED }

    public boolean isFinished() {
        return state != State.RUNNING;
    }
}
