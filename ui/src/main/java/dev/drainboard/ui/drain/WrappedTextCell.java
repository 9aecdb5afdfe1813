package dev.drainboard.ui.drain;

import javafx.scene.control.TableCell;
import javafx.scene.control.TableColumn;
import javafx.scene.layout.Region;
import javafx.scene.text.Text;

/** Long text that wraps to the column's width (the row grows) instead of being cut: the why is the point. */
final class WrappedTextCell<R> extends TableCell<R, String> {

    private final Text text = new Text();

    WrappedTextCell(TableColumn<R, String> column) {
        text.getStyleClass().add("wrap-text");
        text.wrappingWidthProperty().bind(column.widthProperty().subtract(16));
        setPrefHeight(Region.USE_COMPUTED_SIZE);
    }

    @Override
    protected void updateItem(String item, boolean empty) {
        super.updateItem(item, empty);
        text.setText(empty || item == null ? "" : item);
        setGraphic(empty ? null : text);
        setText(null);
    }
}
