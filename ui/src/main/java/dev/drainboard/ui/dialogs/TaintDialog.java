package dev.drainboard.ui.dialogs;

import atlantafx.base.theme.Styles;
import dev.drainboard.ui.actions.AccessDecision;
import dev.drainboard.ui.actions.ActionResult;
import dev.drainboard.ui.actions.TaintForm;
import dev.drainboard.ui.common.DialogCard;
import dev.drainboard.ui.common.Icons;
import javafx.beans.value.ObservableValue;
import javafx.collections.FXCollections;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.CheckBox;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.ListView;
import javafx.scene.control.Separator;
import javafx.scene.control.TextField;
import javafx.scene.layout.ColumnConstraints;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;
import org.kordamp.ikonli.material2.Material2AL;
import org.kordamp.ikonli.material2.Material2MZ;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.function.Function;

import static dev.drainboard.ui.dialogs.DialogWrite.show;

/**
 * Add a taint (key, value, effect validated as the API server validates them, the error under the field and Add
 * disabled while anything is wrong), add KubeVirt's drain taint in one click, or remove an existing one.
 * The API's refusals (a taint already there, a 403) are shown in place; nothing is written from invalid input.
 */
final class TaintDialog extends DialogCard {

    private final TextField key = new TextField();
    private final TextField value = new TextField();
    private final ComboBox<String> effect = new ComboBox<>(FXCollections.observableArrayList(TaintForm.EFFECTS));
    private final CheckBox overwrite = new CheckBox("Replace a taint with the same key and effect");
    private final Label keyError = error("taintKeyError");
    private final Label valueError = error("taintValueError");
    private final Label serverError = error("taintServerError");
    private final ListView<String> existing;
    private final Button add;
    private final Button drainShortcut;
    private final Button remove = new Button("Remove", Icons.icon(Material2AL.DELETE_OUTLINE, 16));
    private final ObservableValue<AccessDecision> access;
    private final DialogWrite writes;

    /**
     * @param apply  writes taint specs ({@code key=value:Effect}, {@code key:Effect-}) with the overwrite flag
     * @param done   the dialog's work is done (a change was written): close and report it
     */
    TaintDialog(String node, List<String> taints, ObservableValue<AccessDecision> access,
                java.util.function.BiFunction<List<String>, Boolean, CompletableFuture<ActionResult>> apply,
                Consumer<ActionResult> done, Runnable close) {
        super("taintDialog", Material2AL.LABEL, Kind.ACCENT, "Taints of " + node,
                "Taints keep pods that do not tolerate them off the node. Validated as the API server validates them.");
        this.access = access;
        setPrefWidth(600);

        key.setId("taintKey");
        key.setPromptText("example.com/maintenance");
        value.setId("taintValue");
        value.setPromptText("optional");
        effect.setId("taintEffect");
        effect.setValue(TaintForm.EFFECTS.getFirst());
        effect.setMaxWidth(Double.MAX_VALUE);
        overwrite.setId("taintOverwrite");

        GridPane form = new GridPane();
        form.setHgap(12);
        form.setVgap(4);
        ColumnConstraints labels = new ColumnConstraints();
        labels.setMinWidth(60);
        ColumnConstraints fields = new ColumnConstraints();
        fields.setHgrow(Priority.ALWAYS);
        form.getColumnConstraints().addAll(labels, fields);
        form.addRow(0, fieldLabel("Key"), key);
        form.add(keyError, 1, 1);
        form.addRow(2, fieldLabel("Value"), value);
        form.add(valueError, 1, 3);
        form.addRow(4, fieldLabel("Effect"), effect);
        form.add(overwrite, 1, 5);
        GridPane.setMargin(overwrite, new javafx.geometry.Insets(8, 0, 0, 0));

        drainShortcut = new Button("Add kubevirt.io/drain:NoSchedule", Icons.icon(Material2MZ.OFFLINE_BOLT, 16));
        drainShortcut.setId("taintDrainShortcut");
        drainShortcut.getStyleClass().add(Styles.FLAT);
        drainShortcut.setMinWidth(Region.USE_PREF_SIZE);
        Label shortcutHint = new Label("KubeVirt's evacuation controller then migrates the node's VMIs away.");
        shortcutHint.getStyleClass().addAll(Styles.TEXT_MUTED, Styles.TEXT_SMALL);
        shortcutHint.setWrapText(true);
        HBox shortcut = new HBox(10, drainShortcut, shortcutHint);
        shortcut.setAlignment(Pos.CENTER_LEFT);
        HBox.setHgrow(shortcutHint, Priority.ALWAYS);

        existing = new ListView<>(FXCollections.observableArrayList(taints));
        existing.setId("taintExisting");
        existing.setPrefHeight(Math.min(5, Math.max(1, taints.size())) * 32 + 6);
        existing.getStyleClass().add("taint-list");
        Label none = new Label("This node has no taints.");
        none.getStyleClass().add(Styles.TEXT_MUTED);
        existing.setPlaceholder(none);
        remove.setId("taintRemove");
        remove.setDisable(true);
        Region spacer = new Region();
        HBox.setHgrow(spacer, Priority.ALWAYS);
        Label removeHint = new Label("Pick a taint to remove it.");
        removeHint.getStyleClass().addAll(Styles.TEXT_MUTED, Styles.TEXT_SMALL);
        HBox removeRow = new HBox(10, removeHint, spacer, remove);
        removeRow.setAlignment(Pos.CENTER_LEFT);

        serverError.getStyleClass().add("dialog-error");
        body().getChildren().addAll(section("Add a taint"), form, shortcut, new Separator(),
                section("Current taints"), existing, removeRow, serverError);

        Button cancel = new Button("Close");
        cancel.setId("taintCancel");
        cancel.setOnAction(e -> close.run());
        add = DialogCard.primary("Add taint", Kind.ACCENT);
        add.setId("taintApply");
        setButtons(cancel, add);
        setFirstFocus(key);

        writes = new DialogWrite(serverError, this::refresh, done);
        Consumer<List<String>> write = specs -> writes.start(() -> apply.apply(specs, overwrite.isSelected()));
        add.setOnAction(e -> {
            TaintForm f = form();
            if (f.valid()) {
                write.accept(List.of(f.spec()));
            }
        });
        drainShortcut.setOnAction(e -> write.accept(List.of(TaintForm.kubevirtDrain().spec())));
        remove.setOnAction(e -> {
            String picked = existing.getSelectionModel().getSelectedItem();
            if (picked != null) {
                write.accept(List.of(TaintForm.removal(picked)));
            }
        });
        key.textProperty().addListener((o, a, b) -> refresh());
        value.textProperty().addListener((o, a, b) -> refresh());
        effect.valueProperty().addListener((o, a, b) -> refresh());
        existing.getSelectionModel().selectedItemProperty().addListener((o, a, b) -> refresh());
        access.addListener((o, a, b) -> refresh());
        if (taints.stream().anyMatch(t -> t.startsWith(TaintForm.kubevirtDrain().key() + ":" + TaintForm.kubevirtDrain().effect()))) {
            drainShortcut.setText("kubevirt.io/drain:NoSchedule is set");
            drainShortcut.setUserData("present");
        }
        refresh();
    }

