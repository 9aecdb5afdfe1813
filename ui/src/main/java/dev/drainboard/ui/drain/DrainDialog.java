package dev.drainboard.ui.drain;

import atlantafx.base.theme.Styles;
import dev.drainboard.ops.DrainResult;
import dev.drainboard.ui.actions.AccessDecision;
import dev.drainboard.ui.actions.ClusterActions;
import dev.drainboard.ui.common.Badge;
import dev.drainboard.ui.common.DialogCard;
import dev.drainboard.ui.common.Icons;
import dev.drainboard.ui.drain.DrainDialogModel.Stage;
import dev.drainboard.ui.model.WebhookStatus;
import javafx.animation.PauseTransition;
import javafx.application.Platform;
import javafx.beans.binding.Bindings;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.value.ObservableValue;
import javafx.collections.ListChangeListener;
import javafx.collections.ObservableList;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.TableView;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.StackPane;
import javafx.scene.layout.VBox;
import javafx.util.Duration;
import org.kordamp.ikonli.material2.Material2AL;
import org.kordamp.ikonli.material2.Material2MZ;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Drains one node or several as one operation: options as {@code drainboard drain} has them, the preview first
 * (per pod what will happen and why, blockers in red), nothing written until the operator confirms; then per node
 * a progress bar and per pod its state, attempts and the API server's last answer verbatim; Cancel; and an end
 * state that never says drained after a failure. Closing the dialog while it runs leaves the drain running.
 *
 * <p>Layout and bindings only: the workflow is {@link DrainDialogModel}'s.
 */
public final class DrainDialog extends DialogCard {

    private final DrainDialogModel model;
    private final PauseTransition debounce = new PauseTransition(Duration.millis(250));
    private final javafx.animation.Timeline waitsTicker = new javafx.animation.Timeline();

    private final OptionsPane options;
    private final VBox previewPane;
    private final VBox progressPane;
    private final VBox nodeBars = new VBox(10);
    private final List<NodeBar> bars = new ArrayList<>();
    private final Label endBanner = new Label();
    private final Button cancel = new Button("Cancel");
    private final Button start;
    private final Button hide = new Button("Hide");
    private final Button cancelDrain = new Button("Cancel drain", Icons.icon(Material2MZ.STOP, 16));
    private final Button closeButton = new Button("Close");

    /**
     * @param access  whether the connection may drain (patch nodes, create pods/eviction)
     * @param onEnded called once on the FX thread when every node's drain has ended
     * @param close   hides the dialog
     * @param webhook this console's eviction webhook now (to tell when the cluster cannot reach it)
     */
    public DrainDialog(List<String> nodes, ClusterActions actions, ObservableValue<AccessDecision> access,
                       BiConsumer<DrainSummary.EndState, List<DrainResult>> onEnded, Runnable close,
                       Supplier<WebhookStatus> webhook) {
        super("drainDialog", Material2AL.ARROW_CIRCLE_DOWN, Kind.DANGER, DrainDialogModel.title(nodes), DrainDialogModel.SUBTITLE);
        model = new DrainDialogModel(nodes, DrainBackend.of(actions), access, webhook, onEnded, Platform::runLater, this::debounced);
        setPrefWidth(1080);
        start = DialogCard.primary(model.startLabel(), Kind.DANGER);
        start.setId("drainStart");
        start.disableProperty().bind(model.startDisabled());
        cancel.setId("drainCancel");
        hide.setId("drainHide");
        cancelDrain.setId("drainCancelRun");
        cancelDrain.getStyleClass().add(Styles.DANGER);
        cancelDrain.disableProperty().bind(model.cancelRunDisabled());
        closeButton.setId("drainClose");
        closeButton.getStyleClass().add(Styles.ACCENT);
        Label status = new Label();
        status.setId("drainStatus");
        status.getStyleClass().addAll("dialog-status", Styles.TEXT_MUTED);
        status.setWrapText(true);
        status.setMaxWidth(520);
        status.textProperty().bind(model.status());
        footerLeft().getChildren().add(status);

        options = new OptionsPane(model);
        boolean several = nodes.size() > 1;
        TableView<PodLine> previewTable = PodTables.preview(model.previewRows(), several);
        VBox previewLines = lines("drainPreviewLines", 2, model.previewLines(), DrainDialog::previewLine);
        VBox problems = lines("drainProblems", 4, model.problems(), DrainDialog::problemLine);
        problems.getStyleClass().add("drain-problems");
        showWhen(problems, Bindings.isNotEmpty(model.problems()));
        VBox.setVgrow(previewTable, Priority.ALWAYS);
        previewPane = new VBox(8, section("Preview: what will happen to each pod, and why"), previewLines, problems, previewTable);
        VBox.setVgrow(previewPane, Priority.ALWAYS);

        TableView<PodLine> progressTable = PodTables.progress(model.progressRows(), several);
        nodeBars.setId("drainNodeBars");
        model.nodeStatuses().addListener((ListChangeListener<NodeStatus>) c -> showBars(model.nodeStatuses()));
        endBanner.setId("drainEndState");
        endBanner.getStyleClass().add("drain-end");
        endBanner.setWrapText(true);
        endBanner.textProperty().bind(model.endText());
        showWhen(endBanner, model.endState().isNotNull());
        Label webhookHint = new Label();
        webhookHint.setId("drainWebhookHint");
        webhookHint.getStyleClass().add("drain-end");
        webhookHint.setWrapText(true);
        webhookHint.setMinHeight(Region.USE_PREF_SIZE);
        webhookHint.setGraphic(Icons.icon(Material2AL.ERROR, 20));
        Badge.style(webhookHint, Badge.Tone.WARNING);
        webhookHint.textProperty().bind(model.webhookHint());
        showWhen(webhookHint, model.webhookHint().isNotEmpty());
        Label timeLeft = new Label();
        timeLeft.setId("drainTimeLeft");
        timeLeft.getStyleClass().add("preview-line");
        timeLeft.textProperty().bind(model.timeLeft());
        showWhen(timeLeft, model.timeLeft().isNotEmpty());
        Label marks = new Label();
        marks.setId("drainMarks");
        marks.setWrapText(true);
        marks.setMinHeight(Region.USE_PREF_SIZE);
        marks.textProperty().bind(model.marksText());
        Button clearMarks = new Button("Clear evacuation marks");
        clearMarks.setId("drainClearMarks");
        clearMarks.setOnAction(e -> model.clearEvacuationMarks());
        showWhen(clearMarks, Bindings.isNotEmpty(model.marked()));
        HBox marksBox = new HBox(12, marks, clearMarks);
        marksBox.setAlignment(javafx.geometry.Pos.CENTER_LEFT);
        HBox.setHgrow(marks, Priority.ALWAYS);
        Badge.style(marks, Badge.Tone.WARNING);
        showWhen(marksBox, model.marksText().isNotEmpty());
        VBox.setVgrow(progressTable, Priority.ALWAYS);
        progressPane = new VBox(10, endBanner, marksBox, webhookHint, nodeBars, timeLeft, section("Pods"), progressTable);
        // While it runs: why migrations wait and the time left, read every two seconds.
        waitsTicker.getKeyFrames().add(new javafx.animation.KeyFrame(Duration.seconds(2), e -> model.refreshWaits()));
        waitsTicker.setCycleCount(javafx.animation.Animation.INDEFINITE);
        VBox.setVgrow(progressPane, Priority.ALWAYS);

        StackPane stages = new StackPane(previewPane, progressPane);
        VBox.setVgrow(stages, Priority.ALWAYS);
        stages.setPrefHeight(430);
        body().getChildren().addAll(options, stages);

        cancel.setOnAction(e -> close.run());
        hide.setOnAction(e -> close.run());
        closeButton.setOnAction(e -> close.run());
        start.setOnAction(e -> model.start());
        cancelDrain.setOnAction(e -> model.cancelDrain());
        model.title().addListener((obs, old, text) -> setTitle(text));
        model.subtitle().addListener((obs, old, text) -> setSubtitle(text));
        model.endState().addListener((obs, old, state) -> showEnd(state));
        model.stage().addListener((obs, old, stage) -> showStage(stage));
        showStage(model.stage().get());
    }

