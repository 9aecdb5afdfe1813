package dev.drainboard.ui.maintenance;

import atlantafx.base.theme.Styles;
import dev.drainboard.history.HistoryDocuments;
import dev.drainboard.ui.common.Badge;
import dev.drainboard.ui.common.Icons;
import dev.drainboard.ui.model.MaintenancePlanRow;
import dev.drainboard.ui.model.MaintenancePlanRow.NodeLane;
import dev.drainboard.ui.model.MaintenancePlanRow.VmMoves;
import dev.drainboard.ui.model.NodeRow;
import dev.drainboard.ui.shell.ConsoleView;
import javafx.animation.Animation;
import javafx.animation.KeyFrame;
import javafx.animation.Timeline;
import javafx.beans.binding.Bindings;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ListChangeListener;
import javafx.collections.ObservableList;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.control.ListView;
import javafx.scene.control.Spinner;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.control.TextField;
import javafx.scene.control.ToggleButton;
import javafx.scene.control.ToggleGroup;
import javafx.scene.control.Tooltip;
import javafx.scene.control.cell.CheckBoxListCell;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyCodeCombination;
import javafx.scene.input.KeyCombination;
import javafx.scene.input.KeyEvent;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;
import javafx.stage.FileChooser;
import javafx.util.Duration;
import javafx.util.StringConverter;
import org.kordamp.ikonli.material2.Material2AL;
import org.kordamp.ikonli.material2.Material2MZ;

import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.Consumer;

/**
 * The Maintenance view: the plans in the cluster (whoever made them: this console, another, the CLI, kubectl) and a
 * new plan being built; for the one shown, the predicted Gantt per node with the actual bars over it while it runs,
 * the totals (time, migrations), the VMs that move and how often, and the VMs the plan would strand, in red.
 * Keyboard first: Ctrl+N new plan, Ctrl+Enter run, Ctrl+P pause/resume, Ctrl+Shift+A abort (confirmed), Ctrl+E /
 * Ctrl+Shift+E export Markdown / JSON; focus goes back to the plan acted on.
 */
public final class MaintenanceView implements ConsoleView {

    static final Duration REFRESH = Duration.seconds(2);
    static final KeyCombination NEW = new KeyCodeCombination(KeyCode.N, KeyCombination.SHORTCUT_DOWN);
    static final KeyCombination RUN = new KeyCodeCombination(KeyCode.ENTER, KeyCombination.SHORTCUT_DOWN);
    static final KeyCombination PAUSE = new KeyCodeCombination(KeyCode.P, KeyCombination.SHORTCUT_DOWN);
    static final KeyCombination ABORT = new KeyCodeCombination(KeyCode.A, KeyCombination.SHORTCUT_DOWN, KeyCombination.SHIFT_DOWN);
    static final KeyCombination EXPORT_MD = new KeyCodeCombination(KeyCode.E, KeyCombination.SHORTCUT_DOWN);
    static final KeyCombination EXPORT_JSON = new KeyCodeCombination(KeyCode.E, KeyCombination.SHORTCUT_DOWN, KeyCombination.SHIFT_DOWN);
    /** The draft's entry in the plan list. */
    static final String DRAFT = "";

    /** Asks "abort?" and runs the first on yes, the second on no. */
    public interface Confirmer {
        void confirm(String title, String message, String detail, String verb, Runnable yes, Runnable no);
    }

    private final MaintenanceViewModel model;
    private final Confirmer confirmer;
    private final Consumer<String> toast;
    private final BorderPane root = new BorderPane();
    private final ObjectProperty<Instant> clock = new SimpleObjectProperty<>(Instant.now());
    private final Timeline ticker;
    private final ObservableList<String> planNames = FXCollections.observableArrayList(DRAFT);
    private final ListView<String> planList = new ListView<>(planNames);
    private final ObservableList<String> nodeNames = FXCollections.observableArrayList();
    private final Map<String, BooleanProperty> picked = new HashMap<>();
    private final ListView<String> nodePicker = new ListView<>(nodeNames);
    private final TableView<NodeLane> order = new TableView<>();
    private final TableView<VmMoves> moves = new TableView<>();
    private final Label strandedText = new Label();
    private final VBox strandedBox;
    private final GanttChart gantt;
    private final ObjectProperty<MaintenancePlanRow> shown = new SimpleObjectProperty<>();
    private BiFunction<String, PlanReport.Format, Path> saveTo = this::chooseFile;

