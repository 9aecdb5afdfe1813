package dev.drainboard.ui.drain;

import atlantafx.base.theme.Styles;
import atlantafx.base.theme.Tweaks;
import dev.drainboard.ui.common.Badge;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.collections.ObservableList;
import javafx.scene.control.Label;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;

import java.util.function.Function;

/** The drain dialog's two tables of pods: the preview's (what will happen, and why) and the run's (where each stands). */
final class PodTables {

    private PodTables() {
    }

    static TableView<PodLine> preview(ObservableList<PodLine> rows, boolean severalNodes) {
        TableView<PodLine> table = table("drainPreviewTable", rows, "Reading the pods…");
        if (severalNodes) {
            table.getColumns().add(text("Node", PodLine::node, 90));
        }
        TableColumn<PodLine, String> pod = text("Pod", PodLine::pod, 300);
        pod.setMinWidth(260);
        pod.setMaxWidth(340);
        table.getColumns().add(pod);
        // As wide as the longest outcome's badge: "Needs Ignore DaemonSets" is the one to act on, it must be whole.
        double widest = outcomeBadgeWidth();
        TableColumn<PodLine, String> outcome = badge("Outcome", r -> DrainSummary.outcomeLabel(r.outcome()),
                r -> DrainSummary.outcomeTone(r.outcome()), widest);
        outcome.setMaxWidth(widest + 20);
        table.getColumns().add(outcome);
        table.getColumns().add(wrapped("What will happen, and why", PodLine::reason, 480));
        table.setRowFactory(t -> new PreviewRow());
        return table;
    }

    /** The width of the widest outcome badge: its bold 11.5px text, the badge's and the cell's padding. */
    static double outcomeBadgeWidth() {
        javafx.scene.text.Font bold = javafx.scene.text.Font.font(javafx.scene.text.Font.getDefault().getFamily(),
                javafx.scene.text.FontWeight.BOLD, 11.5);
        double widest = 0;
        for (dev.drainboard.ops.PodOutcome o : dev.drainboard.ops.PodOutcome.values()) {
            javafx.scene.text.Text text = new javafx.scene.text.Text(DrainSummary.outcomeLabel(o));
            text.setFont(bold);
            widest = Math.max(widest, text.getLayoutBounds().getWidth());
        }
        return Math.ceil(widest) + 16 + 24;
    }

    static TableView<PodLine> progress(ObservableList<PodLine> rows, boolean severalNodes) {
        TableView<PodLine> table = table("drainProgressTable", rows, "No pods to evict.");
        if (severalNodes) {
            table.getColumns().add(text("Node", PodLine::node, 90));
        }
        TableColumn<PodLine, String> pod = text("Pod", PodLine::pod, 320);
        pod.setMinWidth(280);
        table.getColumns().add(pod);
        TableColumn<PodLine, String> state = badge("State", r -> r.outcome() == dev.drainboard.ops.PodOutcome.EXTERNAL_EVACUATION
                && r.state() == dev.drainboard.ops.PodState.WAITING_FOR_MIGRATION ? "Waiting for outside removal"
                : DrainSummary.stateLabel(r.state()), r -> DrainSummary.stateTone(r.state()), 180);
        state.setMaxWidth(200);
        table.getColumns().add(state);
        TableColumn<PodLine, String> attempts = text("Tries", r -> String.valueOf(r.attempts()), 60);
        attempts.setMaxWidth(70);
        attempts.getStyleClass().add(Tweaks.ALIGN_RIGHT);
        table.getColumns().add(attempts);
        table.getColumns().add(wrapped("Last answer, or why it waits", PodLine::lastAnswer, 470));
        return table;
    }

    private static TableView<PodLine> table(String id, ObservableList<PodLine> rows, String empty) {
        TableView<PodLine> table = new TableView<>(rows);
        table.setId(id);
        table.getStyleClass().addAll(Styles.STRIPED, Styles.DENSE, "drain-table");
        table.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        Label placeholder = new Label(empty);
        placeholder.getStyleClass().add(Styles.TEXT_MUTED);
        table.setPlaceholder(placeholder);
        return table;
    }

    private static TableColumn<PodLine, String> column(String title, Function<PodLine, String> value, double width) {
        TableColumn<PodLine, String> column = new TableColumn<>(title);
        column.setCellValueFactory(c -> new ReadOnlyObjectWrapper<>(value.apply(c.getValue())));
        column.setPrefWidth(width);
        column.setSortable(false);
        return column;
    }

    private static TableColumn<PodLine, String> text(String title, Function<PodLine, String> value, double width) {
        TableColumn<PodLine, String> column = column(title, value, width);
        column.setCellFactory(c -> new TipTextCell<>());
        column.setMinWidth(Math.min(width, 80));
        return column;
    }

    private static TableColumn<PodLine, String> wrapped(String title, Function<PodLine, String> value, double width) {
        TableColumn<PodLine, String> column = column(title, value, width);
        column.setCellFactory(c -> new WrappedTextCell<>(column));
        column.setMinWidth(160);
        return column;
    }

    private static TableColumn<PodLine, String> badge(String title, Function<PodLine, String> value,
                                                      Function<PodLine, Badge.Tone> tone, double width) {
        TableColumn<PodLine, String> column = column(title, value, width);
        column.setCellFactory(c -> new BadgeCell<>(tone));
        column.setMinWidth(width);
        return column;
    }
}
