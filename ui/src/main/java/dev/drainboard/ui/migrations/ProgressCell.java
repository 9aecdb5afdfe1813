package dev.drainboard.ui.migrations;

import dev.drainboard.ui.common.Icons;
import dev.drainboard.ui.model.MigrationRow;
import dev.drainboard.ui.model.TransferProgress;
import javafx.geometry.Pos;
import javafx.scene.control.Label;
import javafx.scene.control.ProgressBar;
import javafx.scene.control.TableCell;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.HBox;
import org.kordamp.ikonli.material2.Material2MZ;

/**
 * A migration's transfer in a table cell: a bar of sent ÷ (sent + remaining), the percentage, rate and pre-copy
 * pass, and a warning while the remaining data grows. Nodes are made once per cell and reused.
 */
final class ProgressCell extends TableCell<MigrationRow, MigrationRow> {

    private final ProgressBar bar = new ProgressBar(0);
    private final Label text = new Label();
    private final Label warning = new Label("", Icons.icon(Material2MZ.TRENDING_UP, 14));
    private final HBox box = new HBox(8, bar, text, warning);
    private final Tooltip tip = new Tooltip();

    ProgressCell() {
        bar.setPrefWidth(96);
        bar.setMinWidth(96);
        bar.getStyleClass().add("migration-progress");
        text.getStyleClass().add("progress-text");
        text.setMinWidth(javafx.scene.layout.Region.USE_PREF_SIZE);
        warning.getStyleClass().add("progress-warning");
        warning.setMinWidth(javafx.scene.layout.Region.USE_PREF_SIZE);
        box.setAlignment(Pos.CENTER_LEFT);
        tip.setWrapText(true);
        tip.setMaxWidth(380);
        getStyleClass().add("progress-cell");
    }

    @Override
    protected void updateItem(MigrationRow row, boolean empty) {
        super.updateItem(row, empty);
        setText(null);
        if (empty || row == null) {
            setGraphic(null);
            setTooltip(null);
            return;
        }
        TransferProgress t = row.progress();
        bar.getStyleClass().removeAll("done", "failed", "growing", "waiting", "running");
        if (t != null) {
            bar.setProgress(t.fraction());
            bar.getStyleClass().add(switch (t.state()) {
                case "COMPLETED" -> "done";
                case "FAILED" -> "failed";
                default -> t.notConverging() ? "growing" : "running";
            });
        } else {
            bar.setProgress("Succeeded".equals(row.phase()) ? 1 : 0);
            bar.getStyleClass().add("Succeeded".equals(row.phase()) ? "done" : "Failed".equals(row.phase()) ? "failed" : "waiting");
        }
        text.setText(ProgressText.summary(row));
        String warn = ProgressText.warning(row);
        warning.setText(warn);
        warning.setVisible(!warn.isEmpty());
        warning.setManaged(!warn.isEmpty());
        tip.setText(ProgressText.tooltip(row));
        setTooltip(tip);
        setGraphic(box);
    }
}
