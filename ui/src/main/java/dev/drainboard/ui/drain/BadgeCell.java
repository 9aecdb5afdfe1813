package dev.drainboard.ui.drain;

import dev.drainboard.ui.common.Badge;
import javafx.scene.control.Label;
import javafx.scene.control.TableCell;

import java.util.function.Function;

/** The cell's text as a badge whose tone comes from the whole row (a pod's outcome or state). */
final class BadgeCell<R> extends TableCell<R, String> {

    private final Label badge = Badge.of("", Badge.Tone.NEUTRAL);
    private final Function<R, Badge.Tone> tone;

    BadgeCell(Function<R, Badge.Tone> tone) {
        this.tone = tone;
        badge.setMinWidth(Label.USE_PREF_SIZE); // whole, never "Needs Ignore DaemonS…"
    }

    @Override
    protected void updateItem(String item, boolean empty) {
        super.updateItem(item, empty);
        R row = empty || getTableRow() == null ? null : getTableRow().getItem();
        if (row == null || item == null) {
            setGraphic(null);
        } else {
            badge.setText(item);
            Badge.style(badge, tone.apply(row));
            setGraphic(badge);
        }
        setText(null);
    }
}