    /**
     * @param nodes the cluster's nodes, to pick from
     * @param toast told where an export went, or why it failed
     */
    public MaintenanceView(MaintenanceViewModel model, ObservableList<NodeRow> nodes, Confirmer confirmer, Consumer<String> toast) {
        this.model = model;
        this.confirmer = confirmer;
        this.toast = toast;
        root.getStyleClass().add("maintenance-view");
        root.setId("maintenanceView");
        root.getProperties().put(MaintenanceView.class, this);
        shown.bind(model.shown());
        gantt = new GanttChart(shown, clock);

        // ---- left: the plans, then the builder or the plan's spec and actions
        planList.setId("maintenancePlans");
        planList.setCellFactory(l -> new PlanCell());
        planList.setPrefHeight(120);
        planList.setMinHeight(96);
        model.plans().addListener((ListChangeListener<MaintenancePlanRow>) c -> syncPlanNames());
        planList.getSelectionModel().selectedItemProperty().addListener((o, a, name) -> {
            if (name != null) {
                model.selected().set(name.equals(DRAFT) ? null : name);
            }
        });
        model.selected().addListener((o, a, name) -> planList.getSelectionModel().select(name == null ? DRAFT : name));
        planList.getSelectionModel().select(DRAFT);
        Label plansTitle = section("Plans");
        VBox builder = builder(nodes);
        VBox planBox = planActions();
        builder.visibleProperty().bind(model.selected().isNull());
        builder.managedProperty().bind(builder.visibleProperty());
        planBox.visibleProperty().bind(model.selected().isNotNull());
        planBox.managedProperty().bind(planBox.visibleProperty());
        Label notice = new Label();
        notice.setId("maintenanceNotice");
        notice.getStyleClass().add("field-error");
        notice.setWrapText(true);
        notice.setMinHeight(Region.USE_PREF_SIZE);
        notice.textProperty().bind(model.notice());
        notice.visibleProperty().bind(model.notice().isNotEmpty());
        notice.managedProperty().bind(notice.visibleProperty());
        VBox left = new VBox(8, plansTitle, planList, builder, planBox, notice);
        left.getStyleClass().add("maintenance-side");
        left.setPadding(new Insets(0, 14, 0, 0));
        left.setPrefWidth(320);
        left.setMinWidth(300);
        left.setMaxWidth(340);
        VBox.setVgrow(builder, Priority.ALWAYS);
        root.setLeft(left);

        // ---- centre: what the shown plan says
        VBox centre = new VBox(8, heading(), kpis(), strandedBox = stranded(), ganttCard(), tables());
        centre.setMinWidth(0);
        root.setCenter(centre);

        root.addEventFilter(KeyEvent.KEY_PRESSED, this::shortcut);
        ticker = new Timeline(new KeyFrame(REFRESH, e -> {
            clock.set(Instant.now());
            model.refresh();
        }));
        ticker.setCycleCount(Animation.INDEFINITE);
        root.sceneProperty().addListener((o, old, scene) -> {
            if (scene != null) {
                clock.set(Instant.now());
                model.refresh();
                ticker.play();
                // Keyboard first: the view's shortcuts work at once (the focus was on the navigation).
                javafx.application.Platform.runLater(planList::requestFocus);
            } else {
                ticker.stop();
            }
        });
        shown.addListener((o, a, p) -> showPlan(p));
        showPlan(shown.get());
    }

    @Override
    public Node root() {
        return root;
    }

    @Override
    public void focusFilter() {
        planList.requestFocus();
    }

    // ---- the builder

