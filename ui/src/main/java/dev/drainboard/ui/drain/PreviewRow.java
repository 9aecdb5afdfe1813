package dev.drainboard.ui.drain;

import javafx.scene.control.TableRow;

/** A preview row coloured by what will happen to its pod ({@link DrainSummary#previewRowStyle}). */
final class PreviewRow extends TableRow<PodLine> {

    @Override
    protected void updateItem(PodLine item, boolean empty) {
        super.updateItem(item, empty);
        getStyleClass().removeAll("row-danger", "row-muted");
        if (!empty && item != null) {
            DrainSummary.previewRowStyle(item.outcome()).ifPresent(getStyleClass()::add);
        }
    }
}
