package dev.drainboard.ui.drain;

import atlantafx.base.theme.Styles;
import atlantafx.base.theme.Tweaks;
import dev.drainboard.ops.DrainOperation;
import dev.drainboard.ops.DrainOptions;
import dev.drainboard.ops.DrainPreview;
import dev.drainboard.ops.DrainProgress;
import dev.drainboard.ops.DrainResult;
import dev.drainboard.ops.PodOutcome;
import dev.drainboard.ui.actions.AccessDecision;
import dev.drainboard.ui.actions.ClusterActions;
import dev.drainboard.ui.common.Badge;
import dev.drainboard.ui.common.DialogCard;
import dev.drainboard.ui.model.WebhookStatus;
import javafx.animation.PauseTransition;
import javafx.application.Platform;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.value.ObservableValue;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.CheckBox;
import javafx.scene.control.Label;
import javafx.scene.control.ProgressBar;
import javafx.scene.control.Spinner;
import javafx.scene.control.SpinnerValueFactory;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableRow;
import javafx.scene.control.TableView;
import javafx.scene.control.TextField;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.StackPane;
import javafx.scene.layout.VBox;
import javafx.util.Duration;
import org.kordamp.ikonli.material2.Material2AL;
import org.kordamp.ikonli.material2.Material2MZ;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Drains one node or several as one operation: options as {@code drainboard drain} has them, the preview first
 * (per pod what will happen and why, blockers in red), nothing written until the operator confirms; then per node
 * a progress bar and per pod its state, attempts and the API server's last answer verbatim; Cancel; and an end
 * state that never says drained after a failure. Closing the dialog while it runs leaves the drain running.
 */
public final class DrainDialog extends DialogCard {

    private enum Stage { PREVIEW, RUNNING, ENDED }

    private final List<String> nodes;
    private final ClusterActions actions;
    private final ObservableValue<AccessDecision> access;
    private final BiConsumer<DrainSummary.EndState, List<DrainResult>> onEnded;
    private final Runnable close;

    private final CheckBox ignoreDaemonSets = new CheckBox("Ignore DaemonSets");
    private final CheckBox deleteEmptyDir = new CheckBox("Delete emptyDir data");
    private final CheckBox force = new CheckBox("Force");
    private final Spinner<Integer> grace = new Spinner<>();
    private final TextField timeout = new TextField();
    private final TextField podSelector = new TextField();
    private final Label timeoutError = new Label();
    private final GridPane optionsGrid = new GridPane();

    private final VBox previewLines = new VBox(2);
    private final VBox problems = new VBox(4);
    private final ObservableList<PodLine> previewRows = FXCollections.observableArrayList();
    private final TableView<PodLine> previewTable = new TableView<>(previewRows);
    private final VBox previewPane;

    private final VBox nodeBars = new VBox(10);
    private final Map<String, NodeBar> barByNode = new LinkedHashMap<>();
    private final ObservableList<PodLine> progressRows = FXCollections.observableArrayList();
    private final TableView<PodLine> progressTable = new TableView<>(progressRows);
    private final Label endBanner = new Label();
    private final Label webhookHint = new Label();
    private final Supplier<WebhookStatus> webhook;
    private final VBox progressPane;

    private final Label status = new Label();
    private final Button cancel = new Button("Cancel");
    private final Button start;
    private final Button hide = new Button("Hide");
    private final Button cancelDrain = new Button("Cancel drain", dev.drainboard.ui.common.Icons.icon(Material2MZ.STOP, 16));
    private final Button closeButton = new Button("Close");

    private final PauseTransition debounce = new PauseTransition(Duration.millis(250));
    private final ReadOnlyObjectWrapper<DrainSummary.EndState> endState = new ReadOnlyObjectWrapper<>();
    private final Map<String, DrainProgress> latest = new ConcurrentHashMap<>();
    private final AtomicBoolean repaintQueued = new AtomicBoolean();
    private List<DrainPreview> previews = List.of();
    private String previewError;
    private boolean previewLoading;
    private long previewToken;
    private List<DrainOperation> operations = List.of();
    private Stage stage = Stage.PREVIEW;

