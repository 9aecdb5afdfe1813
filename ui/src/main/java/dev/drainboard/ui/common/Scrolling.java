package dev.drainboard.ui.common;

import javafx.scene.Node;
import javafx.scene.control.ScrollPane;

/** Scroll panes whose content animates. */
public final class Scrolling {

    private Scrolling() {
    }

    /**
     * Turns off the bitmap cache JavaFX's ScrollPaneSkin puts on its viewport ({@code viewRect.setCache(true)}).
     * With it, any change inside the pane, such as each frame of an indeterminate ProgressIndicator, re-renders the
     * whole viewport into the cache and then draws the cache: measured at start-up (docs/benchmarks.md, "Console
     * start-up"), the start screen's spinner kept the render thread as busy as starting the embedded cluster.
     * Without the cache only the changed region is drawn.
     */
    public static ScrollPane uncachedViewport(ScrollPane pane) {
        pane.skinProperty().addListener((obs, old, skin) -> uncache(pane));
        uncache(pane);
        return pane;
    }

    private static void uncache(ScrollPane pane) {
        if (pane.getSkin() == null) {
            return;
        }
        Node viewport = pane.lookup(".viewport");
        if (viewport != null) {
            viewport.setCache(false);
        }
    }
}