    private VBox builder(ObservableList<NodeRow> nodes) {
        ToggleGroup how = new ToggleGroup();
        ToggleButton pick = new ToggleButton("Pick nodes");
        pick.setId("maintenancePickNodes");
        ToggleButton bySelector = new ToggleButton("Label selector");
        bySelector.setId("maintenanceBySelector");
        pick.getStyleClass().addAll(Styles.LEFT_PILL, Styles.SMALL);
        bySelector.getStyleClass().addAll(Styles.RIGHT_PILL, Styles.SMALL);
        pick.setToggleGroup(how);
        bySelector.setToggleGroup(how);
        pick.setSelected(!model.bySelector().get());
        bySelector.setSelected(model.bySelector().get());
        how.selectedToggleProperty().addListener((o, old, now) -> {
            if (now == null) {
                old.setSelected(true);
            } else {
                model.bySelector().set(now == bySelector);
            }
        });
        HBox howBox = new HBox(pick, bySelector);
        howBox.getStyleClass().add("segmented");

        nodePicker.setId("maintenanceNodePicker");
        nodePicker.setPrefHeight(150);
        nodePicker.setMinHeight(80);
        nodePicker.setCellFactory(CheckBoxListCell.forListView(this::pickedProperty));
        // Space ticks the focused node, so the list is usable without a mouse.
        nodePicker.addEventFilter(KeyEvent.KEY_PRESSED, e -> {
            String node = nodePicker.getFocusModel().getFocusedItem();
            if (e.getCode() == KeyCode.SPACE && node != null) {
                BooleanProperty p = pickedProperty(node);
                p.set(!p.get());
                e.consume();
            }
        });
        model.draftNodes().addListener((ListChangeListener<String>) c -> syncTicks());
        nodes.addListener((ListChangeListener<NodeRow>) c -> syncNodes(nodes));
        syncNodes(nodes);
        nodePicker.visibleProperty().bind(model.bySelector().not());
        nodePicker.managedProperty().bind(nodePicker.visibleProperty());

        TextField selector = new TextField();
        selector.setId("maintenanceSelector");
        selector.setPromptText("e.g. pool=workers,zone in (a,b)");
        selector.textProperty().bindBidirectional(model.selector());
        selector.visibleProperty().bind(model.bySelector());
        selector.managedProperty().bind(selector.visibleProperty());

        Spinner<Integer> atOnce = new Spinner<>(1, 100, model.maxUnavailable().get());
        atOnce.setId("maintenanceMaxUnavailable");
        atOnce.setEditable(true);
        atOnce.setPrefWidth(90);
        atOnce.valueProperty().addListener((o, a, v) -> model.maxUnavailable().set(v == null ? 1 : v));
        model.maxUnavailable().addListener((o, a, v) -> {
            if (!v.equals(atOnce.getValue())) {
                atOnce.getValueFactory().setValue(v.intValue());
            }
        });
        Label atOnceLabel = new Label("Nodes at once");
        atOnceLabel.setLabelFor(atOnce);
        HBox atOnceRow = new HBox(10, atOnceLabel, spacer(), atOnce);
        atOnceRow.setAlignment(Pos.CENTER_LEFT);

        ComboBox<String> after = new ComboBox<>(FXCollections.observableArrayList(MaintenanceViewModel.AFTER_DRAIN));
        after.setId("maintenanceAfterDrain");
        after.setConverter(new StringConverter<>() {
            @Override
            public String toString(String s) {
                return s == null ? "" : switch (s) {
                    case "Pause" -> "Pause";
                    case "WaitForAnnotation" -> "Wait for annotation";
                    default -> "Uncordon at once";
                };
            }

            @Override
            public String fromString(String s) {
                return s;
            }
        });
        after.valueProperty().bindBidirectional(model.afterDrain());
        after.setMaxWidth(Double.MAX_VALUE);
        Label afterLabel = new Label("After each drain");
        afterLabel.setLabelFor(after);
        TextField pause = new TextField();
        pause.setId("maintenancePauseFor");
        pause.setPromptText("10m, 1h30m");
        pause.textProperty().bindBidirectional(model.pause());
        pause.visibleProperty().bind(model.afterDrain().isEqualTo("Pause"));
        pause.managedProperty().bind(pause.visibleProperty());
        TextField annotation = new TextField();
        annotation.setId("maintenanceAnnotation");
        annotation.setPromptText("annotation key, e.g. example.com/upgraded");
        annotation.textProperty().bindBidirectional(model.annotation());
        annotation.visibleProperty().bind(model.afterDrain().isEqualTo("WaitForAnnotation"));
        annotation.managedProperty().bind(annotation.visibleProperty());

        Label problems = new Label();
        problems.setId("maintenanceProblems");
        problems.getStyleClass().add("field-error");
        problems.setWrapText(true);
        problems.setMinHeight(Region.USE_PREF_SIZE);
        problems.textProperty().bind(Bindings.createStringBinding(() -> {
            List<String> found = model.problems().get();
            return !found.isEmpty() ? String.join("\n", found) : model.previewProblem().get();
        }, model.problems(), model.previewProblem()));
        problems.visibleProperty().bind(problems.textProperty().isNotEmpty());
        problems.managedProperty().bind(problems.visibleProperty());

        Button run = new Button("Run plan", Icons.icon(Material2MZ.PLAY_ARROW, 16));
        run.setId("maintenanceRun");
        run.getStyleClass().add(Styles.ACCENT);
        run.setTooltip(new Tooltip("Create the plan in the cluster; the controllers' leader runs it (Ctrl+Enter)"));
        run.disableProperty().bind(model.canRun().not());
        run.setOnAction(e -> runPlan());
        run.setMaxWidth(Double.MAX_VALUE);

        VBox box = new VBox(8, section("New plan"), howBox, nodePicker, selector, atOnceRow, afterLabel, after, pause,
                annotation, problems, run);
        box.setId("maintenanceBuilder");
        VBox.setVgrow(nodePicker, Priority.ALWAYS);
        return box;
    }

