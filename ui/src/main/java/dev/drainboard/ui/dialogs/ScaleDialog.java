package dev.drainboard.ui.dialogs;

import atlantafx.base.theme.Styles;
import dev.drainboard.ui.actions.AccessDecision;
import dev.drainboard.ui.actions.ActionResult;
import dev.drainboard.ui.actions.ScaleForm;
import dev.drainboard.ui.common.DialogCard;
import dev.drainboard.ui.model.ReplicaSetRow;
import javafx.beans.value.ObservableValue;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.Spinner;
import javafx.scene.control.SpinnerValueFactory;
import javafx.scene.layout.HBox;
import javafx.scene.layout.VBox;
import javafx.util.StringConverter;
import org.kordamp.ikonli.material2.Material2MZ;

import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.function.IntFunction;

import static dev.drainboard.ui.dialogs.DialogWrite.show;

/**
 * Scale a VMI replica set: a spinner prefilled with the desired count. What is typed is checked as it is typed
 * ({@link ScaleForm}): a negative, fractional or empty count is refused under the field with Scale disabled, and
 * the line below says what the controller will do. The API's refusal is shown in place; nothing is written from
 * invalid input.
 */
final class ScaleDialog extends DialogCard {

    private final Spinner<Integer> spinner;
    private final Label error = new Label();
    private final Label effect = new Label();
    private final Label serverError = new Label();
    private final Button scale;
    private final int current;
    private final ObservableValue<AccessDecision> access;
    private final DialogWrite writes;

    /**
     * @param apply writes the count through the scale subresource
     * @param done  the count was written (or was already so): close and report it
     */
    ScaleDialog(ReplicaSetRow row, ObservableValue<AccessDecision> access, IntFunction<CompletableFuture<ActionResult>> apply,
                Consumer<ActionResult> done, Runnable close) {
        super("scaleDialog", Material2MZ.UNFOLD_MORE, Kind.ACCENT, "Scale " + row.name(),
                "VMI replica set in " + row.namespace() + " · " + row.desired() + " desired, " + row.current()
                        + " current, " + row.ready() + " ready");
        this.current = row.desired();
        this.access = access;
        setPrefWidth(520);

        spinner = new Spinner<>();
        SpinnerValueFactory.IntegerSpinnerValueFactory values =
                new SpinnerValueFactory.IntegerSpinnerValueFactory(0, Integer.MAX_VALUE, current);
        // The spinner commits what is typed when it loses focus: text that is not a valid count leaves the value
        // (and the text, with its error) as they are instead of throwing or silently clamping.
        values.setConverter(new StringConverter<>() {
            @Override
            public String toString(Integer value) {
                return value == null ? "" : value.toString();
            }

            @Override
            public Integer fromString(String text) {
                ScaleForm form = new ScaleForm(text, current);
                return form.valid() ? form.replicas() : values.getValue();
            }
        });
        spinner.setValueFactory(values);
        spinner.setEditable(true);
        spinner.setId("scaleReplicas");
        spinner.setPrefWidth(140);
        spinner.getStyleClass().add(Spinner.STYLE_CLASS_SPLIT_ARROWS_HORIZONTAL);
        spinner.getEditor().setId("scaleReplicasField");

        Label label = new Label("Replicas");
        label.getStyleClass().add("field-label");
        HBox field = new HBox(12, label, spinner);
        field.setAlignment(Pos.CENTER_LEFT);
        error.setId("scaleError");
        error.getStyleClass().add("field-error");
        error.setWrapText(true);
        effect.setId("scaleEffect");
        effect.getStyleClass().addAll(Styles.TEXT_MUTED, Styles.TEXT_SMALL);
        effect.setWrapText(true);
        VBox form = new VBox(6, field, error, effect);
        body().getChildren().add(form);
        if (row.paused()) {
            body().getChildren().add(note("scalePaused", "The set is paused: the count is recorded, but no VMI is created "
                    + "or deleted until it is resumed."));
        }
        if (row.failing()) {
            body().getChildren().add(note("scaleFailure", "Last attempt failed (" + row.failureReason() + "): "
                    + row.failureMessage()));
        }
        serverError.setId("scaleServerError");
        serverError.getStyleClass().add("dialog-error");
        serverError.setWrapText(true);
        show(serverError, false);
        writes = new DialogWrite(serverError, this::refresh, done);
        body().getChildren().add(serverError);

        Button cancel = new Button("Cancel");
        cancel.setId("scaleCancel");
        cancel.setOnAction(e -> close.run());
        scale = DialogCard.primary("Scale", Kind.ACCENT);
        scale.setId("scaleOk");
        setButtons(cancel, scale);
        setFirstFocus(spinner.getEditor());

        scale.setOnAction(e -> {
            ScaleForm f = form();
            if (f.valid() && f.replicas() != current) {
                writes.start(() -> apply.apply(f.replicas()));
            }
        });
        spinner.getEditor().textProperty().addListener((o, a, b) -> refresh());
        access.addListener((o, a, b) -> refresh());
        refresh();
    }

    /** What the field holds now (the editor's text, not the spinner's last committed value). */
    ScaleForm form() {
        return new ScaleForm(spinner.getEditor().getText(), current);
    }

    private void refresh() {
        ScaleForm f = form();
        String problem = f.error().orElse("");
        error.setText(problem);
        show(error, !problem.isEmpty());
        spinner.pseudoClassStateChanged(Styles.STATE_DANGER, !problem.isEmpty());
        spinner.getEditor().pseudoClassStateChanged(Styles.STATE_DANGER, !problem.isEmpty());
        effect.setText(f.effect());
        show(effect, f.valid());
        AccessDecision decision = access.getValue();
        boolean allowed = decision != null && decision.permits();
        scale.setDisable(writes.busy() || !f.valid() || f.replicas() == current || !allowed);
        if (!allowed && decision != null && decision.state() == AccessDecision.State.DENIED) {
            serverError.setText(decision.reason());
            show(serverError, true);
        }
    }

    private static VBox note(String id, String text) {
        Label l = new Label(text);
        l.setWrapText(true);
        l.setId(id);
        l.getStyleClass().addAll("dialog-detail", Styles.TEXT_SMALL);
        VBox box = new VBox(l);
        box.getStyleClass().add("dialog-detail-box");
        return box;
    }

}
