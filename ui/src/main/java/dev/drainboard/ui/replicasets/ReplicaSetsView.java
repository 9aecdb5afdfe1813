package dev.drainboard.ui.replicasets;

import atlantafx.base.theme.Styles;
import dev.drainboard.ui.common.Badge;
import dev.drainboard.ui.common.Formats;
import dev.drainboard.ui.common.TableScreen;
import dev.drainboard.ui.dialogs.ActionCenter;
import dev.drainboard.ui.model.ClusterModel;
import dev.drainboard.ui.model.ObjectRef;
import dev.drainboard.ui.model.ReplicaSetRow;
import dev.drainboard.ui.shell.ConsoleView;
import javafx.geometry.Insets;
import javafx.scene.Node;
import javafx.scene.control.Label;
import javafx.scene.layout.BorderPane;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import static java.util.Map.entry;

/** VMI replica sets. Scaling arrives in its toolbar with the replica-set controller and ops. */
public final class ReplicaSetsView implements ConsoleView {

    private final TableScreen<ReplicaSetRow> screen;
    private final BorderPane root = new BorderPane();

    public ReplicaSetsView(ClusterModel model, ActionCenter actions) {
        screen = new TableScreen<>("replicaSetsTable", model.replicaSets(), "replica sets", model::yaml);
        screen.setRelations(model.relations());
        screen.textColumn("Name", ReplicaSetRow::name, 180);
        screen.textColumn("Namespace", ReplicaSetRow::namespace, 100);
        screen.numberColumn("Desired", r -> (long) r.desired(), String::valueOf, 80);
        screen.numberColumn("Current", r -> (long) r.current(), String::valueOf, 80);
        screen.numberColumn("Ready", r -> (long) r.ready(), String::valueOf, 80);
        screen.badgeColumn("State", r -> r.paused() ? "Paused" : r.ready() == r.desired() ? "Ready" : "Scaling",
                s -> switch (s) {
                    case "Ready" -> Badge.Tone.SUCCESS;
                    case "Paused" -> Badge.Tone.WARNING;
                    default -> Badge.Tone.ACCENT;
                }, 90);
        screen.textColumn("Conditions", r -> Formats.orDash(r.conditions()), 250);
        screen.setFacts(r -> List.<Map.Entry<String, String>>of(
                entry("Replicas", r.desired() + " desired, " + r.current() + " current, " + r.ready() + " ready"),
                entry("Paused", r.paused() ? "yes" : "no"), entry("Conditions", r.conditions()),
                entry("Age", Formats.age(r.created(), Instant.now()))));
        Label note = new Label("The replica-set controller and scaling are on their way; "
                + "until then replica sets are listed as the API has them.");
        note.getStyleClass().addAll("arrives-note", Styles.TEXT_MUTED);
        note.setWrapText(true);
        BorderPane.setMargin(note, new Insets(12, 0, 0, 0));
        // The Scale slot: disabled until ActionCenter.setScaleHandler wires scaling (ops and dialog to come).
        screen.actions().getChildren().add(actions.scaleSlot(screen.table().getSelectionModel().getSelectedItems()));
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
