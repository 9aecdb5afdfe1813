package dev.drainboard.ui.start;

import atlantafx.base.theme.Styles;
import dev.drainboard.ui.connect.KubeContext;
import javafx.geometry.Pos;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;

/** A context: its name (and whether it is the kubeconfig's current one), the source it comes from, server and user. */
final class ContextCell extends ListCell<ContextItem> {

    @Override
    protected void updateItem(ContextItem item, boolean empty) {
        super.updateItem(item, empty);
        if (empty || item == null) {
            setGraphic(null);
            setText(null);
            return;
        }
        KubeContext c = item.context();
        Label name = new Label(c.name());
        name.getStyleClass().add(Styles.TEXT_BOLD);
        Label server = new Label(c.server().isEmpty() ? "no server" : c.server());
        server.getStyleClass().addAll(Styles.TEXT_MUTED, Styles.TEXT_SMALL);
        Label who = new Label("cluster " + c.cluster() + (c.user().isEmpty() ? "" : " · user " + c.user())
                + (c.namespace().isEmpty() ? "" : " · ns " + c.namespace()));
        who.getStyleClass().addAll(Styles.TEXT_MUTED, Styles.TEXT_SMALL);
        Label source = new Label(item.source().label());
        source.getStyleClass().addAll("source-chip");
        Region spacer = new Region();
        HBox.setHgrow(spacer, Priority.ALWAYS);
        HBox top = new HBox(8, name, spacer, source);
        top.setAlignment(Pos.CENTER_LEFT);
        if (item.current()) {
            Label current = new Label("current");
            current.getStyleClass().addAll("badge", "badge-accent");
            top.getChildren().add(1, current);
        }
        setGraphic(new VBox(2, top, server, who));
        setText(null);
    }
}