    private void debounced(Runnable action) {
        debounce.setOnFinished(e -> action.run());
        debounce.playFromStart();
    }

    private void showStage(Stage stage) {
        options.setDisable(stage != Stage.PREVIEW);
        show(previewPane, stage == Stage.PREVIEW);
        show(progressPane, stage != Stage.PREVIEW);
        if (stage != Stage.RUNNING) {
            waitsTicker.stop();
        }
        switch (stage) {
            case PREVIEW -> setButtons(cancel, start);
            case RUNNING -> {
                setButtons(hide, null, cancelDrain);
                waitsTicker.playFromStart();
                model.refreshWaits();
            }
            case ENDED -> setButtons(null, closeButton);
        }
    }

    private void showBars(List<NodeStatus> statuses) {
        if (bars.size() != statuses.size()) {
            bars.clear();
            statuses.forEach(s -> bars.add(new NodeBar(s.node())));
            nodeBars.getChildren().setAll(bars);
        }
        for (int i = 0; i < statuses.size(); i++) {
            bars.get(i).show(statuses.get(i));
        }
    }

    private void showEnd(DrainSummary.EndState state) {
        if (state == null) {
            return;
        }
        endBanner.setGraphic(Icons.icon(state == DrainSummary.EndState.DRAINED ? Material2AL.CHECK_CIRCLE : Material2AL.ERROR, 20));
        Badge.style(endBanner, DrainSummary.endTone(state));
        setKind(state == DrainSummary.EndState.DRAINED ? Kind.ACCENT : Kind.DANGER);
    }

    /** Cancels the drain if it runs (the connection is closing). */
    public void cancelRunning() {
        model.cancelRunning();
    }

    /** The end state, null while it runs. */
    public ReadOnlyObjectProperty<DrainSummary.EndState> endState() {
        return model.endState();
    }

    public boolean running() {
        return model.running();
    }

    public List<String> nodes() {
        return model.nodes();
    }

    // ---- helpers

    /** A box of one label per line of the list, rebuilt when the list changes. */
    private static VBox lines(String id, double spacing, ObservableList<String> texts, Function<String, Label> label) {
        VBox box = new VBox(spacing);
        box.setId(id);
        texts.addListener((ListChangeListener<String>) c -> box.getChildren().setAll(texts.stream().map(label).toList()));
        return box;
    }

    private static Label previewLine(String text) {
        Label line = new Label(text);
        line.getStyleClass().add("preview-line");
        return line;
    }

    private static Label problemLine(String text) {
        Label label = new Label(text, Icons.icon(Material2AL.ERROR_OUTLINE, 16));
        label.getStyleClass().add("problem-line");
        label.setWrapText(true);
        return label;
    }

    private static Label section(String text) {
        Label l = new Label(text);
        l.getStyleClass().add("section-label");
        return l;
    }

    private static void show(Node node, boolean visible) {
        node.setVisible(visible);
        node.setManaged(visible);
    }

    private static void showWhen(Node node, ObservableValue<Boolean> visible) {
        node.visibleProperty().bind(visible);
        node.managedProperty().bind(visible);
    }
}