    /**
     * @param access  whether the connection may drain (patch nodes, create pods/eviction)
     * @param onEnded called once on the FX thread when every node's drain has ended
     * @param close   hides the dialog
     * @param webhook this console's eviction webhook now (to tell when the cluster cannot reach it)
     */
    public DrainDialog(List<String> nodes, ClusterActions actions, ObservableValue<AccessDecision> access,
                       BiConsumer<DrainSummary.EndState, List<DrainResult>> onEnded, Runnable close,
                       Supplier<WebhookStatus> webhook) {
        super("drainDialog", Material2AL.ARROW_CIRCLE_DOWN, Kind.DANGER, title(nodes),
                "Cordon, then evict every pod through the eviction API until it is gone. Nothing is written until you confirm.");
        this.nodes = List.copyOf(nodes);
        this.actions = actions;
        this.access = access;
        this.onEnded = onEnded;
        this.close = close;
        this.webhook = webhook;
        setPrefWidth(1080);
        start = DialogCard.primary(nodes.size() == 1 ? "Drain " + nodes.getFirst() : "Drain " + nodes.size() + " nodes", Kind.DANGER);
        start.setId("drainStart");
        cancel.setId("drainCancel");
        hide.setId("drainHide");
        cancelDrain.setId("drainCancelRun");
        cancelDrain.getStyleClass().add(Styles.DANGER);
        closeButton.setId("drainClose");
        closeButton.getStyleClass().add(Styles.ACCENT);
        status.setId("drainStatus");
        status.getStyleClass().addAll("dialog-status", Styles.TEXT_MUTED);
        status.setWrapText(true);
        status.setMaxWidth(520);
        footerLeft().getChildren().add(status);

        buildOptions();
        previewTable.setId("drainPreviewTable");
        previewColumns();
        Label previewHeader = section("Preview: what will happen to each pod, and why");
        previewLines.setId("drainPreviewLines");
        problems.setId("drainProblems");
        problems.getStyleClass().add("drain-problems");
        show(problems, false);
        VBox.setVgrow(previewTable, Priority.ALWAYS);
        previewPane = new VBox(8, previewHeader, previewLines, problems, previewTable);
        VBox.setVgrow(previewPane, Priority.ALWAYS);

        progressTable.setId("drainProgressTable");
        progressColumns();
        nodeBars.setId("drainNodeBars");
        endBanner.setId("drainEndState");
        endBanner.getStyleClass().add("drain-end");
        endBanner.setWrapText(true);
        show(endBanner, false);
        webhookHint.setId("drainWebhookHint");
        webhookHint.getStyleClass().add("drain-end");
        webhookHint.setWrapText(true);
        webhookHint.setMinHeight(Region.USE_PREF_SIZE);
        webhookHint.setGraphic(dev.drainboard.ui.common.Icons.icon(Material2AL.ERROR, 20));
        Badge.style(webhookHint, Badge.Tone.WARNING);
        show(webhookHint, false);
        VBox.setVgrow(progressTable, Priority.ALWAYS);
        progressPane = new VBox(10, endBanner, webhookHint, nodeBars, section("Pods"), progressTable);
        VBox.setVgrow(progressPane, Priority.ALWAYS);
        show(progressPane, false);

        StackPane stages = new StackPane(previewPane, progressPane);
        VBox.setVgrow(stages, Priority.ALWAYS);
        stages.setPrefHeight(430);
        body().getChildren().addAll(optionsGrid, stages);

        cancel.setOnAction(e -> close.run());
        hide.setOnAction(e -> close.run());
        closeButton.setOnAction(e -> close.run());
        start.setOnAction(e -> begin());
        cancelDrain.setOnAction(e -> {
            cancelDrain.setDisable(true);
            status.setText("Cancelling… evictions already accepted stand; the nodes stay cordoned.");
            operations.forEach(DrainOperation::cancel);
        });
        setButtons(cancel, start);
        debounce.setOnFinished(e -> refreshPreview());
        access.addListener((obs, old, now) -> updateStart());
        refreshPreview();
    }

    private static String title(List<String> nodes) {
        return nodes.size() == 1 ? "Drain " + nodes.getFirst() : "Drain " + nodes.size() + " nodes: " + String.join(", ", nodes);
    }

    // ---- options