    TaintForm form() {
        return new TaintForm(key.getText(), value.getText(), effect.getValue());
    }

    /** Errors under the fields, as the API server words them; Add only when all is well and allowed. */
    private void refresh() {
        TaintForm f = form();
        boolean keyTyped = !f.key().isEmpty();
        List<String> keyErrors = keyTyped ? f.keyErrors() : List.of();
        keyError.setText(String.join("; ", keyErrors));
        show(keyError, !keyErrors.isEmpty());
        key.pseudoClassStateChanged(Styles.STATE_DANGER, !keyErrors.isEmpty());
        List<String> valueErrors = f.valueErrors();
        valueError.setText(String.join("; ", valueErrors));
        show(valueError, !valueErrors.isEmpty());
        value.pseudoClassStateChanged(Styles.STATE_DANGER, !valueErrors.isEmpty());
        AccessDecision decision = access.getValue();
        boolean allowed = decision != null && decision.permits();
        add.setDisable(writes.busy() || !f.valid() || !allowed);
        drainShortcut.setDisable(writes.busy() || !allowed || "present".equals(drainShortcut.getUserData()));
        remove.setDisable(writes.busy() || !allowed || existing.getSelectionModel().getSelectedItem() == null);
        if (!allowed && decision != null && decision.state() == AccessDecision.State.DENIED) {
            serverError.setText(decision.reason());
            show(serverError, true);
        }
    }

    private static Label error(String id) {
        Label l = new Label();
        l.setId(id);
        l.getStyleClass().add("field-error");
        l.setWrapText(true);
        l.setMaxWidth(480);
        show(l, false);
        return l;
    }

    private static Label fieldLabel(String text) {
        Label l = new Label(text);
        l.getStyleClass().add("field-label");
        return l;
    }

    private static Label section(String text) {
        Label l = new Label(text);
        l.getStyleClass().add("section-label");
        return l;
    }


    ListView<String> existing() {
        return existing;
    }
}
