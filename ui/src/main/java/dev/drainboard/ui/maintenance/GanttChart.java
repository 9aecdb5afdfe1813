package dev.drainboard.ui.maintenance;

import dev.drainboard.history.HistoryDocuments;
import dev.drainboard.ui.common.CanvasChart;
import dev.drainboard.ui.model.MaintenancePlanRow;
import javafx.beans.property.ObjectProperty;
import javafx.geometry.Rectangle2D;
import javafx.geometry.VPos;
import javafx.scene.canvas.GraphicsContext;
import javafx.scene.text.Font;
import javafx.scene.text.FontWeight;
import javafx.scene.text.TextAlignment;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The plan as a Gantt chart: one lane per node in the planner's order, its predicted bar (hollow) and, once the plan
 * runs, its actual bars over it (draining, then the after-drain step), on an axis of real time from the plan's start.
 * Lanes of one batch share a background band, so the batches are visible. Redrawn once per pulse when something
 * changed (the plan, the clock while it runs, the size).
 */
final class GanttChart extends CanvasChart<GanttChart.Swatch> {

    private static final double GUTTER = 190;
    private static final double RIGHT = 18;
    private static final double LANE = 34;
    private static final double PREDICTED = 22;
    private static final double ACTUAL = 12;

    enum Swatch { PREDICTED, PREDICTED_EDGE, DRAINING, AFTER_DRAIN, DONE, FAILED, TEXT, MUTED, GRID, BAND, NOW, LATE }

    private record Hit(Rectangle2D box, GanttLayout.Lane lane) {
    }

    private final ObjectProperty<MaintenancePlanRow> plan;
    private final List<Hit> hits = new ArrayList<>();
    private Instant now;
    private GanttLayout.Layout layout;

    GanttChart(ObjectProperty<MaintenancePlanRow> plan, ObjectProperty<Instant> clock) {
        super(Swatch.class, "gantt-", GUTTER + RIGHT);
        this.plan = plan;
        this.now = clock.get();
        setId("maintenanceGantt");
        getStyleClass().add("maintenance-gantt");
        empty().setText("Pick nodes to see the plan");
        empty().setId("ganttEmpty");
        plan.addListener((o, a, b) -> {
            markDirty();
            if (a == null || b == null || a.nodes().size() != b.nodes().size()) {
                requestLayout(); // its height follows the number of lanes
            }
        });
        clock.addListener((o, old, t) -> {
            now = t;
            MaintenancePlanRow p = plan.get();
            if (p != null && p.startedAt() != null && !p.ended()) {
                markDirty(); // only a running plan's bars grow with time
            }
        });
    }

    /** What the empty chart says (no plan, or no nodes picked). */
    void setEmptyText(String text) {
        empty().setText(text);
    }

    /** As tall as its lanes (so the tables below get the rest), up to 360 px; it scrolls beyond. */
    @Override
    protected double computePrefHeight(double width) {
        MaintenancePlanRow p = plan.get();
        int lanes = p == null ? 0 : p.nodes().size();
        return Math.min(360, Math.max(120, AXIS + lanes * LANE + 6));
    }

    @Override
    protected double computeMinHeight(double width) {
        return 120;
    }

    @Override
    protected double prepare() {
        MaintenancePlanRow p = plan.get();
        layout = p == null ? null : GanttLayout.of(p, now);
        int lanes = layout == null ? 0 : layout.lanes().size();
        empty().setVisible(lanes == 0);
        return lanes * LANE;
    }

    @Override
    protected double scrollStep() {
        return LANE;
    }

    private double x(double seconds) {
        double plotW = canvas().getWidth() - GUTTER - RIGHT;
        return GUTTER + seconds / layout.span() * plotW;
    }

