package dev.drainboard.ui.migrations;

import dev.drainboard.ui.common.Formats;
import dev.drainboard.ui.model.MigrationRow;
import dev.drainboard.ui.model.TransferProgress;

import java.util.Locale;

/** What the progress column and the details pane say about a migration's transfer. Pure. */
final class ProgressText {

    private ProgressText() {
    }

    /** The line beside the bar: {@code 63% · 48 MiB/s · pass 2}, or what the migration waits for. */
    static String summary(MigrationRow row) {
        TransferProgress t = row.progress();
        if (t == null && !row.waiting().isEmpty()) {
            return "waits: " + row.waiting(); // not started: why (a slot, a back-off, the target pod, the PDB)
        }
        if (t == null) {
            return switch (row.phase()) {
                case "Succeeded" -> "done";
                case "Failed" -> "failed before the transfer";
                case MigrationRow.CANCELLED -> "cancelled before the transfer";
                case "Running" -> "starting the transfer";
                case "Pending" -> "queued";
                default -> "preparing target (" + row.phase() + ")";
            };
        }
        String percent = String.format(Locale.ROOT, "%d%%", (int) Math.floor(t.fraction() * 100));
        if (row.aborted() && !"COMPLETED".equals(t.state())) {
            return "stopped at " + percent; // its last sample may still say RUNNING: nothing moves any more
        }
        return switch (t.state()) {
            case "COMPLETED" -> percent + " · " + Formats.bytes(t.processedBytes()) + " moved";
            case "FAILED" -> "stopped at " + percent;
            default -> percent + " · " + Formats.rate(t.bytesPerSecond()) + " · pass " + Math.max(1, t.iteration())
                    + (t.mode().isEmpty() || "PreCopy".equals(t.mode()) ? "" : " · " + t.mode());
        };
    }

    /** The data behind the bar, for the tooltip and the details pane. */
    static String detail(MigrationRow row) {
        TransferProgress t = row.progress();
        if (t == null) {
            return "No transfer reported yet." + (row.waiting().isEmpty() ? "" : " It waits: " + row.waiting() + ".");
        }
        StringBuilder s = new StringBuilder()
                .append(Formats.bytes(t.processedBytes())).append(" sent, ")
                .append(Formats.bytes(t.remainingBytes())).append(" remaining");
        if (t.totalBytes() > 0) {
            s.append(" (guest memory ").append(Formats.bytes(t.totalBytes())).append(")");
        }
        if (t.notConverging()) {
            s.append(". Remaining grew from ").append(Formats.bytes(t.remainingBefore())).append(" to ")
                    .append(Formats.bytes(t.remainingBytes())).append(" since the last sample: not converging.");
        }
        return s.toString();
    }

    /** The progress cell's tooltip: the data, and how to read the bar. */
    static String tooltip(MigrationRow row) {
        return detail(row) + (row.progress() == null ? ""
                : "\nThe bar shows sent ÷ (sent + remaining): it falls back when the guest dirties memory faster than it is copied.");
    }

    /** The warning beside the bar while remaining data grows (the tooltip says by how much); empty otherwise. */
    static String warning(MigrationRow row) {
        TransferProgress t = row.progress();
        return t != null && t.notConverging() && !row.finished() ? "not converging" : "";
    }
}
