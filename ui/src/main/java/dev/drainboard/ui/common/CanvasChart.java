package dev.drainboard.ui.common;

import javafx.application.Platform;
import javafx.geometry.Orientation;
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
import javafx.util.Duration;

import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;

/**
 * A chart of lanes drawn on one canvas under an axis row, with a vertical scroll bar when the lanes do not fit, a
 * tooltip and a label for when there is nothing to show: the migrations' timeline and the maintenance plan's Gantt
 * chart.
 *
 * <p>Changes only mark it dirty and ask for a pulse; a post-layout pulse listener redraws once if dirty. So a burst of
 * changes costs one redraw and the scene graph is not re-laid out for it; a layout pass redraws only when the canvas
 * changed size. Colours come from the theme through hidden swatch regions styled by CSS ({@code <prefix><swatch>},
 * e.g. {@code swatch-running}), so light and dark both work.
 *
 * @param <S> the chart's colours
 */
public abstract class CanvasChart<S extends Enum<S>> extends Region {

    /** The height of the axis row above the lanes. */
    protected static final double AXIS = 26;

    private final Canvas canvas = new Canvas();
    private final ScrollBar scroll = new ScrollBar();
    private final Label empty = new Label();
    private final Map<S, Region> swatches;
    private final Tooltip tip = new Tooltip();
    private final Runnable pulseListener = this::redrawIfDirty;
    private final double minWidth;
    private boolean dirty = true;
    private boolean tipInstalled;
    private long redraws;
    private double laidOutWidth = -1;
    private double laidOutHeight = -1;
    private double laidOutScrollBar = -1;

    /**
     * @param swatchPrefix the CSS class prefix of the colours
     * @param minWidth     below this canvas width nothing is drawn (the gutter and the right margin)
     */
    protected CanvasChart(Class<S> colours, String swatchPrefix, double minWidth) {
        this.minWidth = minWidth;
        swatches = new EnumMap<>(colours);
        for (S s : colours.getEnumConstants()) {
            Region r = new Region();
            r.getStyleClass().addAll("timeline-swatch", swatchPrefix + s.name().toLowerCase(Locale.ROOT).replace('_', '-'));
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
        canvas.addEventHandler(ScrollEvent.SCROLL, e -> {
            if (scroll.isVisible()) {
                scroll.setValue(Math.max(0, Math.min(scroll.getMax(), scroll.getValue() - e.getDeltaY())));
            }
        });
    }

    /** Lays out what the next drawing shows and answers the height of its lanes. */
    protected abstract double prepare();

    /** Draws the prepared content on a cleared canvas of {@code w × h}, lanes scrolled up by {@code offset}. */
    protected abstract void draw(GraphicsContext g, double w, double h, double offset);

    /** The mouse moved over the canvas at (x, y). */
    protected abstract void hover(double x, double y);

    /** How far one scroll bar step moves. */
    protected abstract double scrollStep();

    /** The left edge of the area the "nothing to show" label is centred in. */
    protected double emptyAreaLeft() {
        return 0;
    }

    /** How often the canvas was drawn (for tests and the UI benchmark). */
    public final long redraws() {
        return redraws;
    }

    protected final Canvas canvas() {
        return canvas;
    }

    /** The label shown when there is nothing to draw; the subclass sets its text and visibility in {@link #prepare}. */
    protected final Label empty() {
        return empty;
    }

    protected final void markDirty() {
        if (!dirty) {
            dirty = true;
            Platform.requestNextPulse();
        }
    }

    protected final Paint paint(S s) {
        Background b = swatches.get(s).getBackground();
        return b == null || b.getFills().isEmpty() ? Color.GRAY : b.getFills().getFirst().getFill();
    }

    /** Shows {@code text} as the canvas's tooltip, or none for null. */
    protected final void setTip(String text) {
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

    /** {@code s} cut to {@code max} characters with an ellipsis; empty when not even one fits. */
    protected static String ellipsize(String s, int max) {
        if (max <= 1) {
            return "";
        }
        return s.length() <= max ? s : s.substring(0, max - 1) + "…";
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
        double left = emptyAreaLeft();
        empty.relocate(left + (w - left - empty.getWidth()) / 2, AXIS + (h - AXIS - empty.getHeight()) / 2);
        // A layout pass for another reason (a parent's) redraws only when the canvas changed size.
        if (w != laidOutWidth || h != laidOutHeight || sb != laidOutScrollBar) {
            laidOutWidth = w;
            laidOutHeight = h;
            laidOutScrollBar = sb;
            dirty = true;
        }
        redrawIfDirty();
    }

    private void redrawIfDirty() {
        if (!dirty || getScene() == null || canvas.getWidth() <= minWidth || canvas.getHeight() <= AXIS) {
            return;
        }
        dirty = false;
        redraws++;
        double contentHeight = prepare();
        double viewport = canvas.getHeight() - AXIS;
        boolean needScroll = contentHeight > viewport + 0.5;
        if (needScroll != scroll.isVisible()) {
            scroll.setVisible(needScroll);
            requestLayout(); // the canvas gives the scroll bar room on the next pulse
        }
        scroll.setMax(Math.max(0, contentHeight - viewport));
        scroll.setVisibleAmount(viewport);
        scroll.setUnitIncrement(scrollStep());
        if (scroll.getValue() > scroll.getMax()) {
            scroll.setValue(scroll.getMax());
        }
        GraphicsContext g = canvas.getGraphicsContext2D();
        g.clearRect(0, 0, canvas.getWidth(), canvas.getHeight());
        draw(g, canvas.getWidth(), canvas.getHeight(), needScroll ? scroll.getValue() : 0);
    }
}
