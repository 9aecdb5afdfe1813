package dev.drainboard.ui.migrations;

import atlantafx.base.theme.Styles;
import dev.drainboard.ui.common.Badge;
import dev.drainboard.ui.common.Formats;
import dev.drainboard.ui.dialogs.ActionCenter;
import dev.drainboard.ui.lists.ListScreen;
import dev.drainboard.ui.model.ClusterModel;
import dev.drainboard.ui.model.MigrationRow;
import dev.drainboard.ui.model.ObjectRef;
import dev.drainboard.ui.model.VmiRow;
import javafx.animation.Animation;
import javafx.beans.binding.Bindings;
import javafx.animation.KeyFrame;
import javafx.animation.Timeline;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.collections.ListChangeListener;
import javafx.collections.ObservableList;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.Node;
import javafx.scene.control.Label;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableColumn;
import javafx.scene.control.ToggleButton;
import javafx.scene.control.ToggleGroup;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;
import javafx.util.Duration;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;

import static java.util.Map.entry;

/**
 * Live migrations (VMIMs), in flight and recent: phase, source → target, cause, the transfer's progress (sent vs
 * remaining, rate, pass; honest when remaining grows) and how long each took; below, a timeline of the last
 * minutes with one lane per source node, so the parallel migration slots in use are visible.
 */
public final class MigrationsView extends ListScreen<MigrationRow> {

    private final ClusterModel model;
    private final ObjectProperty<Instant> clock = new SimpleObjectProperty<>(Instant.now());
    private final Timeline ticker = new Timeline(new KeyFrame(Duration.seconds(1), e -> clock.set(Instant.now())));
    private final MigrationTimeline timeline;
    private final VBox root = new VBox(14);
    private final ToggleButton inFlight = new ToggleButton();
    private final ToggleButton finished = new ToggleButton();
    private final ToggleButton all = new ToggleButton();

    public MigrationsView(ClusterModel model, ActionCenter actions) {
        super(model, "migrationsTable", model.migrations(), "migrations");
        this.model = model;
        // The counts and the timeline follow the namespace picker as the table does.
        ObservableList<MigrationRow> rows = inScope(model.migrations(), model.namespaceScope());
        var screen = screen();
        screen.textColumn("Name", MigrationRow::name, 170);
        screen.textColumn("VMI", MigrationRow::vmi, 105);
        screen.badgeColumn("Phase", MigrationRow::phase, MigrationsView::phaseTone, 100);
        screen.textColumn("Source → target", r -> Formats.orDash(r.sourceNode()) + " → " + Formats.orDash(r.targetNode()), 150);
        screen.rowColumn("Progress", ProgressCell::new,
                Comparator.comparingDouble(r -> r.transfer().map(t -> t.fraction()).orElse(r.finished() ? 1.0 : -1.0)), 320)
                .setId("progressColumn");
        screen.textColumn("Cause", MigrationRow::cause, 125);
        // The migration priority queue's order (KubeVirt v1.7+): which Pending VMIM goes first.
        screen.textColumn("Priority", r -> Formats.orDash(r.priority()), 115);
        clockColumn("Duration", (r, now) -> Formats.duration(r.elapsed(now)),
                Comparator.comparing(r -> r.elapsed(clock.get())), 75);
        TableColumn<MigrationRow, MigrationRow> created = clockColumn("Created", (r, now) ->
                        r.since() == null ? "—" : Formats.age(java.time.Duration.between(r.since(), now)) + " ago",
                Comparator.comparing(r -> r.since() == null ? Instant.EPOCH : r.since()), 70);
        created.setSortType(TableColumn.SortType.DESCENDING);
        screen.table().getSortOrder().add(created);
        screen.setRowStyle(r -> "Failed".equals(r.phase()) ? "row-danger"
                : MigrationRow.CANCELLED.equals(r.phase()) ? "row-warning"
                : r.transfer().map(t -> t.notConverging()).orElse(false) && !r.finished() ? "row-warning" : null);
        screen.setFacts(r -> facts(r, clock.get()));

        inFlight.setId("migrationsInFlight");
        finished.setId("migrationsFinished");
        all.setId("migrationsAll");
        HBox segments = segments(2, new Segment<>(inFlight, r -> !r.finished()),
                new Segment<>(finished, MigrationRow::finished), new Segment<>(all, r -> true));
        segments.getStyleClass().add("segmented");
        segments.setId("migrationsShow");
        rows.addListener((ListChangeListener<MigrationRow>) c -> updateCounts(rows));
        updateCounts(rows);
        offer(actions.migrationActions()); // cancel migration (X) on the selected row

        timeline = new MigrationTimeline(rows, clock, this::sourceNodeOfVmi);
        timeline.setPrefHeight(200);
        timeline.setMinHeight(172);
        VBox card = new VBox(8, timelineHeader(), timeline);
        card.getStyleClass().add("timeline-card");
        card.setPadding(new Insets(10, 12, 10, 12));
        VBox.setVgrow(screen.root(), Priority.ALWAYS);
        root.getChildren().addAll(screen.root(), card);

        ticker.setCycleCount(Animation.INDEFINITE);
        // Tick only while the view is on screen: a hidden view costs nothing, and a closed session's view is let go.
        root.sceneProperty().addListener((o, old, scene) -> {
            if (scene != null) {
                clock.set(Instant.now());
                ticker.play();
            } else {
                ticker.stop();
            }
        });
    }