    private void buildOptions() {
        ignoreDaemonSets.setId("drainIgnoreDaemonSets");
        deleteEmptyDir.setId("drainDeleteEmptyDir");
        force.setId("drainForce");
        tip(ignoreDaemonSets, "Leave DaemonSet-managed pods on the node (--ignore-daemonsets).");
        tip(deleteEmptyDir, "Evict pods with emptyDir volumes; their emptyDir data is lost (--delete-emptydir-data).");
        tip(force, "Evict pods that declare no controller; nothing recreates them (--force).");
        grace.setId("drainGrace");
        grace.setValueFactory(new SpinnerValueFactory.IntegerSpinnerValueFactory(-1, 86_400, -1));
        grace.setEditable(true);
        grace.setPrefWidth(110);
        tip(grace, "Seconds each pod gets to terminate; -1: each pod's own (--grace-period).");
        timeout.setId("drainTimeout");
        timeout.setPromptText("none");
        timeout.setPrefWidth(110);
        tip(timeout, "Give up after this long, e.g. 90s, 5m or 1h30m; empty or 0: wait as long as it takes (--timeout).");
        podSelector.setId("drainPodSelector");
        podSelector.setPromptText("all pods");
        podSelector.setPrefWidth(220);
        tip(podSelector, "Only pods matching this label selector, e.g. app=web (--pod-selector).");
        timeoutError.setId("drainTimeoutError");
        timeoutError.getStyleClass().add("field-error");
        show(timeoutError, false);

        HBox checks = new HBox(22, ignoreDaemonSets, deleteEmptyDir, force);
        checks.setAlignment(Pos.CENTER_LEFT);
        HBox fields = new HBox(10, fieldLabel("Grace period (s)"), grace, gap(), fieldLabel("Timeout"), timeout,
                gap(), fieldLabel("Pod selector"), podSelector, timeoutError);
        fields.setAlignment(Pos.CENTER_LEFT);
        optionsGrid.add(checks, 0, 0);
        optionsGrid.add(fields, 0, 1);
        optionsGrid.setVgap(12);
        optionsGrid.getStyleClass().add("drain-options");

        for (CheckBox box : List.of(ignoreDaemonSets, deleteEmptyDir, force)) {
            box.selectedProperty().addListener((obs, o, n) -> debounce.playFromStart());
        }
        grace.valueProperty().addListener((obs, o, n) -> updateStart());
        timeout.textProperty().addListener((obs, o, n) -> {
            boolean valid = DrainSummary.parseTimeout(n).isPresent();
            timeout.pseudoClassStateChanged(Styles.STATE_DANGER, !valid);
            timeoutError.setText(valid ? "" : "not a duration (e.g. 90s, 5m)");
            show(timeoutError, !valid);
            updateStart();
        });
        podSelector.textProperty().addListener((obs, o, n) -> debounce.playFromStart());
    }

    private static Region gap() {
        Region r = new Region();
        r.setMinWidth(10);
        return r;
    }

    private static Label fieldLabel(String text) {
        Label l = new Label(text);
        l.getStyleClass().add("field-label");
        return l;
    }

    /** The options as chosen; empty while the timeout is not a duration. */
    Optional<DrainOptions> options() {
        Optional<java.time.Duration> t = DrainSummary.parseTimeout(timeout.getText());
        if (t.isEmpty()) {
            return Optional.empty();
        }
        Integer g = grace.getValue();
        return Optional.of(DrainOptions.defaults()
                .withIgnoreDaemonSets(ignoreDaemonSets.isSelected())
                .withDeleteEmptyDirData(deleteEmptyDir.isSelected())
                .withForce(force.isSelected())
                .withGracePeriodSeconds(g == null ? -1 : g)
                .withTimeout(t.get())
                .withPodSelector(podSelector.getText()));
    }

    // ---- preview

    private void refreshPreview() {
        if (stage != Stage.PREVIEW) {
            return;
        }
        long mine = ++previewToken;
        previewLoading = true;
        status.setText("Reading the " + (nodes.size() == 1 ? "node's" : "nodes'") + " pods…");
        updateStart();
        DrainOptions options = options().orElse(DrainOptions.defaults());
        actions.preview(nodes, options).whenComplete((result, error) -> {
            if (mine != previewToken || stage != Stage.PREVIEW) {
                return;
            }
            previewLoading = false;
            if (error != null) {
                previews = List.of();
                previewError = error.getMessage();
            } else {
                previews = result;
                previewError = null;
            }
            showPreview();
        });
    }

