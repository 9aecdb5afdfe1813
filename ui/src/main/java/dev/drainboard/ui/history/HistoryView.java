package dev.drainboard.ui.history;

import atlantafx.base.theme.Styles;
import dev.drainboard.ui.common.Badge;
import dev.drainboard.ui.common.Icons;
import dev.drainboard.ui.lists.ListScreen;
import dev.drainboard.ui.model.HistoryRow;
import dev.drainboard.ui.model.ObjectRef;
import dev.drainboard.ui.model.Relations;
import javafx.animation.Animation;
import javafx.animation.KeyFrame;
import javafx.animation.Timeline;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.MenuButton;
import javafx.scene.control.MenuItem;
import javafx.scene.control.SeparatorMenuItem;
import javafx.scene.control.TableColumn;
import javafx.stage.FileChooser;
import javafx.util.Duration;
import org.kordamp.ikonli.material2.Material2AL;
import org.kordamp.ikonli.material2.Material2MZ;

import java.io.File;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * The drain history: every drain, evacuation and cancelled migration the cluster recorded, newest first (kind,
 * nodes, result, start, duration against the estimate); the details pane lists each record's pods, migrations and
 * what was left behind, its text pane the Markdown export. Export the selected record, or all, as JSON or Markdown.
 * Read again every few seconds while on screen, so a drain another console runs shows up.
 */
public final class HistoryView extends ListScreen<HistoryRow> {

    static final Duration REFRESH = Duration.seconds(3);

    private final HistoryViewModel model;
    private final Timeline ticker;
    private final Label notice = new Label();

    /**
     * @param onExported told where an export went, or why it failed (a toast)
     */
    public HistoryView(HistoryViewModel model, Relations relations, Consumer<String> onExported) {
        super("historyTable", model.rows(), "drain records",
                ref -> CompletableFuture.completedFuture(markdownOf(model, ref)), relations);
        this.model = model;
        var screen = screen();
        TableColumn<HistoryRow, Long> started = screen.numberColumn("Started", r -> r.started().toEpochMilli(),
                ms -> dev.drainboard.history.HistoryDocuments.when(java.time.Instant.ofEpochMilli(ms).toString()), 195);
        started.setSortType(TableColumn.SortType.DESCENDING);
        screen.badgeColumn("Kind", HistoryRow::kind, k -> Badge.Tone.NEUTRAL, 150);
        screen.textColumn("Nodes", r -> String.join(", ", r.nodes()), 120);
        screen.badgeColumn("Result", HistoryRow::result, HistoryView::resultTone, 100);
        screen.textColumn("Duration vs estimate", HistoryViewModel::estimateVsActual, 260);
        screen.textColumn("Migrations", r -> migrations(r), 150);
        screen.textColumn("Started by", HistoryRow::startedBy, 160);
        screen.textColumn("Message", HistoryRow::message, 320);
        screen.table().getSortOrder().add(started);
        screen.setRowStyle(r -> "Failed".equals(r.result()) || "TimedOut".equals(r.result()) ? "row-danger"
                : r.troubled() || "Cancelled".equals(r.result()) ? "row-warning" : null);
        screen.setFacts(HistoryViewModel::facts);
        screen.details().setTextKind("MARKDOWN", "Select a record to see it as Markdown");

        Button refresh = new Button("Refresh", Icons.icon(Material2MZ.REFRESH, 16));
        refresh.setId("historyRefresh");
        refresh.getStyleClass().add(Styles.SMALL);
        refresh.setOnAction(e -> model.refresh());
        MenuItem selectedJson = new MenuItem("Selected record as JSON…");
        selectedJson.setId("historyExportJson");
        MenuItem selectedMarkdown = new MenuItem("Selected record as Markdown…");
        selectedMarkdown.setId("historyExportMarkdown");
        MenuItem allJson = new MenuItem("All records as JSON…");
        allJson.setId("historyExportAllJson");
        MenuItem allMarkdown = new MenuItem("All records as Markdown…");
        allMarkdown.setId("historyExportAllMarkdown");
        MenuButton export = new MenuButton("Export", Icons.icon(Material2MZ.SAVE_ALT, 16),
                selectedJson, selectedMarkdown, new SeparatorMenuItem(), allJson, allMarkdown);
        export.setId("historyExport");
        export.getStyleClass().add(Styles.SMALL);
        selectedJson.disableProperty().bind(screen.selectedRow().isNull());
        selectedMarkdown.disableProperty().bind(screen.selectedRow().isNull());
        selectedJson.setOnAction(e -> save(screen.selectedRow().get(), HistoryViewModel.Format.JSON, onExported));
        selectedMarkdown.setOnAction(e -> save(screen.selectedRow().get(), HistoryViewModel.Format.MARKDOWN, onExported));
        allJson.setOnAction(e -> save(null, HistoryViewModel.Format.JSON, onExported));
        allMarkdown.setOnAction(e -> save(null, HistoryViewModel.Format.MARKDOWN, onExported));
        notice.setId("historyNotice");
        notice.getStyleClass().add(Styles.WARNING);
        notice.textProperty().bind(model.notice());
        notice.visibleProperty().bind(model.notice().isNotEmpty());
        notice.managedProperty().bind(notice.visibleProperty());
        notice.setWrapText(true);
        screen.actions().getChildren().addAll(refresh, export);
        screen.toolbar().getChildren().add(notice);

        ticker = new Timeline(new KeyFrame(REFRESH, e -> model.refresh()));
        ticker.setCycleCount(Animation.INDEFINITE);
        // Read only while on screen: a hidden view costs nothing.
        root().sceneProperty().addListener((o, old, scene) -> {
            if (scene != null) {
                model.refresh();
                ticker.play();
            } else {
                ticker.stop();
            }
        });
    }

