package dev.drainboard.ui.migrations;

import dev.drainboard.ui.common.Formats;
import dev.drainboard.ui.common.RevealRequest;
import dev.drainboard.ui.model.MigrationRow;
import javafx.application.Platform;
import javafx.beans.property.IntegerProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.SimpleIntegerProperty;
import javafx.collections.ListChangeListener;
import javafx.collections.ObservableList;
import javafx.geometry.Orientation;
import javafx.geometry.Rectangle2D;
import javafx.geometry.VPos;
import javafx.scene.Scene;
import javafx.scene.canvas.Canvas;
import javafx.scene.canvas.GraphicsContext;
import javafx.scene.control.Label;
import javafx.scene.control.ScrollBar;
import javafx.scene.control.Tooltip;
import javafx.scene.input.MouseEvent;
import javafx.scene.input.ScrollEvent;
import javafx.scene.layout.Background;
import javafx.scene.layout.Region;
import javafx.scene.paint.Color;
import javafx.scene.paint.Paint;
import javafx.scene.text.Font;
import javafx.scene.text.FontWeight;
import javafx.scene.text.TextAlignment;
import javafx.util.Duration;

import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * A Gantt-like picture of the last N minutes of migrations: one lane per source node, one bar per migration from
 * its creation (when it took a slot) to its end or now, coloured by outcome; parallel migrations from one node stack
 * in the lane, so the slots in use are visible.
 *
 * <p>Drawn on one canvas. Changes (rows, the clock's tick, the window) only mark it dirty and ask for a pulse; a
 * post-layout pulse listener redraws once if dirty. So a burst of row updates costs one redraw, the scene graph is
 * not re-laid out for it, and when nothing changes the canvas is redrawn once a second as time advances. Colours
 * come from the theme through hidden, CSS-styled swatches, so light and dark both work.
 */
final class MigrationTimeline extends Region {

    private static final double GUTTER = 150;
    private static final double AXIS = 26;
    private static final double RIGHT = 16;
    private static final double BAR = 14;
    private static final double GAP = 4;
    private static final double LANE_PAD = 8;
    private static final double MIN_LANE = 40;
    private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm").withZone(ZoneId.systemDefault());

    private final ObservableList<MigrationRow> rows;
    private final Function<MigrationRow, String> sourceOf;
    private final Canvas canvas = new Canvas();
    private final ScrollBar scroll = new ScrollBar();
    private final Label empty = new Label();
    private final IntegerProperty windowMinutes = new SimpleIntegerProperty(15);
    private final Map<Swatch, Region> swatches = new EnumMap<>(Swatch.class);
    private final Tooltip tip = new Tooltip();
    private final Runnable pulseListener = this::redrawIfDirty;
    private final List<Hit> hits = new ArrayList<>();
    private Instant now;
    private boolean dirty = true;
    private boolean tipInstalled;
    private long redraws;
    private double laidOutWidth = -1;
    private double laidOutHeight = -1;
    private double laidOutScrollBar = -1;

    private enum Swatch { RUNNING, PENDING, SUCCEEDED, FAILED, CANCELLED, TEXT, MUTED, GRID, LANE, NOW, ON_BAR }

    private record Hit(Rectangle2D box, TimelineLayout.Bar bar) {
    }

    /**
     * @param clock    ticks once a second; each tick moves the window
     * @param sourceOf a migration's source node when its status does not name it yet
     */
    MigrationTimeline(ObservableList<MigrationRow> rows, ObjectProperty<Instant> clock, Function<MigrationRow, String> sourceOf) {
        this.rows = rows;
        this.sourceOf = sourceOf;
        this.now = clock.get();
        getStyleClass().add("migration-timeline");
        setId("migrationTimeline");
        for (Swatch s : Swatch.values()) {
            Region r = new Region();
            r.getStyleClass().addAll("timeline-swatch", "swatch-" + s.name().toLowerCase(java.util.Locale.ROOT).replace('_', '-'));
            r.setManaged(false);
            r.setVisible(false);
            swatches.put(s, r);
            getChildren().add(r);
        }
        scroll.setOrientation(Orientation.VERTICAL);
        scroll.valueProperty().addListener((o, a, b) -> markDirty());
        empty.getStyleClass().add("timeline-empty");
        empty.setManaged(false);
        getChildren().addAll(canvas, scroll, empty);
        tip.setShowDelay(Duration.millis(150));

        rows.addListener((ListChangeListener<MigrationRow>) c -> markDirty());
        clock.addListener((o, old, t) -> {
            now = t;
            markDirty();
        });
        windowMinutes.addListener((o, a, b) -> markDirty());
        sceneProperty().addListener((o, old, scene) -> {
            if (old != null) {
                old.removePostLayoutPulseListener(pulseListener);
            }
            if (scene != null) {
                scene.addPostLayoutPulseListener(pulseListener);
                markDirty();
            }
        });
        canvas.addEventHandler(MouseEvent.MOUSE_MOVED, e -> hover(e.getX(), e.getY()));
        canvas.addEventHandler(MouseEvent.MOUSE_EXITED, e -> setTip(null));
        canvas.addEventHandler(MouseEvent.MOUSE_CLICKED, e -> barAt(e.getX(), e.getY())
                .ifPresent(bar -> fireEvent(new RevealRequest(bar.row().ref()))));
        canvas.addEventHandler(ScrollEvent.SCROLL, e -> {
            if (scroll.isVisible()) {
                scroll.setValue(Math.max(0, Math.min(scroll.getMax(), scroll.getValue() - e.getDeltaY())));
            }
        });
    }

    /** Minutes shown: 5, 15 or 60. */
    IntegerProperty windowMinutesProperty() {
        return windowMinutes;
    }

    /** How often the canvas was drawn (for tests and the UI benchmark). */
    long redraws() {
        return redraws;
    }

    private void markDirty() {
        if (!dirty) {
            dirty = true;
            Platform.requestNextPulse();
        }
    }

    @Override
    protected void layoutChildren() {
        double w = snapSizeX(getWidth());
        double h = snapSizeY(getHeight());
        double sb = scroll.isVisible() ? scroll.prefWidth(-1) : 0;
        canvas.setWidth(Math.max(0, w - sb));
        canvas.setHeight(h);
        canvas.relocate(0, 0);
        scroll.resizeRelocate(w - sb, AXIS, sb, Math.max(0, h - AXIS));
        empty.autosize();
        empty.relocate(GUTTER + (w - GUTTER - empty.getWidth()) / 2, AXIS + (h - AXIS - empty.getHeight()) / 2);
        // A layout pass for another reason (a parent's) redraws only when the canvas changed size.
        if (w != laidOutWidth || h != laidOutHeight || sb != laidOutScrollBar) {
            laidOutWidth = w;
            laidOutHeight = h;
            laidOutScrollBar = sb;
            dirty = true;
        }
        redrawIfDirty();
    }

    @Override
    protected double computePrefHeight(double width) {
        return 220;
    }

    private void redrawIfDirty() {
        Scene scene = getScene();
        if (!dirty || scene == null || canvas.getWidth() <= GUTTER + RIGHT || canvas.getHeight() <= AXIS) {
            return;
        }
        dirty = false;
        redraws++;
        Instant from = now.minusSeconds(windowMinutes.get() * 60L);
        List<TimelineLayout.Lane> lanes = TimelineLayout.layout(rows, from, now, sourceOf);
        double contentHeight = lanes.stream().mapToDouble(MigrationTimeline::laneHeight).sum();
        double viewport = canvas.getHeight() - AXIS;
        boolean needScroll = contentHeight > viewport + 0.5;
        if (needScroll != scroll.isVisible()) {
            scroll.setVisible(needScroll);
            requestLayout(); // the canvas gives the scroll bar room on the next pulse
        }
        scroll.setMax(Math.max(0, contentHeight - viewport));
        scroll.setVisibleAmount(viewport);
        scroll.setUnitIncrement(MIN_LANE);
        if (scroll.getValue() > scroll.getMax()) {
            scroll.setValue(scroll.getMax());
        }
        empty.setText("No migrations in the last " + windowMinutes.get() + " minutes");
        empty.setVisible(lanes.isEmpty());
        draw(lanes, from, needScroll ? scroll.getValue() : 0);
    }

    private static double laneHeight(TimelineLayout.Lane lane) {
        return Math.max(MIN_LANE, LANE_PAD * 2 + lane.slots() * BAR + (lane.slots() - 1) * GAP);
    }

    private void draw(List<TimelineLayout.Lane> lanes, Instant from, double offset) {
        GraphicsContext g = canvas.getGraphicsContext2D();
        double w = canvas.getWidth();
        double h = canvas.getHeight();
        g.clearRect(0, 0, w, h);
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

    private static String ellipsize(String s, int max) {
        if (max <= 1) {
            return "";
        }
        return s.length() <= max ? s : s.substring(0, Math.max(1, max - 1)) + "…";
    }

    private Paint paint(Swatch s) {
        Background b = swatches.get(s).getBackground();
        return b == null || b.getFills().isEmpty() ? Color.GRAY : b.getFills().getFirst().getFill();
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

    private void hover(double x, double y) {
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
        canvas.setCursor(barAt(x, y).isPresent() ? javafx.scene.Cursor.HAND : javafx.scene.Cursor.DEFAULT);
    }

    private void setTip(String text) {
        if (text == null) {
            if (tipInstalled) {
                Tooltip.uninstall(canvas, tip);
                tipInstalled = false;
            }
            return;
        }
        tip.setText(text);
        if (!tipInstalled) {
            Tooltip.install(canvas, tip);
            tipInstalled = true;
        }
    }
}
