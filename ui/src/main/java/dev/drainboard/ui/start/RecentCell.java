package dev.drainboard.ui.start;

import atlantafx.base.theme.Styles;
import dev.drainboard.ui.common.Icons;
import dev.drainboard.ui.connect.ConnectTarget;
import javafx.geometry.Pos;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.layout.HBox;
import javafx.scene.layout.VBox;
import org.kordamp.ikonli.material2.Material2AL;
import org.kordamp.ikonli.material2.Material2MZ;

/** A connection made before: what it was to, and from where. */
final class RecentCell extends ListCell<ConnectTarget> {

    private final java.util.function.Predicate<ConnectTarget> running;

    /** @param running whether a target is an embedded cluster still running from an earlier session */
    RecentCell(java.util.function.Predicate<ConnectTarget> running) {
        this.running = running;
    }

    @Override
    protected void updateItem(ConnectTarget item, boolean empty) {
        super.updateItem(item, empty);
        if (empty || item == null) {
            setGraphic(null);
            return;
        }
        Label title = new Label(item.title());
        title.getStyleClass().add(Styles.TEXT_BOLD);
        Label sub = new Label(running.test(item)
                ? item.subtitle() + " · running: reopens as you left it" : item.subtitle());
        sub.getStyleClass().addAll(Styles.TEXT_MUTED, Styles.TEXT_SMALL);
        HBox row = new HBox(10, Icons.icon(item instanceof ConnectTarget.Embedded ? Material2MZ.PLAY_ARROW : Material2AL.HISTORY),
                new VBox(1, title, sub));
        row.setAlignment(Pos.CENTER_LEFT);
        setGraphic(row);
    }
}