    /** The ticks follow the draft when it changes elsewhere (a plan's spec copied, tests). */
    private void syncTicks() {
        picked.forEach((node, p) -> p.set(model.draftNodes().contains(node)));
    }

    private BooleanProperty pickedProperty(String node) {
        return picked.computeIfAbsent(node, n -> {
            BooleanProperty p = new SimpleBooleanProperty(model.draftNodes().contains(n));
            p.addListener((o, was, is) -> {
                if (is && !model.draftNodes().contains(n)) {
                    // In the cluster's order, whatever order they were ticked in.
                    List<String> order = nodeNames.stream().filter(x -> x.equals(n) || model.draftNodes().contains(x)).toList();
                    model.draftNodes().setAll(order);
                } else if (!is) {
                    model.draftNodes().remove(n);
                }
            });
            return p;
        });
    }

    private void syncNodes(ObservableList<NodeRow> nodes) {
        List<String> names = nodes.stream().map(NodeRow::name).sorted().toList();
        if (!names.equals(nodeNames)) {
            nodeNames.setAll(names);
            model.draftNodes().removeIf(n -> !names.contains(n));
        }
    }

    // ---- a plan's spec and actions

    private VBox planActions() {
        Label spec = new Label();
        spec.setId("maintenanceSpec");
        spec.setWrapText(true);
        spec.setMinHeight(Region.USE_PREF_SIZE);
        spec.textProperty().bind(Bindings.createStringBinding(() -> {
            MaintenancePlanRow p = shown.get();
            if (p == null || p.preview()) {
                return "";
            }
            return "Nodes: " + (p.selector().isEmpty() ? String.join(", ", p.specNodes()) : "selector " + p.selector())
                    + "\nNodes at once: " + p.maxUnavailable() + "\nAfter each drain: " + p.afterDrain()
                    + "\nAction: " + p.action();
        }, shown));
        Button pause = new Button("Pause", Icons.icon(Material2MZ.PAUSE, 16));
        pause.setId("maintenancePause");
        pause.setTooltip(new Tooltip("Take no new node; nodes being drained finish (Ctrl+P)"));
        pause.disableProperty().bind(model.canPause().not());
        pause.visibleProperty().bind(model.canResume().not());
        pause.managedProperty().bind(pause.visibleProperty());
        pause.setOnAction(e -> pauseOrResume());
        Button resume = new Button("Resume", Icons.icon(Material2MZ.PLAY_ARROW, 16));
        resume.setId("maintenanceResume");
        resume.setTooltip(new Tooltip("Go on with the plan (Ctrl+P)"));
        resume.visibleProperty().bind(model.canResume());
        resume.managedProperty().bind(resume.visibleProperty());
        resume.setOnAction(e -> pauseOrResume());
        Button abort = new Button("Abort…", Icons.icon(Material2MZ.STOP, 16));
        abort.setId("maintenanceAbort");
        abort.getStyleClass().add(Styles.DANGER);
        abort.setTooltip(new Tooltip("Stop the plan: cancel what is in flight and uncordon what it cordoned (Ctrl+Shift+A)"));
        abort.disableProperty().bind(model.canAbort().not());
        abort.setOnAction(e -> askAbort());
        Button md = new Button("Markdown", Icons.icon(Material2MZ.SAVE_ALT, 16));
        md.setId("maintenanceExportMarkdown");
        md.setTooltip(new Tooltip("Export the plan's report as Markdown (Ctrl+E)"));
        md.setOnAction(e -> export(PlanReport.Format.MARKDOWN));
        Button json = new Button("JSON", Icons.icon(Material2MZ.SAVE_ALT, 16));
        json.setId("maintenanceExportJson");
        json.setTooltip(new Tooltip("Export the plan's report as JSON (Ctrl+Shift+E)"));
        json.setOnAction(e -> export(PlanReport.Format.JSON));
        for (Button b : List.of(pause, resume, abort, md, json)) {
            b.getStyleClass().add(Styles.SMALL);
            b.setMinWidth(Region.USE_PREF_SIZE);
        }
        HBox control = new HBox(8, pause, resume, abort);
        HBox exports = new HBox(8, new Label("Export"), md, json);
        exports.setAlignment(Pos.CENTER_LEFT);
        VBox box = new VBox(8, section("Plan"), spec, control, exports);
        box.setId("maintenancePlanBox");
        return box;
    }

