package dev.drainboard.ui.drain;

import javafx.scene.control.Tooltip;
import javafx.util.Duration;

/** The drain dialog's tooltips: wrapped, never wider than the dialog's status line. */
final class Tips {

    private Tips() {
    }

    static Tooltip wrapped(String text) {
        Tooltip t = new Tooltip(text);
        t.setWrapText(true);
        t.setMaxWidth(520);
        t.setShowDelay(Duration.millis(300));
        return t;
    }
}