    private static String markdownOf(HistoryViewModel model, ObjectRef ref) {
        return model.rows().stream().filter(r -> r.name().equals(ref.name())).findFirst()
                .map(HistoryRow::markdown).orElse("# " + ref.name() + " is no longer recorded.");
    }

    private static String migrations(HistoryRow r) {
        long cancelled = r.migrations().stream().filter(m -> m.cancelled()).count();
        long failed = r.migrations().stream().filter(m -> m.failed()).count();
        String extra = (cancelled > 0 ? cancelled + " cancelled" : "") + (cancelled > 0 && failed > 0 ? ", " : "")
                + (failed > 0 ? failed + " failed" : "");
        return r.migrations().size() + (extra.isEmpty() ? "" : " (" + extra + ")");
    }

    static Badge.Tone resultTone(String result) {
        return switch (result) {
            case "Drained" -> Badge.Tone.SUCCESS;
            case "Failed", "TimedOut" -> Badge.Tone.DANGER;
            case "Stranded", "Cancelled" -> Badge.Tone.WARNING;
            case "Running" -> Badge.Tone.ACCENT;
            default -> Badge.Tone.NEUTRAL;
        };
    }

    private void save(HistoryRow row, HistoryViewModel.Format format, Consumer<String> onExported) {
        FileChooser chooser = new FileChooser();
        chooser.setTitle(row == null ? "Export the drain history" : "Export " + row.name());
        chooser.setInitialFileName(HistoryViewModel.fileName(row, format));
        chooser.getExtensionFilters().add(new FileChooser.ExtensionFilter(
                format == HistoryViewModel.Format.JSON ? "JSON" : "Markdown", "*." + format.extension()));
        File file = chooser.showSaveDialog(root().getScene() == null ? null : root().getScene().getWindow());
        if (file == null) {
            return;
        }
        try {
            HistoryViewModel.write(file.toPath(), row == null ? model.exportAll(format) : HistoryViewModel.export(row, format));
            onExported.accept("Exported to " + file);
        } catch (IOException e) {
            onExported.accept("Export to " + file + " failed: " + e.getMessage());
        }
    }

    /** The view model, for tests. */
    HistoryViewModel model() {
        return model;
    }

    /** The notice label, for tests. */
    Label notice() {
        return notice;
    }

    static List<String> columns() {
        return List.of("Started", "Kind", "Nodes", "Result", "Duration vs estimate", "Migrations", "Started by", "Message");
    }
}