    // ---- the centre

    private final Label title = new Label();
    private final Label phase = Badge.of("", Badge.Tone.NEUTRAL);
    private final Label message = new Label();
    private final Label time = new Label();
    private final Label migrations = new Label();
    private final Label twice = new Label();
    private final Label strandedCount = new Label();

    private Node heading() {
        title.setId("maintenanceTitle");
        title.getStyleClass().add("timeline-title");
        phase.setId("maintenancePhase");
        message.setId("maintenanceMessage");
        message.getStyleClass().add(Styles.TEXT_MUTED);
        message.setMinWidth(0);
        title.setMinWidth(Region.USE_PREF_SIZE);
        phase.setMinWidth(Region.USE_PREF_SIZE);
        HBox box = new HBox(10, title, phase, message);
        box.setAlignment(Pos.CENTER_LEFT);
        return box;
    }

    private Node kpis() {
        time.setId("maintenanceTime");
        migrations.setId("maintenanceMigrations");
        twice.setId("maintenanceTwice");
        strandedCount.setId("maintenanceStrandedCount");
        HBox box = new HBox(24, kpi("Time", time), kpi("Migrations", migrations), kpi("Moved more than once", twice),
                kpi("Stranded", strandedCount));
        box.getStyleClass().add("maintenance-kpis");
        return box;
    }

    private static Node kpi(String name, Label value) {
        Label n = new Label(name);
        n.getStyleClass().addAll(Styles.TEXT_MUTED, Styles.TEXT_SMALL);
        value.getStyleClass().add("maintenance-kpi");
        value.setMinWidth(Region.USE_PREF_SIZE);
        n.setMinWidth(Region.USE_PREF_SIZE);
        return new VBox(1, n, value);
    }

    private VBox stranded() {
        strandedText.setId("maintenanceStranded");
        strandedText.getStyleClass().add("stranded-vmi");
        strandedText.setWrapText(true);
        strandedText.setMinHeight(Region.USE_PREF_SIZE);
        Label head = new Label("Stranded: the plan finds no node for these VMs");
        head.getStyleClass().add("section-label");
        // Many stranded VMs scroll: the Gantt keeps its room.
        javafx.scene.control.ScrollPane scroll = new javafx.scene.control.ScrollPane(strandedText);
        scroll.setFitToWidth(true);
        scroll.setMaxHeight(96);
        scroll.getStyleClass().addAll("stranded-scroll", "edge-to-edge");
        VBox box = new VBox(4, head, scroll);
        box.getStyleClass().add("stranded-list");
        box.setVisible(false);
        box.managedProperty().bind(box.visibleProperty());
        return box;
    }

    private Node ganttCard() {
        Label hint = new Label("Predicted (hollow) and actual per node, in real time from the plan's start; bands are batches");
        hint.getStyleClass().addAll(Styles.TEXT_MUTED, "timeline-hint");
        hint.setWrapText(true);
        hint.setMinHeight(Region.USE_PREF_SIZE);
        HBox legend = new HBox(12, legendItem("Predicted", "gantt-predicted-edge"), legendItem("Draining", "gantt-draining"),
                legendItem("After drain", "gantt-after-drain"), legendItem("Done", "gantt-done"), legendItem("Failed", "gantt-failed"));
        legend.setMinWidth(Region.USE_PREF_SIZE);
        Label head = new Label("Gantt");
        head.getStyleClass().add("timeline-title");
        HBox header = new HBox(12, head, spacer(), legend);
        header.setAlignment(Pos.CENTER_LEFT);
        gantt.setMinHeight(130);
        VBox card = new VBox(6, header, hint, gantt);
        card.getStyleClass().add("timeline-card");
        card.setPadding(new Insets(10, 12, 10, 12));
        VBox.setVgrow(gantt, Priority.ALWAYS);
        return card;
    }

    private static Node legendItem(String text, String swatch) {
        Region dot = new Region();
        dot.getStyleClass().addAll("legend-dot", swatch);
        Label label = new Label(text, dot);
        label.getStyleClass().addAll("legend-item", Styles.TEXT_MUTED);
        label.setMinWidth(Region.USE_PREF_SIZE);
        return label;
    }

