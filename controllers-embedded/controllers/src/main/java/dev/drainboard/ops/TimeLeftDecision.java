package dev.drainboard.ops;

import dev.drainboard.architecture.Pure;
import dev.drainboard.controller.migration.MigrationSlots;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * How long a running drain's live migrations still take: the ones under way from what their source node last
 * reported (bytes left over the throughput it measured), the ones not started through {@link DrainEstimate}'s slot
 * schedule behind them, so the single estimate the preview gave is the one that counts down. Pure.
 *
 * <pre>
 * a migration                                   bytes                      bytes per second
 *   transferring, progress reported              remaining                  the throughput reported, else its bandwidth
 *   started, no progress yet (target pod, …)     its memory                 its bandwidth
 *   not started (queued VMIM, marked, or to be)  its memory                 its bandwidth
 * the started ones take their slots first; the rest start in order as slots free
 * </pre>
 */
@Pure
public final class TimeLeftDecision {

    /**
     * One VMI still to move.
     *
     * @param started        its migration holds a slot already
     * @param remainingBytes bytes left as last reported, negative when nothing was reported
     * @param throughput     bytes per second last reported, 0 when unknown
     * @param memoryBytes    the guest's memory (what a transfer not yet begun copies)
     * @param bandwidth      what the transfer gets by configuration ({@code bandwidthPerMigration} or the link)
     */
    public record Move(String node, boolean started, long remainingBytes, long throughput, long memoryBytes, long bandwidth) {
        public Move {
            Objects.requireNonNull(node, "node");
        }

        DrainEstimate.Transfer transfer() {
            boolean reported = started && remainingBytes >= 0;
            return new DrainEstimate.Transfer(node, reported ? remainingBytes : memoryBytes,
                    reported && throughput > 0 ? throughput : bandwidth);
        }
    }

    private TimeLeftDecision() {
    }

    /** Seconds until the last migration ends. */
    public static double secondsLeft(List<Move> moves, MigrationSlots.Limits limits) {
        List<DrainEstimate.Transfer> transfers = new ArrayList<>();
        moves.stream().filter(Move::started).map(Move::transfer).forEach(transfers::add);
        moves.stream().filter(m -> !m.started()).map(Move::transfer).forEach(transfers::add);
        return DrainEstimate.of(transfers, limits).total();
    }

    /** "~2 min 40 s left", "~40 s left", "less than a second left"; seconds rounded up. */
    public static String text(double seconds) {
        long s = (long) Math.ceil(seconds);
        if (s <= 0) {
            return "less than a second left";
        }
        if (s < 60) {
            return "~" + s + " s left";
        }
        long h = s / 3600;
        long m = (s % 3600) / 60;
        long rest = s % 60;
        StringBuilder out = new StringBuilder("~");
        if (h > 0) {
            out.append(h).append(" h ");
        }
        if (h > 0 || m > 0) {
            out.append(m).append(" min");
        }
        if (h == 0 && rest > 0) {
            out.append(' ').append(rest).append(" s");
        }
        return out.append(" left").toString();
    }
}