    @Override
    protected void draw(GraphicsContext g, double w, double h, double offset) {
        hits.clear();
        if (layout == null || layout.lanes().isEmpty()) {
            return;
        }
        Font font = Font.font(Font.getDefault().getFamily(), 11.5);
        Font bold = Font.font(Font.getDefault().getFamily(), FontWeight.BOLD, 12);
        g.setTextBaseline(VPos.CENTER);
        double bottom = Math.min(h, AXIS - offset + layout.lanes().size() * LANE);

        g.save();
        g.beginPath();
        g.rect(0, AXIS, w, h - AXIS);
        g.clip();
        // Batches: every other batch on a band, a line between batches.
        double y = AXIS - offset;
        int previousBatch = Integer.MIN_VALUE;
        for (GanttLayout.Lane lane : layout.lanes()) {
            int batch = lane.node().batch();
            if (batch % 2 == 1) {
                g.setFill(paint(Swatch.BAND));
                g.fillRect(0, y, w, LANE);
            }
            if (batch != previousBatch && previousBatch != Integer.MIN_VALUE) {
                g.setStroke(paint(Swatch.GRID));
                g.setLineWidth(1);
                g.strokeLine(0, Math.floor(y) + 0.5, w, Math.floor(y) + 0.5);
            }
            previousBatch = batch;
            y += LANE;
        }
        g.setStroke(paint(Swatch.GRID));
        g.setLineDashes(3, 3);
        for (double t = layout.tickStep(); t < layout.span(); t += layout.tickStep()) {
            double x = Math.floor(x(t)) + 0.5;
            g.strokeLine(x, AXIS, x, bottom);
        }
        g.setLineDashes();
        y = AXIS - offset;
        for (GanttLayout.Lane lane : layout.lanes()) {
            if (y + LANE >= AXIS && y <= h) {
                drawLane(g, lane, y, font, bold);
            }
            y += LANE;
        }
        if (layout.now() != null) {
            double x = Math.floor(x(layout.now())) + 0.5;
            g.setStroke(paint(Swatch.NOW));
            g.setLineWidth(1.5);
            g.strokeLine(x, AXIS, x, bottom);
            g.setLineWidth(1);
        }
        g.restore();

        // The axis: real time from the plan's start.
        g.setFont(font);
        g.setFill(paint(Swatch.MUTED));
        g.setTextAlign(TextAlignment.LEFT);
        g.fillText("Node · batch · phase", 12, AXIS / 2);
        g.setTextAlign(TextAlignment.CENTER);
        for (double t = 0; t < layout.span(); t += layout.tickStep()) {
            double x = x(t);
            if (x < w - RIGHT - 24) {
                g.fillText(GanttLayout.tick(t), t == 0 ? x + 6 : x, AXIS / 2);
            }
        }
        if (layout.now() != null) {
            g.setFill(paint(Swatch.NOW));
            g.fillText("now", Math.min(x(layout.now()), w - RIGHT - 10), AXIS / 2);
        }
        g.setStroke(paint(Swatch.GRID));
        g.strokeLine(0, AXIS - 0.5, w, AXIS - 0.5);
    }

    private void drawLane(GraphicsContext g, GanttLayout.Lane lane, double y, Font font, Font bold) {
        var n = lane.node();
        g.setTextAlign(TextAlignment.LEFT);
        g.setFont(bold);
        g.setFill(paint(Swatch.TEXT));
        g.fillText(ellipsize(n.name(), 22), 12, y + LANE / 2 - 7, GUTTER - 18);
        g.setFont(font);
        g.setFill(paint("Failed".equals(n.phase()) ? Swatch.FAILED : Swatch.MUTED));
        g.fillText("batch " + n.batch() + " · " + n.phase(), 12, y + LANE / 2 + 8, GUTTER - 18);

        GanttLayout.Bar p = lane.predicted();
        double x0 = x(p.start());
        double bw = Math.max(3, x(p.end()) - x0);
        double py = y + (LANE - PREDICTED) / 2;
        g.setFill(paint(Swatch.PREDICTED));
        g.fillRoundRect(x0, py, bw, PREDICTED, 6, 6);
        g.setStroke(paint(Swatch.PREDICTED_EDGE));
        g.setLineWidth(1);
        g.strokeRoundRect(x0 + 0.5, py + 0.5, bw - 1, PREDICTED - 1, 6, 6);
        double ay = y + (LANE - ACTUAL) / 2;
        for (GanttLayout.Bar a : lane.actual()) {
            double ax = x(a.start());
            g.setFill(paint(switch (a.kind()) {
                case DRAINING -> Swatch.DRAINING;
                case AFTER_DRAIN -> Swatch.AFTER_DRAIN;
                case DONE -> Swatch.DONE;
                case FAILED -> Swatch.FAILED;
                case PREDICTED -> Swatch.PREDICTED;
            }));
            g.fillRoundRect(ax, ay, Math.max(3, x(a.end()) - ax), ACTUAL, 4, 4);
        }
        if (lane.actual().isEmpty() && bw > 60) {
            g.setFill(paint(Swatch.MUTED));
            g.fillText(HistoryDocuments.duration(n.predictedSeconds()), x0 + 6, y + LANE / 2, bw - 10);
        }
        if (lane.late()) {
            double end = lane.actual().stream().mapToDouble(GanttLayout.Bar::end).max().orElse(0);
            g.setFill(paint(Swatch.LATE));
            g.fillText("late", x(end) + 4, y + LANE / 2);
        }
        hits.add(new Hit(new Rectangle2D(0, y, canvas().getWidth(), LANE), lane));
    }

    @Override
    protected void hover(double x, double y) {
        if (y < AXIS) {
            setTip(null);
            return;
        }
        setTip(hits.stream().filter(h -> h.box().contains(x, y)).findFirst().map(h -> describe(h.lane())).orElse(null));
    }

    private String describe(GanttLayout.Lane lane) {
        var n = lane.node();
        StringBuilder text = new StringBuilder(n.name() + " — batch " + n.batch() + ", " + n.phase());
        text.append("\nPredicted: from ").append(GanttLayout.tick(n.predictedStartSeconds())).append(", ")
                .append(HistoryDocuments.duration(n.predictedSeconds()));
        if (!lane.actual().isEmpty()) {
            double start = lane.actual().getFirst().start();
            double end = lane.actual().getLast().end();
            text.append("\nActual: from ").append(GanttLayout.tick(start)).append(", ").append(HistoryDocuments.duration(end - start));
        }
        text.append("\nMigrations: ").append(n.migrationsMade()).append(" made of ").append(n.migrationsPredicted()).append(" predicted");
        if (!n.message().isEmpty()) {
            text.append("\n").append(n.message());
        }
        return text.toString();
    }
}
