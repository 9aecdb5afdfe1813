package dev.drainboard.ui.pods;

import atlantafx.base.theme.Styles;
import dev.drainboard.ops.DrainOptions;
import dev.drainboard.ops.DrainPreview;
import dev.drainboard.ops.PodOutcome;
import dev.drainboard.ops.PodPreview;
import dev.drainboard.ui.common.Badge;
import dev.drainboard.ui.common.Formats;
import dev.drainboard.ui.drain.DrainSummary;
import dev.drainboard.ui.lists.ListScreen;
import dev.drainboard.ui.model.ClusterModel;
import dev.drainboard.ui.model.NodePodRow;
import dev.drainboard.ui.model.NodeRow;
import javafx.collections.FXCollections;
import javafx.collections.ListChangeListener;
import javafx.collections.ObservableList;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiFunction;

import static java.util.Map.entry;

/**
 * The pods a drain touches besides VMIs' launchers (which the VMIs view shows): each node's pods with their owner's
 * kind and what a drain of that node does with them, as the drain preview decides it ({@link DrainPreview}'s
 * {@link PodOutcome}: the drain dialog and {@code drainboard drain} say the same). Worked out with the options the
 * drain dialog starts with (kubectl drain's defaults), read again when the nodes' pods change while it is shown.
 */
public final class PodsView extends ListScreen<NodePodRow> {

    /** The node filter's entry that shows every node. */
    public static final String ALL_NODES = "All nodes";

    private final ClusterModel model;
    private final BiFunction<List<String>, DrainOptions, CompletableFuture<List<DrainPreview>>> preview;
    private final ObservableList<NodePodRow> rows;
    private final DrainOptions options = DrainOptions.defaults();
    private final ComboBox<String> nodeFilter = new ComboBox<>();
    private final Label status = new Label();
    private boolean reading;
    private boolean again;

    /**
     * @param preview what draining each node would do ({@code ClusterActions#preview}); asked node by node, since
     *                each node is drained on its own here
     */
    public PodsView(ClusterModel model, BiFunction<List<String>, DrainOptions, CompletableFuture<List<DrainPreview>>> preview) {
        this(model, preview, FXCollections.observableArrayList());
    }

    private PodsView(ClusterModel model, BiFunction<List<String>, DrainOptions, CompletableFuture<List<DrainPreview>>> preview,
                     ObservableList<NodePodRow> rows) {
        super(model, "podsTable", rows, "pods");
        this.model = model;
        this.preview = preview;
        this.rows = rows;
        var screen = screen();
        screen.textColumn("Name", NodePodRow::name, 220);
        screen.textColumn("Namespace", NodePodRow::namespace, 110);
        screen.textColumn("Node", NodePodRow::node, 90);
        screen.textColumn("Owner", r -> Formats.orDash(r.owner()), 110);
        screen.badgeColumn("On drain", r -> DrainSummary.outcomeLabel(r.outcome()), PodsView::tone, DrainSummary.outcomeBadgeWidth())
                .setId("podsOutcomeColumn");
        screen.textColumn("Why", NodePodRow::reason, 360);
        screen.setRowStyle(r -> r.outcome().blocks() || r.outcome().effect() == PodOutcome.Effect.REFUSE_TO_START
                ? "row-danger" : null);
        screen.setFacts(r -> List.<Map.Entry<String, String>>of(
                entry("Node", r.node()),
                entry("Owner", r.owner().isEmpty() ? "none (no controller recreates it)" : r.owner()),
                entry("On drain", DrainSummary.outcomeLabel(r.outcome())),
                entry("Why", r.reason()),
                entry("Worked out with", r.options().isEmpty() ? "kubectl drain's defaults" : r.options())));

        nodeFilter.setId("podsNodeFilter");
        nodeFilter.getItems().add(ALL_NODES);
        nodeFilter.setValue(ALL_NODES);
        nodeFilter.setOnShowing(e -> refreshNodes());
        nodeFilter.valueProperty().addListener((obs, old, now) -> screen.extraFilterProperty().set(
                now == null || ALL_NODES.equals(now) ? r -> true : r -> now.equals(r.node())));
        status.setId("podsStatus");
        status.getStyleClass().addAll(Styles.TEXT_MUTED, Styles.TEXT_SMALL);
        status.setText("Outcomes as kubectl drain's defaults decide them (the drain dialog's starting options)");
        status.setWrapText(false);
        status.setMinWidth(0);
        screen.toolbar().getChildren().add(1, nodeFilter);
        screen.actions().getChildren().add(status);

        // Any pod that changes marks its node's row: read the previews again, while the view is on screen.
        model.nodes().addListener((ListChangeListener<NodeRow>) c -> {
            if (root().getScene() != null) {
                read();
            }
        });
        root().sceneProperty().addListener((obs, old, now) -> {
            if (now != null) {
                read();
            }
        });
        read();
    }