    private Node timelineHeader() {
        Label title = new Label("Timeline");
        title.getStyleClass().add("timeline-title");
        Label hint = new Label("outbound migrations per source node; stacked bars ran at the same time");
        hint.getStyleClass().addAll(Styles.TEXT_MUTED, "timeline-hint");
        // "Cancelled" only while there is one: the header keeps its room at the narrowest window.
        Node cancelled = legendItem("Cancelled", "swatch-cancelled");
        cancelled.visibleProperty().bind(Bindings.createBooleanBinding(() -> model.migrations().stream()
                .anyMatch(r -> MigrationRow.CANCELLED.equals(r.phase())), model.migrations()));
        cancelled.managedProperty().bind(cancelled.visibleProperty());
        HBox legend = new HBox(12, legendItem("Pending", "swatch-pending"), legendItem("Running", "swatch-running"),
                legendItem("Succeeded", "swatch-succeeded"), legendItem("Failed", "swatch-failed"), cancelled);
        legend.setAlignment(Pos.CENTER_LEFT);
        ToggleGroup windows = new ToggleGroup();
        HBox choice = new HBox();
        choice.getStyleClass().add("segmented");
        int[] minutes = {5, 15, 60};
        String[] pills = {Styles.LEFT_PILL, Styles.CENTER_PILL, Styles.RIGHT_PILL};
        for (int i = 0; i < minutes.length; i++) {
            int m = minutes[i];
            ToggleButton b = new ToggleButton(m + " min");
            b.setId("timelineWindow" + m);
            b.getStyleClass().addAll(pills[i], Styles.SMALL);
            b.setToggleGroup(windows);
            b.setSelected(m == timeline.windowMinutesProperty().get());
            b.setOnAction(e -> {
                if (!b.isSelected()) {
                    b.setSelected(true);
                }
                timeline.windowMinutesProperty().set(m);
            });
            choice.getChildren().add(b);
        }
        Region spacer = new Region();
        HBox.setHgrow(spacer, Priority.ALWAYS);
        // At 1280×720 the hint wraps; the title, the legend and the range buttons keep their width.
        title.setMinWidth(Region.USE_PREF_SIZE);
        legend.getChildren().forEach(n -> ((Label) n).setMinWidth(Region.USE_PREF_SIZE));
        legend.setMinWidth(Region.USE_PREF_SIZE);
        choice.getChildren().forEach(n -> ((ToggleButton) n).setMinWidth(Region.USE_PREF_SIZE));
        choice.setMinWidth(Region.USE_PREF_SIZE);
        // The hint goes under them, whole (an HBox cut it to one line).
        hint.setWrapText(true);
        hint.setMinHeight(Region.USE_PREF_SIZE);
        HBox header = new HBox(12, title, spacer, legend, choice);
        header.setAlignment(Pos.CENTER_LEFT);
        return new javafx.scene.layout.VBox(2, header, hint);
    }