    private void showPreview() {
        previewLines.getChildren().clear();
        problems.getChildren().clear();
        List<PodLine> rows = new ArrayList<>();
        List<String> errors = new ArrayList<>();
        if (previewError != null) {
            errors.add(previewError);
        }
        for (DrainPreview p : previews) {
            Label line = new Label(DrainSummary.previewLine(p));
            line.getStyleClass().add("preview-line");
            previewLines.getChildren().add(line);
            p.pods().forEach(pod -> rows.add(PodLine.of(p.node(), pod)));
            for (String error : p.errors()) {
                String hint = DrainSummary.optionHint(error);
                errors.add((nodes.size() > 1 ? p.node() + ": " : "") + error + (hint.isEmpty() ? "" : "\n" + hint));
            }
        }
        for (String error : errors) {
            Label label = new Label(error, dev.drainboard.ui.common.Icons.icon(Material2AL.ERROR_OUTLINE, 16));
            label.getStyleClass().add("problem-line");
            label.setWrapText(true);
            problems.getChildren().add(label);
        }
        show(problems, !errors.isEmpty());
        previewRows.setAll(rows);
        long blockers = rows.stream().filter(r -> r.outcome().blocks()).count();
        if (previewError != null) {
            status.setText("The preview could not be read.");
        } else if (!errors.isEmpty()) {
            status.setText("The drain cannot start as the options stand.");
        } else if (blockers > 0) {
            status.setText(blockers + (blockers == 1 ? " pod blocks" : " pods block")
                    + " the drain for now: it will wait (and time out if a timeout is set).");
        } else {
            status.setText("Ready: " + rows.stream().filter(r -> r.outcome().effect() == PodOutcome.Effect.EVICT).count()
                    + " pods to evict.");
        }
        updateStart();
    }

    private void updateStart() {
        AccessDecision decision = access.getValue();
        boolean canStart = stage == Stage.PREVIEW && !previewLoading && previewError == null && !previews.isEmpty()
                && previews.stream().allMatch(DrainPreview::canStart) && options().isPresent()
                && decision != null && decision.permits();
        start.setDisable(!canStart);
        if (decision != null && !decision.permits() && stage == Stage.PREVIEW && !previewLoading) {
            status.setText(decision.reason());
        }
    }

    // ---- running

    private void begin() {
        Optional<DrainOptions> options = options();
        if (options.isEmpty() || stage != Stage.PREVIEW) {
            return;
        }
        stage = Stage.RUNNING;
        optionsGrid.setDisable(true);
        show(previewPane, false);
        show(progressPane, true);
        setSubtitle("Draining: pods are evicted through the eviction API; KubeVirt live-migrates the VMs that can move.");
        for (String node : nodes) {
            NodeBar bar = new NodeBar(node);
            barByNode.put(node, bar);
            nodeBars.getChildren().add(bar);
        }
        status.setText("Starting…");
        setButtons(hide, null, cancelDrain);
        cancelDrain.setDisable(true);
        actions.drain(nodes, options.get(), this::onProgress).whenComplete((ops, error) -> {
            if (error != null) {
                status.setText("The drain could not start: " + error.getMessage());
                ended(DrainSummary.EndState.FAILED, List.of());
                return;
            }
            operations = ops;
            cancelDrain.setDisable(false);
            status.setText("Draining. Hide keeps it running; you are told when it ends.");
            actions.whenAllEnded(ops).thenAccept(results -> {
                repaint();
                ended(DrainSummary.overall(results.stream().map(r -> DrainSummary.endState(r.status())).toList()), results);
            });
        });
    }

    /** On a drain's thread: keep the newest snapshot, repaint once per FX turn. */
    private void onProgress(DrainProgress progress) {
        latest.put(progress.node(), progress);
        if (repaintQueued.compareAndSet(false, true)) {
            Platform.runLater(() -> {
                repaintQueued.set(false);
                repaint();
            });
        }
    }

    private void repaint() {
        List<PodLine> rows = new ArrayList<>();
        for (String node : nodes) {
            DrainProgress p = latest.get(node);
            if (p == null) {
                continue;
            }
            barByNode.get(node).show(p);
            p.pods().forEach(pod -> rows.add(PodLine.of(node, pod)));
        }
        progressRows.setAll(rows);
        Optional<String> hint = DrainSummary.unreachableWebhookHint(webhook.get(),
                latest.values().stream().flatMap(p -> p.pods().stream()).toList());
        hint.ifPresent(webhookHint::setText);
        show(webhookHint, hint.isPresent()); // kept after the end: it says why the drain did not get on
    }

