package dev.drainboard.ui.rehearse;

import atlantafx.base.theme.Styles;
import dev.drainboard.ui.common.DialogCard;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.ProgressIndicator;
import javafx.scene.control.TextField;
import javafx.scene.layout.HBox;
import javafx.scene.layout.VBox;
import org.kordamp.ikonli.material2.Material2AL;

/**
 * "Rehearse on a copy": what is copied and what is not, the time scale (checked as it is typed, Rehearse disabled
 * while it cannot be used), then progress or why the copy failed. The copy only reads the cluster.
 */
public final class RehearseDialog extends DialogCard {

    private final TextField timeScale = new TextField();

    public RehearseDialog(RehearseModel model, Runnable close) {
        super("rehearseDialog", Material2AL.CONTENT_COPY, Kind.ACCENT, "Rehearse on a copy",
                "Snapshot of " + model.server() + ", served by an embedded cluster");
        setPrefWidth(560);

        Label what = new Label("Drainboard reads the cluster's nodes (capacity, labels, taints), VMs, VMIs with the node "
                + "each runs on, pods and their owners, PDBs, storage, instancetypes, migration policies and the KubeVirt "
                + "settings, and starts an embedded cluster from that copy, where every VMI runs on its node again. "
                + "Drain, plan and migrate there: the real cluster is only read. Secrets are never copied, ConfigMaps "
                + "are copied without their data.");
        what.setWrapText(true);
        what.setId("rehearseWhat");
        what.getStyleClass().add("dialog-message");

        Label scaleLabel = new Label("Time scale");
        scaleLabel.getStyleClass().add("field-label");
        timeScale.setId("rehearseTimeScale");
        timeScale.setPrefColumnCount(6);
        timeScale.textProperty().bindBidirectional(model.timeScaleProperty());
        Label times = new Label("× faster than real time");
        times.getStyleClass().add(Styles.TEXT_MUTED);
        HBox scaleRow = new HBox(8, timeScale, times);
        scaleRow.setAlignment(javafx.geometry.Pos.CENTER_LEFT);
        Label problem = new Label();
        problem.setId("rehearseTimeScaleError");
        problem.getStyleClass().add("field-error");
        problem.setWrapText(true);
        problem.textProperty().bind(model.timeScaleProblemProperty());
        problem.visibleProperty().bind(problem.textProperty().isNotEmpty());
        problem.managedProperty().bind(problem.visibleProperty());
        Label help = new Label();
        help.setId("rehearseTimeScaleHelp");
        help.setWrapText(true);
        help.getStyleClass().addAll(Styles.TEXT_MUTED, Styles.TEXT_SMALL);
        help.textProperty().bind(model.timeScaleHelpProperty());
        help.visibleProperty().bind(help.textProperty().isNotEmpty());
        help.managedProperty().bind(help.visibleProperty());

        ProgressIndicator spinner = new ProgressIndicator();
        spinner.setPrefSize(18, 18);
        Label status = new Label();
        status.setId("rehearseStatus");
        status.setWrapText(true);
        status.textProperty().bind(model.messageProperty());
        spinner.visibleProperty().bind(model.phaseProperty().isEqualTo(RehearseModel.Phase.COPYING)
                .or(model.phaseProperty().isEqualTo(RehearseModel.Phase.OPENING)));
        spinner.managedProperty().bind(spinner.visibleProperty());
        model.phaseProperty().addListener((obs, was, now) -> {
            status.getStyleClass().remove("dialog-error");
            if (now == RehearseModel.Phase.FAILED) {
                status.getStyleClass().add("dialog-error");
            }
        });
        HBox statusRow = new HBox(8, spinner, status);
        statusRow.setAlignment(javafx.geometry.Pos.CENTER_LEFT);
        statusRow.visibleProperty().bind(model.messageProperty().isNotEmpty());
        statusRow.managedProperty().bind(statusRow.visibleProperty());

        body().getChildren().addAll(what, new VBox(4, scaleLabel, scaleRow, problem, help), statusRow);

        Button cancel = new Button("Cancel");
        cancel.setId("rehearseCancel");
        cancel.setOnAction(e -> close.run());
        Button go = DialogCard.primary("Copy and rehearse", Kind.ACCENT);
        go.setId("rehearseStart");
        go.disableProperty().bind(model.canStartProperty().not());
        go.setOnAction(e -> model.start());
        timeScale.setOnAction(e -> model.start());
        setButtons(cancel, go);
        setFirstFocus(timeScale);
    }
}
