package dev.drainboard.ui.migrations;

import dev.drainboard.ui.model.MigrationRow;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * Where each migration goes on the timeline: one lane per source node, and within a lane one row ("slot") per
 * migration running at the same time, so parallel outbound migrations sit one above the other and a node using
 * both of its slots shows two rows. Pure: rows and a time window in, lanes out.
 */
final class TimelineLayout {

    /** How a bar is coloured. */
    enum Outcome { PENDING, RUNNING, SUCCEEDED, FAILED, CANCELLED }

    /** One migration on the timeline; {@code end} is {@code now} while it is in flight. */
    record Bar(MigrationRow row, Instant start, Instant end, int slot, Outcome outcome) {
    }

    /**
     * @param slots   rows the lane needs: the most migrations from this node at once in the window
     * @param inFlight migrations from this node not finished yet
     */
    record Lane(String node, List<Bar> bars, int slots, int inFlight) {
    }

    static final String UNKNOWN_NODE = "(source unknown)";

    private TimelineLayout() {
    }

    /**
     * @param sourceOf where a migration runs from when its status does not say yet (its VMI's node); may return empty
     */
    static List<Lane> layout(Collection<MigrationRow> rows, Instant from, Instant now, Function<MigrationRow, String> sourceOf) {
        Map<String, List<MigrationRow>> byNode = new TreeMap<>();
        for (MigrationRow row : rows) {
            if (row.since() == null) {
                continue;
            }
            Instant end = row.until() != null ? row.until() : now;
            if (end.isBefore(from) || row.since().isAfter(now)) {
                continue;
            }
            String node = row.sourceNode();
            if (node.isEmpty()) {
                node = sourceOf.apply(row);
            }
            byNode.computeIfAbsent(node == null || node.isEmpty() ? UNKNOWN_NODE : node, k -> new ArrayList<>()).add(row);
        }
        List<Lane> lanes = new ArrayList<>();
        byNode.forEach((node, nodeRows) -> lanes.add(lane(node, nodeRows, now)));
        return lanes;
    }

    private static Lane lane(String node, List<MigrationRow> rows, Instant now) {
        List<MigrationRow> ordered = new ArrayList<>(rows);
        ordered.sort(Comparator.comparing(MigrationRow::since).thenComparing(MigrationRow::name));
        List<Instant> slotFreeAt = new ArrayList<>();
        List<Bar> bars = new ArrayList<>();
        int inFlight = 0;
        for (MigrationRow row : ordered) {
            Instant end = row.until() != null ? row.until() : now;
            int slot = 0;
            while (slot < slotFreeAt.size() && slotFreeAt.get(slot).isAfter(row.since())) {
                slot++;
            }
            if (slot == slotFreeAt.size()) {
                slotFreeAt.add(end);
            } else {
                slotFreeAt.set(slot, end);
            }
            bars.add(new Bar(row, row.since(), end, slot, outcome(row)));
            if (!row.finished()) {
                inFlight++;
            }
        }
        return new Lane(node, bars, slotFreeAt.size(), inFlight);
    }

    static Outcome outcome(MigrationRow row) {
        return switch (row.phase()) {
            case "Succeeded" -> Outcome.SUCCEEDED;
            case "Failed" -> Outcome.FAILED;
            case MigrationRow.CANCELLED -> Outcome.CANCELLED;
            case "Running" -> Outcome.RUNNING;
            default -> Outcome.PENDING;
        };
    }
}
