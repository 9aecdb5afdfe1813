package dev.drainboard.ui.migrations;

import dev.drainboard.ui.common.CanvasChart;
import dev.drainboard.ui.common.Formats;
import dev.drainboard.ui.common.RevealRequest;
import dev.drainboard.ui.model.MigrationRow;
import javafx.beans.property.IntegerProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.SimpleIntegerProperty;
import javafx.collections.ListChangeListener;
import javafx.collections.ObservableList;
import javafx.geometry.Rectangle2D;
import javafx.geometry.VPos;
import javafx.scene.canvas.GraphicsContext;
import javafx.scene.input.MouseEvent;
import javafx.scene.text.Font;
import javafx.scene.text.FontWeight;
import javafx.scene.text.TextAlignment;

import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * A Gantt-like picture of the last N minutes of migrations: one lane per source node, one bar per migration from
 * its creation (when it took a slot) to its end or now, coloured by outcome; parallel migrations from one node stack
 * in the lane, so the slots in use are visible. Redrawn once per pulse when something changed (rows, the clock's
 * tick, the window), so a burst of row updates costs one redraw, and once a second as time advances.
 */
final class MigrationTimeline extends CanvasChart<MigrationTimeline.Swatch> {

    private static final double GUTTER = 150;
    private static final double RIGHT = 16;
    private static final double BAR = 14;
    private static final double GAP = 4;
    private static final double LANE_PAD = 8;
    private static final double MIN_LANE = 40;
    private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm").withZone(ZoneId.systemDefault());

    private final ObservableList<MigrationRow> rows;
    private final Function<MigrationRow, String> sourceOf;
    private final IntegerProperty windowMinutes = new SimpleIntegerProperty(15);
    private final List<Hit> hits = new ArrayList<>();
    private Instant now;
    private Instant from;
    private List<TimelineLayout.Lane> lanes = List.of();

    enum Swatch { RUNNING, PENDING, SUCCEEDED, FAILED, CANCELLED, TEXT, MUTED, GRID, LANE, NOW, ON_BAR }

    private record Hit(Rectangle2D box, TimelineLayout.Bar bar) {
    }

    /**
     * @param clock    ticks once a second; each tick moves the window
     * @param sourceOf a migration's source node when its status does not name it yet
     */
    MigrationTimeline(ObservableList<MigrationRow> rows, ObjectProperty<Instant> clock, Function<MigrationRow, String> sourceOf) {
        super(Swatch.class, "swatch-", GUTTER + RIGHT);
        this.rows = rows;
        this.sourceOf = sourceOf;
        this.now = clock.get();
        getStyleClass().add("migration-timeline");
        setId("migrationTimeline");
        rows.addListener((ListChangeListener<MigrationRow>) c -> markDirty());
        clock.addListener((o, old, t) -> {
            now = t;
            markDirty();
        });
        windowMinutes.addListener((o, a, b) -> markDirty());
        canvas().addEventHandler(MouseEvent.MOUSE_CLICKED, e -> barAt(e.getX(), e.getY())
                .ifPresent(bar -> fireEvent(new RevealRequest(bar.row().ref()))));
    }

    /** Minutes shown: 5, 15 or 60. */
    IntegerProperty windowMinutesProperty() {
        return windowMinutes;
    }

    @Override
    protected double computePrefHeight(double width) {
        return 220;
    }

    @Override
    protected double prepare() {
        from = now.minusSeconds(windowMinutes.get() * 60L);
        lanes = TimelineLayout.layout(rows, from, now, sourceOf);
        empty().setText("No migrations in the last " + windowMinutes.get() + " minutes");
        empty().setVisible(lanes.isEmpty());
        return lanes.stream().mapToDouble(MigrationTimeline::laneHeight).sum();
    }

    @Override
    protected double scrollStep() {
        return MIN_LANE;
    }

    @Override
    protected double emptyAreaLeft() {
        return GUTTER;
    }

    private static double laneHeight(TimelineLayout.Lane lane) {
        return Math.max(MIN_LANE, LANE_PAD * 2 + lane.slots() * BAR + (lane.slots() - 1) * GAP);
    }