    private void ended(DrainSummary.EndState state, List<DrainResult> results) {
        if (stage == Stage.ENDED) {
            return;
        }
        stage = Stage.ENDED;
        endState.set(state);
        String text = switch (state) {
            case DRAINED -> nodes.size() == 1 ? nodes.getFirst() + " drained: every evicted pod is gone." : "All " + nodes.size() + " nodes drained.";
            case FAILED -> "Drain failed.";
            case TIMED_OUT -> "Drain timed out.";
            case CANCELLED -> "Drain cancelled: the " + (nodes.size() == 1 ? "node stays" : "nodes stay") + " cordoned.";
            case RUNNING -> "";
        };
        List<String> why = results.stream().filter(r -> !r.drained()).map(r -> r.node() + ": " + r.why()).toList();
        endBanner.setText(DrainSummary.EndState.DRAINED == state || why.isEmpty() ? text : text + "\n" + String.join("\n", why));
        endBanner.setGraphic(dev.drainboard.ui.common.Icons.icon(state == DrainSummary.EndState.DRAINED
                ? Material2AL.CHECK_CIRCLE : Material2AL.ERROR, 20));
        Badge.style(endBanner, DrainSummary.endTone(state));
        show(endBanner, true);
        setTitle(title(nodes) + " — " + state.label().toLowerCase(java.util.Locale.ROOT));
        setKind(state == DrainSummary.EndState.DRAINED ? Kind.ACCENT : Kind.DANGER);
        status.setText("");
        setButtons(null, closeButton);
        onEnded.accept(state, results);
    }

    /** Cancels the drain if it runs (the connection is closing). */
    public void cancelRunning() {
        if (stage == Stage.RUNNING) {
            operations.forEach(DrainOperation::cancel);
        }
    }

    /** The end state, null while it runs. */
    public ReadOnlyObjectProperty<DrainSummary.EndState> endState() {
        return endState.getReadOnlyProperty();
    }

    public boolean running() {
        return stage == Stage.RUNNING;
    }

    public List<String> nodes() {
        return nodes;
    }

    // ---- tables

    private void previewColumns() {
        if (nodes.size() > 1) {
            previewTable.getColumns().add(text("Node", PodLine::node, 90));
        }
        TableColumn<PodLine, String> pod = text("Pod", PodLine::pod, 300);
        pod.setMinWidth(260);
        pod.setMaxWidth(340);
        previewTable.getColumns().add(pod);
        TableColumn<PodLine, String> outcome = badge("Outcome", r -> DrainSummary.outcomeLabel(r.outcome()),
                r -> DrainSummary.outcomeTone(r.outcome()), 200);
        outcome.setMaxWidth(220);
        previewTable.getColumns().add(outcome);
        previewTable.getColumns().add(wrapped("What will happen, and why", PodLine::reason, 480));
        style(previewTable);
        previewTable.setRowFactory(t -> new TableRow<>() {
            @Override
            protected void updateItem(PodLine item, boolean empty) {
                super.updateItem(item, empty);
                getStyleClass().removeAll("row-danger", "row-muted");
                if (!empty && item != null) {
                    if (item.outcome().blocks() || item.outcome().effect() == PodOutcome.Effect.REFUSE_TO_START) {
                        getStyleClass().add("row-danger");
                    } else if (item.outcome().effect() == PodOutcome.Effect.SKIP) {
                        getStyleClass().add("row-muted");
                    }
                }
            }
        });
        Label placeholder = new Label("Reading the pods…");
        placeholder.getStyleClass().add(Styles.TEXT_MUTED);
        previewTable.setPlaceholder(placeholder);
    }

    private void progressColumns() {
        if (nodes.size() > 1) {
            progressTable.getColumns().add(text("Node", PodLine::node, 90));
        }
        TableColumn<PodLine, String> pod = text("Pod", PodLine::pod, 320);
        pod.setMinWidth(280);
        progressTable.getColumns().add(pod);
        TableColumn<PodLine, String> state = badge("State", r -> DrainSummary.stateLabel(r.state()), r -> DrainSummary.stateTone(r.state()), 180);
        state.setMaxWidth(200);
        progressTable.getColumns().add(state);
        TableColumn<PodLine, String> attempts = text("Tries", r -> String.valueOf(r.attempts()), 60);
        attempts.setMaxWidth(70);
        attempts.getStyleClass().add(Tweaks.ALIGN_RIGHT);
        progressTable.getColumns().add(attempts);
        progressTable.getColumns().add(wrapped("Last answer from the API server", PodLine::lastAnswer, 470));
        style(progressTable);
        Label placeholder = new Label("No pods to evict.");
        placeholder.getStyleClass().add(Styles.TEXT_MUTED);
        progressTable.setPlaceholder(placeholder);
    }

    private static void style(TableView<PodLine> table) {
        table.getStyleClass().addAll(Styles.STRIPED, Styles.DENSE, "drain-table");
        table.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
    }