    /** Shows only the pods of one node ({@link #ALL_NODES} for every node). */
    public void showNode(String node) {
        refreshNodes();
        nodeFilter.setValue(node);
    }

    private void refreshNodes() {
        List<String> names = new ArrayList<>();
        names.add(ALL_NODES);
        model.nodes().stream().map(NodeRow::name).sorted().forEach(names::add);
        if (!names.equals(nodeFilter.getItems())) {
            String value = nodeFilter.getValue();
            nodeFilter.getItems().setAll(names);
            nodeFilter.setValue(names.contains(value) ? value : ALL_NODES);
        }
    }

    /** One read at a time; changes during it ask for one more. */
    private void read() {
        if (reading) {
            again = true;
            return;
        }
        List<String> nodes = model.nodes().stream().map(NodeRow::name).sorted().toList();
        if (nodes.isEmpty()) {
            return;
        }
        reading = true;
        again = false;
        List<CompletableFuture<List<DrainPreview>>> each = nodes.stream()
                .map(n -> preview.apply(List.of(n), options)
                        .exceptionally(e -> List.of(new DrainPreview(n, List.of(), List.of(Formats.orDash(cause(e)))))))
                .toList();
        CompletableFuture.allOf(each.toArray(CompletableFuture[]::new)).whenComplete((ok, error) ->
                javafx.application.Platform.runLater(() -> {
                    List<NodePodRow> found = new ArrayList<>();
                    List<String> failures = new ArrayList<>();
                    for (CompletableFuture<List<DrainPreview>> f : each) {
                        for (DrainPreview p : f.join()) {
                            if (p.pods().isEmpty() && !p.errors().isEmpty()) {
                                failures.add(p.node() + ": " + p.errors().getFirst());
                            }
                            for (PodPreview pod : p.pods()) {
                                if (pod.vmi() == null) { // launcher pods are the VMIs view's
                                    found.add(new NodePodRow(pod.namespace(), pod.name(), p.node(),
                                            model.podOwnerKind(pod.namespace(), pod.name()), pod.outcome(), pod.reason(), ""));
                                }
                            }
                        }
                    }
                    if (!found.equals(rows)) {
                        rows.setAll(found);
                    }
                    status.setText(failures.isEmpty()
                            ? "Outcomes as kubectl drain's defaults decide them (the drain dialog's starting options)"
                            : "Not read: " + String.join("; ", failures));
                    if (again) {
                        // Pods change in bursts (a drain, a migration): read again, but not more than every 2 s.
                        javafx.animation.PauseTransition pause = new javafx.animation.PauseTransition(javafx.util.Duration.seconds(2));
                        pause.setOnFinished(e -> {
                            reading = false;
                            read();
                        });
                        pause.play();
                    } else {
                        reading = false;
                    }
                }));
    }

    private static String cause(Throwable e) {
        Throwable t = e;
        while ((t instanceof java.util.concurrent.CompletionException || t instanceof java.util.concurrent.ExecutionException)
                && t.getCause() != null) {
            t = t.getCause();
        }
        return t.getMessage();
    }

    static Badge.Tone tone(String label) {
        for (PodOutcome o : PodOutcome.values()) {
            if (DrainSummary.outcomeLabel(o).equals(label)) {
                return DrainSummary.outcomeTone(o);
            }
        }
        return Badge.Tone.NEUTRAL;
    }
}
