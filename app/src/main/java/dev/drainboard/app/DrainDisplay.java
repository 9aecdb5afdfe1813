package dev.drainboard.app;

import dev.drainboard.ops.DrainPreview;
import dev.drainboard.ops.DrainProgress;
import dev.drainboard.ops.PodPreview;
import dev.drainboard.ops.PodProgress;
import dev.drainboard.ops.PodState;

import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The drain's progress in a terminal: one line per pod with its state, attempts and the last answer. On a terminal
 * the block is redrawn in place (ANSI: cursor up, clear line); otherwise a line is appended whenever a pod's state or
 * last message changes, so logs and pipes stay readable.
 */
final class DrainDisplay {

    private static final String CLEAR_LINE = "\033[2K";

    private final PrintWriter out;
    private final boolean ansi;
    private final int width;
    private int drawnLines;
    private final Map<String, String> lastPrinted = new HashMap<>();
    private DrainProgress.Phase lastPhase;

    DrainDisplay(PrintWriter out, boolean ansi, int width) {
        this.out = out;
        this.ansi = ansi;
        this.width = Math.max(40, width);
    }

    synchronized void show(DrainProgress progress) {
        if (ansi) {
            redraw(progress);
        } else {
            append(progress);
        }
        out.flush();
    }

    private void redraw(DrainProgress progress) {
        if (drawnLines > 0) {
            out.print("\033[" + drawnLines + "F"); // to the start of the block
        }
        List<String> lines = new ArrayList<>();
        lines.add(header(progress));
        progress.pods().forEach(p -> lines.add(line(p)));
        for (String line : lines) {
            out.print(CLEAR_LINE);
            out.println(line.length() > width ? line.substring(0, width - 1) + "…" : line);
        }
        drawnLines = lines.size();
    }

    private void append(DrainProgress progress) {
        if (progress.phase() != lastPhase) {
            lastPhase = progress.phase();
            if (progress.phase() != DrainProgress.Phase.ENDED) {
                out.println(header(progress));
            }
        }
        for (PodProgress pod : progress.pods()) {
            String seen = pod.state() + "\u0000" + pod.lastMessage();
            if (!seen.equals(lastPrinted.put(pod.key(), seen))) {
                out.println(line(pod));
            }
        }
    }

    static String header(DrainProgress progress) {
        String elapsed = GoDurations.format(Duration.ofSeconds(Duration.between(progress.startedAt(), Instant.now()).toSeconds()));
        return switch (progress.phase()) {
            case PREPARING -> "node/" + progress.node() + ": reading its pods";
            case CORDONING -> "node/" + progress.node() + ": cordoning";
            case EVICTING, ENDED -> "node/" + progress.node() + " cordoned: " + progress.count(PodState.GONE) + "/"
                    + progress.pods().size() + " pods gone, " + waiting(progress) + " (" + elapsed + ")";
        };
    }

    private static String waiting(DrainProgress progress) {
        long migrating = progress.count(PodState.WAITING_FOR_MIGRATION);
        long blocked = progress.count(PodState.BLOCKED);
        return migrating + " waiting for migration, " + blocked + " blocked";
    }

    static String line(PodProgress pod) {
        return String.format("  %-50s %-21s %3d  %s", pod.key(), pod.state(), pod.attempts(), pod.lastMessage());
    }

    /** The preview as a table: pod, outcome, reason; then kubectl's refusals. */
    static void printPreview(PrintWriter out, DrainPreview preview) {
        out.println("node/" + preview.node() + " (dry run): " + preview.pods().size() + " pods");
        int nameWidth = Math.max(3, preview.pods().stream().mapToInt(p -> p.key().length()).max().orElse(3));
        String format = "%-" + nameWidth + "s  %-26s  %s%n";
        out.printf(format, "POD", "OUTCOME", "REASON");
        for (PodPreview pod : preview.pods()) {
            out.printf(format, pod.key(), pod.outcome(), pod.reason());
        }
        for (String error : preview.errors()) {
            out.println("error: " + error);
        }
    }
}