    private static Node legendItem(String text, String swatch) {
        Region dot = new Region();
        dot.getStyleClass().addAll("legend-dot", swatch);
        Label label = new Label(text, dot);
        label.getStyleClass().addAll("legend-item", Styles.TEXT_MUTED);
        return label;
    }

    private void updateCounts(List<MigrationRow> rows) {
        long flying = rows.stream().filter(r -> !r.finished()).count();
        inFlight.setText("In flight  " + flying);
        finished.setText("Finished  " + (rows.size() - flying));
        all.setText("All  " + rows.size());
    }

    /** A column whose text depends on the time (elapsed, age): its cells follow the one-second clock. */
    private TableColumn<MigrationRow, MigrationRow> clockColumn(String title, BiFunction<MigrationRow, Instant, String> text,
                                                               Comparator<MigrationRow> order, double width) {
        return screen().rowColumn(title, () -> new TableCell<>() {
            {
                clock.addListener((o, a, now) -> show(getItem(), now));
            }

            @Override
            protected void updateItem(MigrationRow row, boolean empty) {
                super.updateItem(row, empty);
                show(empty ? null : row, clock.get());
            }

            private void show(MigrationRow row, Instant now) {
                setText(row == null ? null : text.apply(row, now));
            }
        }, order, width);
    }

    static Badge.Tone phaseTone(String phase) {
        return switch (phase) {
            case "Succeeded" -> Badge.Tone.SUCCESS;
            case "Failed" -> Badge.Tone.DANGER;
            case MigrationRow.CANCELLED -> Badge.Tone.WARNING;
            case "Running", "Scheduling", "Scheduled", "PreparingTarget", "TargetReady" -> Badge.Tone.ACCENT;
            default -> Badge.Tone.NEUTRAL;
        };
    }

    static List<Map.Entry<String, String>> facts(MigrationRow r, Instant now) {
        List<Map.Entry<String, String>> facts = new ArrayList<>(List.of(
                entry("VMI", r.vmi()), entry("Phase", r.phase()),
                entry("Source", r.sourceNode()), entry("Target", r.targetNode()), entry("Cause", r.cause()),
                entry(r.finished() ? "Took" : "Running for", Formats.duration(r.elapsed(now)))));
        r.transfer().ifPresent(t -> {
            facts.add(entry("Transfer", ProgressText.summary(r) + (t.mode().isEmpty() ? "" : " (" + t.mode() + ")")));
            facts.add(entry("Data", ProgressText.detail(r)));
        });
        if (!r.failureReason().isEmpty()) {
            facts.add(entry(MigrationRow.CANCELLED.equals(r.phase()) ? "Cancelled" : "Failure", r.failureReason()));
        }
        return facts;
    }

    /** A pending migration's source: the node its VMI runs on. */
    private String sourceNodeOfVmi(MigrationRow m) {
        for (VmiRow v : model.vmis()) {
            if (v.name().equals(m.vmi()) && v.namespace().equals(m.namespace())) {
                return v.node();
            }
        }
        return "";
    }

    /** The timeline, for tests. */
    MigrationTimeline timeline() {
        return timeline;
    }

    /** The table and, below it, the timeline. */
    @Override
    public Node root() {
        return root;
    }

    @Override
    public boolean reveal(ObjectRef ref) {
        if (ref.kind() == ObjectRef.Kind.VMIM && !all.isSelected()) {
            all.setSelected(true); // the row may be hidden by the in-flight/finished choice
        }
        return super.reveal(ref);
    }
}