    @Override
    protected void draw(GraphicsContext g, double w, double h, double offset) {
        hits.clear();
        double span = Math.max(1, now.toEpochMilli() - from.toEpochMilli());
        double plotW = w - GUTTER - RIGHT;
        Font font = Font.font(Font.getDefault().getFamily(), 11.5);
        Font bold = Font.font(Font.getDefault().getFamily(), FontWeight.BOLD, 12);
        g.setTextBaseline(VPos.CENTER);

        int minutes = windowMinutes.get();
        long stepMs = (minutes <= 5 ? 1 : minutes <= 15 ? 3 : 10) * 60_000L;
        long firstTick = (from.toEpochMilli() / stepMs + 1) * stepMs;
        double contentBottom = AXIS - offset + lanes.stream().mapToDouble(MigrationTimeline::laneHeight).sum();
        double gridBottom = Math.max(AXIS, Math.min(h, contentBottom));

        g.save();
        g.beginPath();
        g.rect(0, AXIS, w, h - AXIS);
        g.clip();
        // Pass 1: lane backgrounds and separators.
        double y = AXIS - offset;
        for (int i = 0; i < lanes.size(); i++) {
            double lh = laneHeight(lanes.get(i));
            if (y + lh >= AXIS && y <= h) {
                if (i % 2 == 1) {
                    g.setFill(paint(Swatch.LANE));
                    g.fillRect(0, y, w, lh);
                }
                g.setStroke(paint(Swatch.GRID));
                g.setLineWidth(1);
                g.strokeLine(0, Math.floor(y + lh) + 0.5, w, Math.floor(y + lh) + 0.5);
            }
            y += lh;
        }
        // Pass 2: the time grid behind the bars.
        g.setStroke(paint(Swatch.GRID));
        g.setLineDashes(3, 3);
        for (long t = firstTick; t <= now.toEpochMilli(); t += stepMs) {
            double x = Math.floor(GUTTER + (t - from.toEpochMilli()) / span * plotW) + 0.5;
            g.strokeLine(x, AXIS, x, gridBottom);
        }
        g.setLineDashes();
        // Pass 3: labels and bars.
        y = AXIS - offset;
        for (TimelineLayout.Lane lane : lanes) {
            double lh = laneHeight(lane);
            if (y + lh >= AXIS && y <= h) {
                double slotsHeight = lane.slots() * BAR + (lane.slots() - 1) * GAP;
                g.setTextAlign(TextAlignment.LEFT);
                g.setFill(paint(Swatch.TEXT));
                g.setFont(bold);
                g.fillText(ellipsize(lane.node(), 18), 12, y + lh / 2 - 7, GUTTER - 18);
                g.setFont(font);
                g.setFill(paint(Swatch.MUTED));
                String sub = lane.inFlight() > 0 ? lane.inFlight() + " in flight" : lane.bars().size() + " finished";
                if (lane.slots() > 1) {
                    sub += " · " + lane.slots() + " at once";
                }
                g.fillText(sub, 12, y + lh / 2 + 8, GUTTER - 18);
                double slotTop = y + (lh - slotsHeight) / 2;
                for (TimelineLayout.Bar bar : lane.bars()) {
                    double x0 = GUTTER + Math.max(0, (bar.start().toEpochMilli() - from.toEpochMilli()) / span) * plotW;
                    double x1 = GUTTER + Math.min(1, (bar.end().toEpochMilli() - from.toEpochMilli()) / span) * plotW;
                    double bw = Math.max(3, x1 - x0);
                    double by = slotTop + bar.slot() * (BAR + GAP);
                    g.setFill(paint(switch (bar.outcome()) {
                        case RUNNING -> Swatch.RUNNING;
                        case PENDING -> Swatch.PENDING;
                        case SUCCEEDED -> Swatch.SUCCEEDED;
                        case FAILED -> Swatch.FAILED;
                        case CANCELLED -> Swatch.CANCELLED;
                    }));
                    g.fillRoundRect(x0, by, bw, BAR, 6, 6);
                    if (bw > 44) {
                        g.setFill(paint(Swatch.ON_BAR));
                        g.fillText(ellipsize(bar.row().vmi(), (int) ((bw - 10) / 6.5)), x0 + 5, by + BAR / 2 + 0.5, bw - 10);
                    }
                    hits.add(new Hit(new Rectangle2D(x0, by, bw, BAR), bar));
                }
            }
            y += lh;
        }
        g.restore();

        // The axis on top.
        g.setFont(font);
        g.setTextAlign(TextAlignment.CENTER);
        g.setFill(paint(Swatch.MUTED));
        for (long t = firstTick; t <= now.toEpochMilli(); t += stepMs) {
            double x = Math.floor(GUTTER + (t - from.toEpochMilli()) / span * plotW) + 0.5;
            if (x < w - RIGHT - 30) {
                g.fillText(CLOCK.format(Instant.ofEpochMilli(t)), x, AXIS / 2);
            }
        }
        g.setTextAlign(TextAlignment.RIGHT);
        g.setFill(paint(Swatch.NOW));
        g.fillText("now", w - 4, AXIS / 2);
        g.setStroke(paint(Swatch.NOW));
        g.strokeLine(GUTTER + plotW + 0.5, AXIS - 4, GUTTER + plotW + 0.5, gridBottom);
        g.setTextAlign(TextAlignment.LEFT);
        g.setFill(paint(Swatch.MUTED));
        g.fillText("Source node", 12, AXIS / 2);
        g.setStroke(paint(Swatch.GRID));
        g.strokeLine(0, AXIS - 0.5, w, AXIS - 0.5);
    }

    private java.util.Optional<TimelineLayout.Bar> barAt(double x, double y) {
        if (y < AXIS) {
            return java.util.Optional.empty();
        }
        for (Hit hit : hits) {
            if (hit.box().contains(x, y)) {
                return java.util.Optional.of(hit.bar());
            }
        }
        return java.util.Optional.empty();
    }

    @Override
    protected void hover(double x, double y) {
        setTip(barAt(x, y).map(bar -> {
            MigrationRow r = bar.row();
            String text = r.name() + "\nVMI " + r.namespace() + "/" + r.vmi() + " — " + r.phase()
                    + "\n" + Formats.orDash(r.sourceNode()) + " → " + Formats.orDash(r.targetNode())
                    + "\nCause: " + r.cause()
                    + "\n" + (r.finished() ? "Took " : "Running for ") + Formats.duration(r.elapsed(now));
            if (!r.failureReason().isEmpty()) {
                text += "\n" + r.failureReason();
            }
            return text + "\nClick to select it in the table";
        }).orElse(null));
        canvas().setCursor(barAt(x, y).isPresent() ? javafx.scene.Cursor.HAND : javafx.scene.Cursor.DEFAULT);
    }
}