    private Node tables() {
        order.setId("maintenanceOrder");
        order.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        order.getColumns().setAll(List.of(
                column("Batch", n -> String.valueOf(n.batch()), 64),
                column("Node", NodeLane::name, 100),
                phaseColumn(),
                column("Predicted", n -> GanttLayout.tick(n.predictedStartSeconds()) + " + "
                        + HistoryDocuments.duration(n.predictedSeconds()), 120),
                column("Actual", this::actualOf, 90),
                column("Migrations", n -> n.migrationsMade() + " / " + n.migrationsPredicted(), 100)));
        order.setPlaceholder(new Label("No nodes"));
        Label orderNote = new Label("Order chosen by the planner to move each VM as few times as possible; it cannot be changed here");
        orderNote.setId("maintenanceOrderNote");
        orderNote.getStyleClass().addAll(Styles.TEXT_MUTED, Styles.TEXT_SMALL);
        orderNote.setWrapText(true);
        orderNote.setMinHeight(Region.USE_PREF_SIZE);
        Label orderTitle = section("Order");
        VBox orderBox = new VBox(4, orderTitle, orderNote, order);
        VBox.setVgrow(order, Priority.ALWAYS);

        moves.setId("maintenanceMoves");
        moves.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        moves.getColumns().setAll(List.of(
                vmColumn("VM", VmMoves::vm, 120),
                vmColumn("Moves", m -> m.times() + "×", 64),
                vmColumn("Path", m -> String.join(" → ", m.hops()), 176),
                vmColumn("Why", VmMoves::why, 90)));
        moves.setRowFactory(t -> new javafx.scene.control.TableRow<>() {
            @Override
            protected void updateItem(VmMoves m, boolean empty) {
                super.updateItem(m, empty);
                getStyleClass().remove("row-warning");
                if (!empty && m != null && m.times() > 1) {
                    getStyleClass().add("row-warning");
                }
            }
        });
        moves.setPlaceholder(new Label("No VM moves"));
        Label movesTitle = section("VMs that move");
        VBox movesBox = new VBox(4, movesTitle, moves);
        VBox.setVgrow(moves, Priority.ALWAYS);

        // Side by side when there is room; at 1280x720 each table gets the whole width, in a tab.
        HBox side = new HBox(12);
        HBox.setHgrow(orderBox, Priority.ALWAYS);
        orderBox.setPrefWidth(600);
        movesBox.setPrefWidth(452);
        movesBox.setMinWidth(452);
        javafx.scene.control.Tab orderTab = new javafx.scene.control.Tab("Order");
        javafx.scene.control.Tab movesTab = new javafx.scene.control.Tab();
        movesTab.textProperty().bind(Bindings.size(moves.getItems()).asString("VMs that move (%d)"));
        javafx.scene.control.TabPane tabs = new javafx.scene.control.TabPane(orderTab, movesTab);
        tabs.setId("maintenanceTabs");
        tabs.setTabClosingPolicy(javafx.scene.control.TabPane.TabClosingPolicy.UNAVAILABLE);
        javafx.scene.layout.StackPane holder = new javafx.scene.layout.StackPane();
        holder.setPrefHeight(230);
        holder.setMinHeight(150);
        VBox.setVgrow(holder, Priority.ALWAYS);
        holder.widthProperty().addListener((o, a, w) -> {
            boolean wide = w.doubleValue() >= 1010; // the order table's columns whole beside the moves
            if (wide && holder.getChildren().contains(side) || !wide && holder.getChildren().contains(tabs)) {
                return;
            }
            orderTitle.setVisible(wide);
            orderTitle.setManaged(wide);
            movesTitle.setVisible(wide);
            movesTitle.setManaged(wide);
            if (wide) {
                orderTab.setContent(null);
                movesTab.setContent(null);
                side.getChildren().setAll(orderBox, movesBox);
                holder.getChildren().setAll(side);
            } else {
                side.getChildren().clear();
                orderTab.setContent(orderBox);
                movesTab.setContent(movesBox);
                holder.getChildren().setAll(tabs);
            }
        });
        side.getChildren().setAll(orderBox, movesBox);
        holder.getChildren().setAll(side);
        return holder;
    }

    private TableColumn<NodeLane, String> column(String name, java.util.function.Function<NodeLane, String> value, double width) {
        TableColumn<NodeLane, String> c = new TableColumn<>(name);
        c.setCellValueFactory(d -> new SimpleStringProperty(value.apply(d.getValue())));
        c.setPrefWidth(width);
        c.setMinWidth(Math.min(width, 100)); // headers stay whole at 1280x720
        c.setSortable(false); // the planner's order is the point of this table
        return c;
    }

