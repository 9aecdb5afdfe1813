package dev.drainboard.app;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drainboard.ops.Blocker;
import dev.drainboard.ops.DrainPreview;
import dev.drainboard.ops.DrainProgress;
import dev.drainboard.ops.DrainWaits;
import dev.drainboard.ops.TimeLeftDecision;
import dev.drainboard.ops.WhyPendingDecision;
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
import java.util.Optional;

/**
 * The drain's progress in a terminal: one line per pod with its state, attempts and the last answer. On a terminal
 * the block is redrawn in place (ANSI: cursor up, clear line); otherwise a line is appended whenever a pod's state or
 * last message changes, so logs and pipes stay readable. A pod whose VMI waits for its migration says why (the
 * {@link WhyPendingDecision} of {@link DrainWaits}), and the header says how long the live migrations still take;
 * appended, the time left is a line of its own, at most every {@link #TIME_LEFT_EVERY}.
 */
final class DrainDisplay {

    private static final String CLEAR_LINE = "\033[2K";

    private final PrintWriter out;
    private final boolean ansi;
    private final int width;
    private int drawnLines;
    private final Map<String, String> lastPrinted = new HashMap<>();
    private DrainProgress.Phase lastPhase;
    static final Duration TIME_LEFT_EVERY = Duration.ofSeconds(10);
    private volatile DrainWaits waits = DrainWaits.NONE;
    private final Map<String, String> lastTimeLeft = new HashMap<>();
    private final Map<String, Instant> lastTimeLeftAt = new HashMap<>();

    DrainDisplay(PrintWriter out, boolean ansi, int width) {
        this.out = out;
        this.ansi = ansi;
        this.width = Math.max(40, width);
    }

    /** The drain's migrations as last read; the next {@link #show} prints them. */
    void waits(DrainWaits waits) {
        this.waits = waits == null ? DrainWaits.NONE : waits;
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
        lines.add(header(progress, waits));
        DrainWaits now = waits;
        progress.pods().forEach(p -> lines.add(line(p, now)));
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
        DrainWaits now = waits;
        for (PodProgress pod : progress.pods()) {
            String seen = pod.stateWord() + "\u0000" + message(pod, now);
            if (!seen.equals(lastPrinted.put(pod.key(), seen))) {
                out.println(line(pod, now));
            }
        }
        Optional<String> left = timeLeft(progress, now);
        Instant at = lastTimeLeftAt.get(progress.node());
        if (left.isPresent() && !left.get().equals(lastTimeLeft.get(progress.node()))
                && (at == null || !Instant.now().isBefore(at.plus(TIME_LEFT_EVERY)))) {
            lastTimeLeft.put(progress.node(), left.get());
            lastTimeLeftAt.put(progress.node(), Instant.now());
            out.println("node/" + progress.node() + ": live migrations " + left.get());
        }
    }

    /** "~2 min 40 s left" while the node's drain evicts and migrations remain. */
    static Optional<String> timeLeft(DrainProgress progress, DrainWaits waits) {
        if (progress.phase() != DrainProgress.Phase.EVICTING || waits == null || waits.secondsLeft() <= 0) {
            return Optional.empty();
        }
        return Optional.of(TimeLeftDecision.text(waits.secondsLeft()));
    }

    static String header(DrainProgress progress) {
        return header(progress, DrainWaits.NONE);
    }

    static String header(DrainProgress progress, DrainWaits waits) {
        return headerText(progress) + timeLeft(progress, waits).map(t -> ", live migrations " + t).orElse("");
    }

    private static String headerText(DrainProgress progress) {
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
        return line(pod, DrainWaits.NONE);
    }

    /**
     * Pod, state, attempts and the last answer; a pod whose VMI's migration has not started says why instead, and an
     * External VMI what it waits for (never an internal state name).
     */
    static String line(PodProgress pod, DrainWaits waits) {
        return String.format("  %-50s %-21s %3d  %s", pod.key(), pod.stateWord(), pod.attempts(), message(pod, waits));
    }

    private static String message(PodProgress pod, DrainWaits waits) {
        String message = pod.lastMessage();
        if (!pod.state().isFinal() && pod.preview().vmi() != null) {
            Optional<WhyPendingDecision.Why> why = waits.of(pod.namespace(), pod.preview().vmi());
            if (why.isPresent() && pod.state() == PodState.WAITING_FOR_MIGRATION) {
                message = "migration waits: " + why.get().text();
            } else if (!pod.stateText().equals(pod.state().name())) {
                message = pod.stateText();
            }
        }
        return message;
    }

    private static void putSeconds(ObjectNode node, Double seconds) {
        if (seconds == null) {
            node.putNull("estimateSeconds");
        } else {
            node.put("estimateSeconds", (long) Math.ceil(seconds));
        }
    }

    /** The preview as a table: pod, outcome, reason; then kubectl's refusals. */
    static void printPreview(PrintWriter out, DrainPreview preview) {
        out.println("node/" + preview.node() + " (dry run): " + preview.pods().size() + " pods"
                + (preview.estimateSeconds() == null || preview.estimateSeconds() == 0 ? ""
                : ", live migrations done in about " + (long) Math.ceil(preview.estimateSeconds()) + "s at best"));
        int nameWidth = Math.max(3, preview.pods().stream().mapToInt(p -> p.key().length()).max().orElse(3));
        String format = "%-" + nameWidth + "s  %-26s  %s%n";
        out.printf(format, "POD", "OUTCOME", "REASON");
        for (PodPreview pod : preview.pods()) {
            out.printf(format, pod.key(), pod.outcome(), pod.reason());
        }
        for (String error : preview.errors()) {
            out.println("error: " + error);
        }
        if (preview.blocked()) {
            out.println("blockers (the drain refuses to start without --allow-stranded):");
            for (Blocker b : preview.blockers()) {
                out.println("  " + b.kind() + " " + b.key() + ": " + b.reason());
            }
        }
    }

    /**
     * The previews as one JSON document: {@code {"nodes":[{"name","pods":[…],"blockers":[…],"estimateSeconds"}],
     * "estimateSeconds"}}: the estimates in whole seconds, rounded up (null when none was worked out); the total is
     * when the last node's migrations end, the nodes' migrations sharing the cluster's slots.
     */
    static void printJson(PrintWriter out, List<DrainPreview> previews) {
        ObjectMapper json = new ObjectMapper();
        ObjectNode root = json.createObjectNode();
        ArrayNode nodes = root.putArray("nodes");
        for (DrainPreview preview : previews) {
            ObjectNode node = nodes.addObject();
            node.put("name", preview.node());
            ArrayNode pods = node.putArray("pods");
            for (PodPreview pod : preview.pods()) {
                pods.addObject().put("namespace", pod.namespace()).put("name", pod.name())
                        .put("outcome", pod.outcome().name()).put("reason", pod.reason());
            }
            ArrayNode blockers = node.putArray("blockers");
            for (Blocker b : preview.blockers()) {
                blockers.addObject().put("kind", b.kind()).put("namespace", b.namespace()).put("name", b.name())
                        .put("reason", b.reason());
            }
            putSeconds(node, preview.estimateSeconds());
        }
        putSeconds(root, previews.stream().map(DrainPreview::estimateSeconds).anyMatch(java.util.Objects::isNull) ? null
                : previews.stream().mapToDouble(DrainPreview::estimateSeconds).max().orElse(0));
        try {
            out.println(json.writerWithDefaultPrettyPrinter().writeValueAsString(root));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
