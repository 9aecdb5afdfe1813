package dev.drainboard.ui.drain;

import atlantafx.base.theme.Styles;
import dev.drainboard.ui.common.Badge;
import dev.drainboard.ui.common.Icons;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.control.Label;
import javafx.scene.control.ProgressBar;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;
import org.kordamp.ikonli.material2.Material2AL;

/** One node's line while it drains: name, state badge, the bar, and what it is doing. */
final class NodeBar extends VBox {

    private final Label state = Badge.of("Starting", Badge.Tone.ACCENT);
    private final Label line = new Label();
    private final ProgressBar bar = new ProgressBar(-1);

    NodeBar(String node) {
        setId("drainBar-" + node);
        getStyleClass().add("drain-node");
        Label name = new Label(node, Icons.icon(Material2AL.DNS, 16));
        name.getStyleClass().add("drain-node-name");
        line.getStyleClass().addAll(Styles.TEXT_MUTED, "drain-node-line");
        line.setWrapText(true);
        Region spacer = new Region();
        HBox.setHgrow(spacer, Priority.ALWAYS);
        HBox top = new HBox(10, name, state, spacer);
        top.setAlignment(Pos.CENTER_LEFT);
        bar.setMaxWidth(Double.MAX_VALUE);
        bar.setMinHeight(8);
        bar.setPrefHeight(8);
        bar.getStyleClass().add("drain-bar");
        setSpacing(6);
        setPadding(new Insets(0));
        getChildren().addAll(top, bar, line);
    }

    void show(NodeStatus s) {
        state.setText(s.state());
        Badge.style(state, s.tone());
        bar.setProgress(s.fraction());
        bar.getStyleClass().removeAll(Styles.SUCCESS, Styles.DANGER);
        switch (s.bar()) {
            case SUCCESS -> bar.getStyleClass().add(Styles.SUCCESS);
            case DANGER -> bar.getStyleClass().add(Styles.DANGER);
            case PLAIN -> { }
        }
        line.setText(s.line());
    }
}
