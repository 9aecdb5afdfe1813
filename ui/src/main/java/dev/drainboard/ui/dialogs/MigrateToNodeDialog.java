package dev.drainboard.ui.dialogs;

import atlantafx.base.theme.Styles;
import dev.drainboard.ops.MigrationTargets;
import dev.drainboard.ui.actions.ActionResult;
import dev.drainboard.ui.actions.MigrateToNodeForm;
import dev.drainboard.ui.common.Badge;
import dev.drainboard.ui.common.DialogCard;
import dev.drainboard.ui.model.VmiRow;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.control.ListView;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;
import org.kordamp.ikonli.material2.Material2AL;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.function.Function;

import static dev.drainboard.ui.dialogs.DialogWrite.show;

/**
 * Migrate a VMI to a chosen node: each node with "fits" or "does not fit" and the scheduler's reason, from
 * {@link MigrationTargets} (PlacementDecision); Migrate is enabled only for a node that fits ({@link MigrateToNodeForm}).
 * The API's refusal (e.g. a KubeVirt release before 1.6) is shown in place.
 */
final class MigrateToNodeDialog extends DialogCard {

    private final ListView<MigrationTargets.Fit> list = new ListView<>();
    private final Label verdict = new Label("Reading the nodes…");
    private final Label serverError = new Label();
    private final Button migrate;
    private MigrateToNodeForm form = MigrateToNodeForm.of(List.of());
    private boolean loaded;
    private final DialogWrite writes;

    MigrateToNodeDialog(VmiRow vmi, CompletableFuture<List<MigrationTargets.Fit>> targets,
                        Function<String, CompletableFuture<ActionResult>> apply, Consumer<ActionResult> done, Runnable close) {
        super("migrateToNodeDialog", Material2AL.CALL_SPLIT, Kind.ACCENT, "Migrate " + vmi.name() + " to a node",
                "VMI in " + vmi.namespace() + " · now on " + (vmi.node().isEmpty() ? "no node" : vmi.node()));
        setPrefWidth(620);
        list.setId("migrateTargets");
        list.setPrefHeight(260);
        list.setCellFactory(v -> new FitCell());
        verdict.setId("migrateVerdict");
        verdict.setWrapText(true);
        verdict.getStyleClass().addAll(Styles.TEXT_SMALL);
        serverError.setId("migrateServerError");
        serverError.getStyleClass().add("dialog-error");
        serverError.setWrapText(true);
        show(serverError, false);
        writes = new DialogWrite(serverError, this::refresh, done);
        body().getChildren().addAll(list, verdict, serverError);

        Button cancel = new Button("Cancel");
        cancel.setId("migrateCancel");
        cancel.setOnAction(e -> close.run());
        migrate = DialogCard.primary("Migrate", Kind.ACCENT);
        migrate.setId("migrateOk");
        setButtons(cancel, migrate);
        setFirstFocus(list);

        list.getSelectionModel().selectedItemProperty().addListener((o, a, b) -> {
            form = form.select(b == null ? "" : b.node());
            refresh();
        });
        migrate.setOnAction(e -> {
            if (form.canMigrate()) {
                writes.start(() -> apply.apply(form.selected()));
            }
        });
        targets.whenComplete((fits, error) -> {
            loaded = true;
            if (error != null) {
                Throwable cause = error.getCause() == null ? error : error.getCause();
                serverError.setText("Cannot read the nodes: " + cause.getMessage());
                show(serverError, true);
                verdict.setText("");
            } else {
                form = MigrateToNodeForm.of(fits);
                list.getItems().setAll(fits);
                form.chosen().ifPresent(f -> list.getSelectionModel().select(f));
            }
            refresh();
        });
        refresh();
    }

    /** The dialog's state, for tests. */
    MigrateToNodeForm form() {
        return form;
    }

    private void refresh() {
        if (loaded && !form.fits().isEmpty()) {
            verdict.setText(form.verdict());
            verdict.pseudoClassStateChanged(Styles.STATE_DANGER, !form.canMigrate());
        }
        migrate.setDisable(writes.busy() || !form.canMigrate());
    }


    /** A node: its name, a fits / does-not-fit badge, and the reason under it. */
    private static final class FitCell extends ListCell<MigrationTargets.Fit> {
        @Override
        protected void updateItem(MigrationTargets.Fit fit, boolean empty) {
            super.updateItem(fit, empty);
            if (empty || fit == null) {
                setGraphic(null);
                setText(null);
                return;
            }
            Label name = new Label(fit.node());
            name.getStyleClass().add(Styles.TEXT_BOLD);
            Region spacer = new Region();
            HBox.setHgrow(spacer, Priority.ALWAYS);
            Label badge = Badge.of(fit.fits() ? "fits" : "does not fit", fit.fits() ? Badge.Tone.SUCCESS : Badge.Tone.DANGER);
            HBox top = new HBox(8, name, spacer, badge);
            top.setAlignment(Pos.CENTER_LEFT);
            VBox box = new VBox(2, top);
            if (!fit.why().isEmpty()) {
                Label why = new Label(fit.why());
                why.setWrapText(true);
                why.setMaxWidth(540);
                why.setMinHeight(Region.USE_PREF_SIZE); // the whole reason, on as many lines as it takes
                why.setTooltip(new javafx.scene.control.Tooltip(fit.why()));
                why.getStyleClass().addAll(Styles.TEXT_MUTED, Styles.TEXT_SMALL);
                box.getChildren().add(why);
            }
            box.setMaxWidth(560);
            setText(null);
            setGraphic(box);
        }
    }
}
