package dev.drainboard.ui.nodes;

import dev.drainboard.ui.common.Badge;
import dev.drainboard.ui.common.Formats;
import dev.drainboard.ui.dialogs.ActionCenter;
import dev.drainboard.ui.lists.ListScreen;
import dev.drainboard.ui.model.ClusterModel;
import dev.drainboard.ui.model.NodeRow;
import javafx.scene.control.SelectionMode;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import static java.util.Map.entry;

/**
 * Every node with the facts a drain depends on, and the node actions: cordon (C), uncordon (U), drain (D; several
 * selected nodes drain as one operation) and taints (T), from the toolbar, the keys or the context menu.
 */
public final class NodesView extends ListScreen<NodeRow> {

    public NodesView(ClusterModel model, ActionCenter actions) {
        super(model, "nodesTable", model.nodes(), "nodes");
        var screen = screen();
        screen.textColumn("Name", NodeRow::name, 120);
        screen.badgeColumn("Status", NodeRow::status, s -> s.startsWith("Ready")
                ? (s.contains("SchedulingDisabled") ? Badge.Tone.WARNING : Badge.Tone.SUCCESS) : Badge.Tone.DANGER, 240);
        screen.textColumn("Roles", NodeRow::roles, 110);
        screen.textColumn("Zone", NodeRow::zone, 80);
        screen.textColumn("Taints", r -> String.join(", ", r.taints()), 160);
        screen.numberColumn("VMIs", r -> (long) r.vmis(), String::valueOf, 60);
        screen.numberColumn("Pods", r -> (long) r.pods(), String::valueOf, 60);
        screen.numberColumn("CPU req.", NodeRow::cpuRequestedMillis,
                m -> Formats.cores(m), 80);
        screen.numberColumn("Mem req.", NodeRow::memoryRequestedBytes, Formats::memory, 90);
        screen.badgeColumn("Reboot", r -> r.rebootSafety().label(), s -> switch (s) {
            case "Safe to reboot" -> Badge.Tone.SUCCESS;
            case "Cordoned, not empty" -> Badge.Tone.WARNING;
            default -> Badge.Tone.NEUTRAL;
        }, 150);
        screen.textColumn("Version", NodeRow::version, 80);
        screen.setRowStyle(r -> r.readiness() != NodeRow.Readiness.READY ? "row-danger" : null);
        screen.setFacts(NodesView::facts);
        screen.table().getSelectionModel().setSelectionMode(SelectionMode.MULTIPLE);
        offer(actions.nodeActions());
        offerInContextMenu(actions::nodeMenu); // Cordon or Uncordon by the nodes' state
    }

    static List<Map.Entry<String, String>> facts(NodeRow r) {
        return List.of(
                entry("Status", r.status()),
                entry("Reboot", r.rebootSafety().label()),
                entry("Roles", r.roles()),
                entry("Zone", r.zone()),
                entry("Taints", String.join("\n", r.taints())),
                entry("Memory pressure", r.memoryPressure() ? "yes" : "no"),
                entry("VMIs", String.valueOf(r.vmis())),
                entry("Pods", r.pods() + " (" + r.workloadPods() + " to move on drain)"),
                entry("CPU", Formats.cores(r.cpuRequestedMillis()) + " of " + Formats.cores(r.cpuAllocatableMillis()) + " cores requested"),
                entry("Memory", Formats.memory(r.memoryRequestedBytes()) + " of " + Formats.memory(r.memoryAllocatableBytes()) + " requested"),
                entry("Kubelet", r.version()),
                entry("Age", Formats.age(r.created(), Instant.now())));
    }
}