    private TableColumn<NodeLane, String> phaseColumn() {
        TableColumn<NodeLane, String> c = column("Phase", NodeLane::phase, 110);
        c.setCellFactory(col -> new TableCell<>() {
            @Override
            protected void updateItem(String phase, boolean empty) {
                super.updateItem(phase, empty);
                setText(null);
                setGraphic(empty || phase == null ? null : Badge.of(phase, phaseTone(phase)));
            }
        });
        return c;
    }

    private static TableColumn<VmMoves, String> vmColumn(String name, java.util.function.Function<VmMoves, String> value, double width) {
        TableColumn<VmMoves, String> c = new TableColumn<>(name);
        c.setCellValueFactory(d -> new SimpleStringProperty(value.apply(d.getValue())));
        c.setPrefWidth(width);
        c.setMinWidth(Math.min(width, 64));
        return c;
    }

    private String actualOf(NodeLane n) {
        MaintenancePlanRow p = shown.get();
        if (p == null || n.startedAt() == null) {
            return "—";
        }
        Instant end = n.finishedAt() != null ? n.finishedAt() : p.finishedAt() != null ? p.finishedAt() : clock.get();
        Double from = p.realSecondsAt(n.startedAt());
        Double to = p.realSecondsAt(end);
        return from == null || to == null ? "—" : HistoryDocuments.duration(Math.max(0, to - from))
                + (n.finishedAt() == null && p.finishedAt() == null ? " so far" : "");
    }

    static Badge.Tone phaseTone(String phase) {
        return switch (phase) {
            case "Done", "Succeeded" -> Badge.Tone.SUCCESS;
            case "Failed", "Aborted" -> Badge.Tone.DANGER;
            case "Paused", "Aborting", "Skipped" -> Badge.Tone.WARNING;
            case "Draining", "AfterDrain", "Uncordoning", "Running", "Planning" -> Badge.Tone.ACCENT;
            default -> Badge.Tone.NEUTRAL;
        };
    }

    private void showPlan(MaintenancePlanRow p) {
        clock.set(Instant.now());
        if (p == null) {
            title.setText(model.selected().get() == null ? "New plan" : model.selected().get());
            phase.setVisible(false);
            message.setText(model.selected().get() == null ? "pick the nodes to maintain" : "");
            time.setText("—");
            migrations.setText("—");
            twice.setText("—");
            strandedCount.setText("—");
            order.getItems().clear();
            moves.getItems().clear();
            strandedBox.setVisible(false);
            gantt.setEmptyText(model.selected().get() == null ? "Pick nodes, or give a label selector, to see the plan" : "No plan");
            return;
        }
        title.setText(p.preview() ? "New plan (preview)" : p.name());
        phase.setVisible(true);
        phase.setText(p.phase());
        Badge.style(phase, p.preview() ? Badge.Tone.NEUTRAL : phaseTone(p.phase()));
        message.setText(p.message());
        time.setText(PlanReport.timeVsPredicted(p, clock.get()));
        migrations.setText(PlanReport.migrations(p));
        int more = p.movedTwiceOrMore().size();
        twice.setText(more == 0 ? "none" : more + (more == 1 ? " VM" : " VMs"));
        strandedCount.setText(p.stranded().isEmpty() ? "none" : p.stranded().size() + (p.stranded().size() == 1 ? " VM" : " VMs"));
        strandedCount.getStyleClass().remove("stranded-vmi");
        if (!p.stranded().isEmpty()) {
            strandedCount.getStyleClass().add("stranded-vmi");
        }
        order.getItems().setAll(p.nodes());
        moves.getItems().setAll(p.moves().stream()
                .sorted(java.util.Comparator.comparingInt(VmMoves::times).reversed().thenComparing(VmMoves::vm)).toList());
        strandedText.setText(String.join("\n", p.stranded().stream().map(s -> s.vm() + ": " + s.why()).toList()));
        strandedBox.setVisible(!p.stranded().isEmpty());
        gantt.setEmptyText("The plan has no nodes");
    }

    private void syncPlanNames() {
        String keep = planList.getSelectionModel().getSelectedItem();
        List<String> names = new java.util.ArrayList<>();
        names.add(DRAFT);
        model.plans().forEach(p -> names.add(p.name()));
        if (!names.equals(planNames)) {
            planNames.setAll(names);
        }
        planList.getSelectionModel().select(keep != null && names.contains(keep) ? keep : DRAFT);
        planList.refresh(); // a plan's phase changed: its cell says so
    }

    // ---- actions

