package dev.drainboard.ui.migrations;

import dev.drainboard.ui.common.Badge;
import dev.drainboard.ui.common.Formats;
import dev.drainboard.ui.common.TableScreen;
import dev.drainboard.ui.dialogs.ActionCenter;
import dev.drainboard.ui.model.ClusterModel;
import dev.drainboard.ui.model.MigrationRow;
import dev.drainboard.ui.model.ObjectRef;
import dev.drainboard.ui.shell.ConsoleView;
import atlantafx.base.theme.Styles;
import javafx.geometry.Insets;
import javafx.scene.Node;
import javafx.scene.control.Label;
import javafx.scene.layout.BorderPane;

import java.util.List;
import java.util.Map;

import static java.util.Map.entry;

/**
 * Live migrations (VMIMs) as their objects say. Progress bars (from the drainboard.dev/migration-progress
 * annotation) and the per-node timeline are still to come.
 */
public final class MigrationsView implements ConsoleView {

    private final TableScreen<MigrationRow> screen;
    private final BorderPane root = new BorderPane();

    public MigrationsView(ClusterModel model, ActionCenter actions) {
        screen = new TableScreen<>("migrationsTable", model.migrations(), "migrations", model::yaml);
        screen.textColumn("Name", MigrationRow::name, 200);
        screen.textColumn("Namespace", MigrationRow::namespace, 105);
        screen.textColumn("VMI", MigrationRow::vmi, 120);
        screen.badgeColumn("Phase", MigrationRow::phase, s -> switch (s) {
            case "Succeeded" -> Badge.Tone.SUCCESS;
            case "Failed" -> Badge.Tone.DANGER;
            case "Running", "Scheduling", "Scheduled", "PreparingTarget", "TargetReady" -> Badge.Tone.ACCENT;
            default -> Badge.Tone.NEUTRAL;
        }, 110);
        screen.textColumn("Source → target", r -> Formats.orDash(r.sourceNode()) + " → " + Formats.orDash(r.targetNode()), 150);
        screen.textColumn("Cause", MigrationRow::cause, 150);
        screen.textColumn("Started", r -> Formats.orDash(r.started()), 150);
        screen.setFacts(r -> List.<Map.Entry<String, String>>of(
                entry("VMI", r.vmi()), entry("Phase", r.phase()), entry("Source", r.sourceNode()),
                entry("Target", r.targetNode()), entry("Cause", r.cause()), entry("Started", r.started()),
                entry("Ended", r.ended())));
        Label note = new Label("Progress bars (data processed vs remaining, rate, iteration) and a per-node timeline "
                + "are on their way; until then a running migration's progress is in its YAML, annotation "
                + "drainboard.dev/migration-progress.");
        note.getStyleClass().addAll("arrives-note", Styles.TEXT_MUTED);
        note.setWrapText(true);
        BorderPane.setMargin(note, new Insets(12, 0, 0, 0));
        // Cancel migration (X) on the selected row.
        var selection = screen.table().getSelectionModel().getSelectedItems();
        screen.actions().getChildren().add(actions.migrationActions().toolbar(selection));
        actions.migrationActions().installKeys(screen.table(), selection);
        root.setCenter(screen.root());
        root.setBottom(note);
    }

    @Override
    public Node root() {
        return root;
    }

    @Override
    public boolean reveal(ObjectRef ref) {
        return screen.reveal(ref);
    }

    @Override
    public void focusFilter() {
        screen.filterField().requestFocus();
    }
}
