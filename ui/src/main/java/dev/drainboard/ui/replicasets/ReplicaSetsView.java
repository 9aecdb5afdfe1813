package dev.drainboard.ui.replicasets;

import dev.drainboard.ui.common.Badge;
import dev.drainboard.ui.common.Formats;
import dev.drainboard.ui.dialogs.ActionCenter;
import dev.drainboard.ui.lists.ListScreen;
import dev.drainboard.ui.model.ClusterModel;
import dev.drainboard.ui.model.ReplicaSetRow;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import static java.util.Map.entry;

/**
 * VMI replica sets: desired, current and ready, and why scaling does not happen (paused, or the controller's
 * {@code ReplicaFailure} with the API server's refusal). Scale the selected set with S, the toolbar or the
 * context menu.
 */
public final class ReplicaSetsView extends ListScreen<ReplicaSetRow> {

    public ReplicaSetsView(ClusterModel model, ActionCenter actions) {
        super(model, "replicaSetsTable", model.replicaSets(), "replica sets");
        var screen = screen();
        screen.textColumn("Name", ReplicaSetRow::name, 180);
        screen.textColumn("Namespace", ReplicaSetRow::namespace, 100);
        screen.numberColumn("Desired", r -> (long) r.desired(), String::valueOf, 80);
        screen.numberColumn("Current", r -> (long) r.current(), String::valueOf, 80);
        screen.numberColumn("Ready", r -> (long) r.ready(), String::valueOf, 80);
        screen.badgeColumn("State", ReplicaSetsView::state, ReplicaSetsView::stateTone, 150);
        screen.textColumn("Conditions", ReplicaSetsView::conditions, 320);
        screen.setRowStyle(r -> r.failing() ? "row-danger" : r.paused() ? "row-warning" : null);
        screen.setFacts(ReplicaSetsView::facts);
        offer(actions.replicaSetActions());
        offerInContextMenu(actions.replicaSetActions());
    }

    /** One word for the set's state: a failure first (it explains a count that does not move), then paused. */
    static String state(ReplicaSetRow r) {
        if (r.failing()) {
            return r.failureReason();
        }
        if (r.paused()) {
            return "Paused";
        }
        if (r.current() != r.desired()) {
            return r.current() < r.desired() ? "Scaling up" : "Scaling down";
        }
        return r.ready() == r.desired() ? "Ready" : "Starting";
    }

    static Badge.Tone stateTone(String state) {
        return switch (state) {
            case "Ready" -> Badge.Tone.SUCCESS;
            case "Paused" -> Badge.Tone.WARNING;
            case "Scaling up", "Scaling down", "Starting" -> Badge.Tone.ACCENT;
            default -> Badge.Tone.DANGER; // a ReplicaFailure reason
        };
    }

    /**
     * The failure's reason and message (verbatim) when there is one; otherwise the true conditions. A VMIRS has two
     * condition types, ReplicaFailure and ReplicaPaused; the paused state has its own badge.
     */
    static String conditions(ReplicaSetRow r) {
        if (!r.failing()) {
            return Formats.orDash(r.conditions());
        }
        return r.failureReason() + ": " + r.failureMessage();
    }

    static List<Map.Entry<String, String>> facts(ReplicaSetRow r) {
        return List.of(
                entry("Replicas", r.desired() + " desired, " + r.current() + " current, " + r.ready() + " ready"),
                entry("State", state(r)),
                entry("Replica failure", r.failing() ? r.failureReason() + " — " + r.failureMessage() : "none"),
                entry("Paused", r.paused() ? "yes: VMIs are neither created nor deleted" : "no"),
                entry("Conditions", r.conditions()),
                entry("Age", Formats.age(r.created(), Instant.now())));
    }
}