    private void shortcut(KeyEvent e) {
        if (NEW.match(e)) {
            model.selected().set(null);
            nodePicker.requestFocus();
        } else if (RUN.match(e)) {
            runPlan();
        } else if (PAUSE.match(e)) {
            pauseOrResume();
        } else if (ABORT.match(e)) {
            askAbort();
        } else if (EXPORT_JSON.match(e)) {
            export(PlanReport.Format.JSON);
        } else if (EXPORT_MD.match(e)) {
            export(PlanReport.Format.MARKDOWN);
        } else {
            return;
        }
        e.consume();
    }

    private void runPlan() {
        model.run().thenAccept(name -> {
            if (name != null) {
                planList.requestFocus();
            }
        });
    }

    private void pauseOrResume() {
        String plan = model.selected().get();
        var done = model.canResume().get() ? model.resume() : model.pausePlan();
        done.thenRun(() -> focusPlan(plan));
    }

    private void askAbort() {
        MaintenancePlanRow p = shown.get();
        if (p == null || !model.canAbort().get()) {
            return;
        }
        confirmer.confirm("Abort the plan " + p.name() + "?",
                "No new node is taken. Evacuations and migrations in flight are cancelled, and the nodes the plan "
                        + "cordoned are uncordoned.",
                p.nodesDone() + " of " + p.nodes().size() + " nodes are done; they stay as they are.",
                "Abort plan", () -> model.abort().thenRun(() -> focusPlan(p.name())), () -> focusPlan(p.name()));
    }

    private void focusPlan(String name) {
        if (name != null) {
            planList.getSelectionModel().select(name);
        }
        planList.requestFocus();
    }

    private void export(PlanReport.Format format) {
        MaintenancePlanRow p = shown.get();
        if (p == null) {
            return;
        }
        Path file = saveTo.apply(PlanReport.fileName(p, format), format);
        if (file == null) {
            return;
        }
        try {
            PlanReport.write(file, PlanReport.render(p, format));
            toast.accept("Exported to " + file);
        } catch (IOException e) {
            toast.accept("Export to " + file + " failed: " + e.getMessage());
        }
    }

    private Path chooseFile(String name, PlanReport.Format format) {
        FileChooser chooser = new FileChooser();
        chooser.setTitle("Export the plan's report");
        chooser.setInitialFileName(name);
        chooser.getExtensionFilters().add(new FileChooser.ExtensionFilter(
                format == PlanReport.Format.JSON ? "JSON" : "Markdown", "*." + format.extension()));
        File file = chooser.showSaveDialog(root.getScene() == null ? null : root.getScene().getWindow());
        return file == null ? null : file.toPath();
    }

    /** Where exports go instead of a file chooser (tests). */
    void setSaveTo(BiFunction<String, PlanReport.Format, Path> saveTo) {
        this.saveTo = saveTo;
    }

    MaintenanceViewModel model() {
        return model;
    }

    private static Label section(String text) {
        Label l = new Label(text);
        l.getStyleClass().add("section-label");
        return l;
    }

    private static Region spacer() {
        Region r = new Region();
        HBox.setHgrow(r, Priority.ALWAYS);
        return r;
    }

    /** A plan in the list: its name, phase and progress; the draft first. */
    private final class PlanCell extends ListCell<String> {
        PlanCell() {
            setPrefWidth(0); // as wide as the list, never wider: no horizontal scroll bar
        }

        @Override
        protected void updateItem(String name, boolean empty) {
            super.updateItem(name, empty);
            if (empty || name == null) {
                setText(null);
                setGraphic(null);
                return;
            }
            if (name.equals(DRAFT)) {
                setText("New plan  (Ctrl+N)");
                setGraphic(Icons.icon(Material2AL.ADD, 16));
                return;
            }
            MaintenancePlanRow p = model.plans().stream().filter(x -> x.name().equals(name)).findFirst().orElse(null);
            setText(null);
            Label n = new Label(name);
            n.setMinWidth(0);
            Label done = new Label(p == null ? "" : p.nodesDone() + "/" + p.nodes().size() + " nodes");
            done.getStyleClass().addAll(Styles.TEXT_MUTED, Styles.TEXT_SMALL);
            done.setMinWidth(Region.USE_PREF_SIZE);
            Label badge = Badge.of(p == null ? "" : p.phase(), p == null ? Badge.Tone.NEUTRAL : phaseTone(p.phase()));
            badge.setMinWidth(Region.USE_PREF_SIZE);
            HBox box = new HBox(8, n, spacer(), done, badge);
            box.setAlignment(Pos.CENTER_LEFT);
            setGraphic(box);
        }
    }
}