    private static TableColumn<PodLine, String> text(String title, Function<PodLine, String> value, double width) {
        TableColumn<PodLine, String> column = new TableColumn<>(title);
        column.setCellValueFactory(c -> new ReadOnlyObjectWrapper<>(value.apply(c.getValue())));
        column.setCellFactory(c -> new TableCell<>() {
            @Override
            protected void updateItem(String item, boolean empty) {
                super.updateItem(item, empty);
                setText(empty ? null : item);
                setTooltip(empty || item == null || item.length() < 40 ? null : wrapTip(item));
            }
        });
        column.setPrefWidth(width);
        column.setMinWidth(Math.min(width, 80));
        column.setSortable(false);
        return column;
    }

    /** A column whose long text wraps (the row grows) instead of being cut: the why is the point of the dialog. */
    private static TableColumn<PodLine, String> wrapped(String title, Function<PodLine, String> value, double width) {
        TableColumn<PodLine, String> column = new TableColumn<>(title);
        column.setCellValueFactory(c -> new ReadOnlyObjectWrapper<>(value.apply(c.getValue())));
        column.setCellFactory(c -> new TableCell<>() {
            private final javafx.scene.text.Text text = new javafx.scene.text.Text();

            {
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
        });
        column.setPrefWidth(width);
        column.setMinWidth(160);
        column.setSortable(false);
        return column;
    }

    private static TableColumn<PodLine, String> badge(String title, Function<PodLine, String> value,
                                                      Function<PodLine, Badge.Tone> tone, double width) {
        TableColumn<PodLine, String> column = new TableColumn<>(title);
        column.setCellValueFactory(c -> new ReadOnlyObjectWrapper<>(value.apply(c.getValue())));
        column.setCellFactory(c -> new TableCell<>() {
            private final Label badge = Badge.of("", Badge.Tone.NEUTRAL);

            @Override
            protected void updateItem(String item, boolean empty) {
                super.updateItem(item, empty);
                PodLine row = empty || getTableRow() == null ? null : getTableRow().getItem();
                if (row == null || item == null) {
                    setGraphic(null);
                } else {
                    badge.setText(item);
                    Badge.style(badge, tone.apply(row));
                    setGraphic(badge);
                }
                setText(null);
            }
        });
        column.setPrefWidth(width);
        column.setMinWidth(width);
        column.setSortable(false);
        return column;
    }

    // ---- helpers

    private static Tooltip wrapTip(String text) {
        Tooltip t = new Tooltip(text);
        t.setWrapText(true);
        t.setMaxWidth(520);
        t.setShowDelay(Duration.millis(300));
        return t;
    }

    private static void tip(javafx.scene.control.Control control, String text) {
        control.setTooltip(wrapTip(text));
    }

    private static Label section(String text) {
        Label l = new Label(text);
        l.getStyleClass().add("section-label");
        return l;
    }

    private static void show(javafx.scene.Node node, boolean visible) {
        node.setVisible(visible);
        node.setManaged(visible);
    }

    /** One node's line while it drains: name, state badge, what it is doing, and the bar. */
    private static final class NodeBar extends VBox {
        private final Label state = Badge.of("Starting", Badge.Tone.ACCENT);
        private final Label line = new Label();
        private final ProgressBar bar = new ProgressBar(-1);

        NodeBar(String node) {
            setId("drainBar-" + node);
            getStyleClass().add("drain-node");
            Label name = new Label(node, dev.drainboard.ui.common.Icons.icon(Material2AL.DNS, 16));
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

        void show(DrainProgress p) {
            DrainSummary.EndState s = DrainSummary.endState(p);
            state.setText(s == DrainSummary.EndState.RUNNING ? switch (p.phase()) {
                case PREPARING -> "Preparing";
                case CORDONING -> "Cordoning";
                default -> "Draining";
            } : s.label());
            Badge.style(state, DrainSummary.endTone(s));
            bar.setProgress(DrainSummary.fraction(p));
            bar.getStyleClass().removeAll(Styles.SUCCESS, Styles.DANGER);
            if (s == DrainSummary.EndState.DRAINED) {
                bar.getStyleClass().add(Styles.SUCCESS);
            } else if (s == DrainSummary.EndState.FAILED || s == DrainSummary.EndState.TIMED_OUT) {
                bar.getStyleClass().add(Styles.DANGER);
            }
            line.setText(DrainSummary.nodeLine(p));
        }
    }
}
