package dev.drainboard.ui.controllers;

import atlantafx.base.theme.Styles;
import dev.drainboard.ui.common.Badge;
import dev.drainboard.ui.common.Formats;
import dev.drainboard.ui.connect.Session;
import dev.drainboard.ui.model.KubeVirtSettings;
import javafx.geometry.Insets;
import javafx.scene.Node;
import javafx.scene.control.Label;
import javafx.scene.control.ScrollPane;
import javafx.scene.layout.ColumnConstraints;
import javafx.scene.layout.FlowPane;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;

import java.util.List;

/**
 * The drain control plane: this connection's mode, the controllers (queue depth, reconcile rate, errors and the
 * leader arrive with them), and the KubeVirt configuration in force, live from the KubeVirt CR.
 */
public final class ControllersView implements dev.drainboard.ui.shell.ConsoleView {

    private static final List<String> CONTROLLERS = List.of("vmi", "vm", "migration", "evacuation",
            "disruption budget", "replica set", "node handler", "eviction admission webhook");

    private final ScrollPane root;
    private final GridPane settingsGrid = new GridPane();
    private final FlowPane gates = new FlowPane(6, 6);
    private final Label source = new Label();
    private final Label strategy = new Label();

    public ControllersView(Session.Info info, javafx.beans.value.ObservableValue<KubeVirtSettings> settings) {
        VBox modeCard = card("Control plane");
        Label mode = new Label(info.mode().label() + " mode");
        mode.getStyleClass().add(Styles.TITLE_4);
        Label reason = new Label(info.modeReason());
        reason.setWrapText(true);
        reason.getStyleClass().add(Styles.TEXT_MUTED);
        Label leader = new Label("Leader: — (leader election arrives with the embedded controllers)");
        leader.getStyleClass().add(Styles.TEXT_MUTED);
        FlowPane controllers = new FlowPane(8, 8);
        for (String c : CONTROLLERS) {
            Label l = Badge.of(c, Badge.Tone.NEUTRAL);
            controllers.getChildren().add(l);
        }
        Label controllersNote = new Label("The controllers arrive with [Control plane]: then each shows its queue depth, reconcile rate and errors here.");
        controllersNote.getStyleClass().add(Styles.TEXT_MUTED);
        modeCard.getChildren().addAll(mode, reason, leader, controllers, controllersNote);

        VBox configCard = card("KubeVirt configuration");
        source.getStyleClass().add(Styles.TEXT_MUTED);
        ColumnConstraints keys = new ColumnConstraints();
        keys.setMinWidth(280);
        settingsGrid.getColumnConstraints().addAll(keys, new ColumnConstraints());
        settingsGrid.setHgap(16);
        settingsGrid.setVgap(8);
        settingsGrid.setId("kubevirtSettings");
        Label gatesHeader = new Label("Feature gates");
        gatesHeader.getStyleClass().add("section-label");
        configCard.getChildren().addAll(source, settingsGrid, gatesHeader, gates);

        settings.addListener((obs, old, now) -> show(now));
        show(settings.getValue());

        VBox content = new VBox(16, modeCard, configCard);
        content.setPadding(new Insets(0, 4, 4, 0));
        root = new ScrollPane(content);
        root.setFitToWidth(true);
        root.getStyleClass().add("edge-to-edge");
    }

    private void show(KubeVirtSettings s) {
        source.setText(s.source().isEmpty() ? "No KubeVirt CR: KubeVirt's defaults apply."
                : "From KubeVirt CR " + s.source() + " (live).");
        settingsGrid.getChildren().clear();
        int row = 0;
        settingsGrid.addRow(row++, key("Default eviction strategy"), value(s.evictionStrategy()));
        for (KubeVirtSettings.Setting setting : s.migrations()) {
            settingsGrid.addRow(row++, key(setting.label()), value(setting.value()));
        }
        gates.getChildren().clear();
        if (s.featureGates().isEmpty()) {
            Label none = new Label("none enabled");
            none.getStyleClass().add(Styles.TEXT_MUTED);
            gates.getChildren().add(none);
        }
        s.featureGates().forEach(g -> gates.getChildren().add(Badge.of(g, Badge.Tone.ACCENT)));
    }

    private static Label key(String text) {
        Label l = new Label(text);
        l.getStyleClass().add("fact-key");
        return l;
    }

    private static Label value(String text) {
        Label l = new Label(Formats.orDash(text));
        l.getStyleClass().add("fact-value");
        return l;
    }

    private static VBox card(String title) {
        Label header = new Label(title);
        header.getStyleClass().add("card-title");
        VBox card = new VBox(10, header);
        card.getStyleClass().add("panel-card");
        HBox.setHgrow(card, Priority.ALWAYS);
        return card;
    }

    @Override
    public Node root() {
        return root;
    }
}
