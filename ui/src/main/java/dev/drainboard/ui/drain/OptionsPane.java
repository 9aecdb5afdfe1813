package dev.drainboard.ui.drain;

import atlantafx.base.theme.Styles;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.StringProperty;
import javafx.geometry.Pos;
import javafx.scene.control.CheckBox;
import javafx.scene.control.Control;
import javafx.scene.control.Label;
import javafx.scene.control.Spinner;
import javafx.scene.control.SpinnerValueFactory;
import javafx.scene.control.TextField;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Region;

/** The drain's options as {@code kubectl drain} names them, each bound to {@link DrainDialogModel}'s. */
final class OptionsPane extends GridPane {

    OptionsPane(DrainDialogModel model) {
        CheckBox ignoreDaemonSets = check("drainIgnoreDaemonSets", "Ignore DaemonSets", model.ignoreDaemonSets(),
                "Leave DaemonSet-managed pods on the node (--ignore-daemonsets).");
        CheckBox deleteEmptyDir = check("drainDeleteEmptyDir", "Delete emptyDir data", model.deleteEmptyDirData(),
                "Evict pods with emptyDir volumes; their emptyDir data is lost (--delete-emptydir-data).");
        CheckBox force = check("drainForce", "Force", model.force(),
                "Evict pods that declare no controller; nothing recreates them (--force).");
        Spinner<Integer> grace = new Spinner<>();
        grace.setId("drainGrace");
        grace.setValueFactory(new SpinnerValueFactory.IntegerSpinnerValueFactory(-1, 86_400, -1));
        grace.getValueFactory().valueProperty().bindBidirectional(model.gracePeriod());
        grace.setEditable(true);
        grace.setPrefWidth(110);
        tip(grace, "Seconds each pod gets to terminate; -1: each pod's own (--grace-period).");
        TextField timeout = field("drainTimeout", "none", 110, model.timeout(),
                "Give up after this long, e.g. 90s, 5m or 1h30m; empty or 0: wait as long as it takes (--timeout).");
        model.timeoutProblem().addListener((obs, old, problem) -> timeout.pseudoClassStateChanged(Styles.STATE_DANGER, !problem.isEmpty()));
        TextField podSelector = field("drainPodSelector", "all pods", 220, model.podSelector(),
                "Only pods matching this label selector, e.g. app=web (--pod-selector).");
        Label timeoutError = new Label();
        timeoutError.setId("drainTimeoutError");
        timeoutError.getStyleClass().add("field-error");
        timeoutError.textProperty().bind(model.timeoutProblem());
        timeoutError.visibleProperty().bind(model.timeoutProblem().isNotEmpty());
        timeoutError.managedProperty().bind(timeoutError.visibleProperty());

        CheckBox allowStranded = check("drainAllowStranded", "Allow stranded VMs", model.allowStranded(),
                "Drain even though the preview's blockers say VMIs or pods will have nowhere to run, or wait on "
                        + "something outside KubeVirt (--allow-stranded); the end names them.");
        allowStranded.visibleProperty().bind(model.blocked());
        allowStranded.managedProperty().bind(allowStranded.visibleProperty());
        CheckBox externalHandled = check("drainExternalHandled", "External evacuation is handled", model.externalHandled(),
                "Something outside KubeVirt moves the VMIs with eviction strategy External, so they are not blockers; "
                        + "the drain marks them and waits until they are gone (--external-handled).");
        HBox checks = new HBox(22, ignoreDaemonSets, deleteEmptyDir, force, externalHandled, allowStranded);
        checks.setAlignment(Pos.CENTER_LEFT);
        HBox fields = new HBox(10, fieldLabel("Grace period (s)"), grace, gap(), fieldLabel("Timeout"), timeout,
                gap(), fieldLabel("Pod selector"), podSelector, timeoutError);
        fields.setAlignment(Pos.CENTER_LEFT);
        add(checks, 0, 0);
        add(fields, 0, 1);
        setVgap(12);
        getStyleClass().add("drain-options");
    }

    private static CheckBox check(String id, String text, BooleanProperty value, String tip) {
        CheckBox box = new CheckBox(text);
        box.setId(id);
        box.selectedProperty().bindBidirectional(value);
        tip(box, tip);
        return box;
    }

    private static TextField field(String id, String prompt, double width, StringProperty value, String tip) {
        TextField field = new TextField();
        field.setId(id);
        field.setPromptText(prompt);
        field.setPrefWidth(width);
        field.textProperty().bindBidirectional(value);
        tip(field, tip);
        return field;
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

    private static void tip(Control control, String text) {
        control.setTooltip(Tips.wrapped(text));
    }
}
