package dev.drainboard.ui.drain;

import javafx.scene.control.TableCell;

/** Plain text; a long one (a pod's namespace/name) also as a tooltip, for when the column cuts it. */
final class TipTextCell<R> extends TableCell<R, String> {

    @Override
    protected void updateItem(String item, boolean empty) {
        super.updateItem(item, empty);
        setText(empty ? null : item);
        setTooltip(empty || item == null || item.length() < 40 ? null : Tips.wrapped(item));
    }
}
