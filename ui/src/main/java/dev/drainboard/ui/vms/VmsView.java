package dev.drainboard.ui.vms;

import dev.drainboard.ui.common.Badge;
import dev.drainboard.ui.common.Formats;
import dev.drainboard.ui.dialogs.ActionCenter;
import dev.drainboard.ui.lists.ListScreen;
import dev.drainboard.ui.model.ClusterModel;
import dev.drainboard.ui.model.VmRow;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import static java.util.Map.entry;

/**
 * Every VirtualMachine: its run strategy, KubeVirt's printable status, whether it is ready, the node its VMI runs on,
 * and state changes still queued for the VM controller. Start (S), Stop (T) and Restart (R) go through virt-api's
 * subresources, which decide what the run strategy allows; Stop and Restart are confirmed first.
 */
public final class VmsView extends ListScreen<VmRow> {

    public VmsView(ClusterModel model, ActionCenter actions) {
        super(model, "vmsTable", model.vms(), "VMs");
        var screen = screen();
        screen.textColumn("Name", VmRow::name, 160);
        screen.textColumn("Namespace", VmRow::namespace, 110);
        screen.textColumn("Run strategy", r -> Formats.orDash(r.runStrategy()), 130);
        screen.badgeColumn("Status", r -> r.printableStatus().isEmpty() ? "Unknown" : r.printableStatus(), VmsView::statusTone, 150);
        screen.textColumn("Ready", r -> r.ready() ? "True" : "False", 70);
        screen.textColumn("Node", r -> Formats.orDash(r.node()), 100);
        screen.textColumn("Queued", r -> Formats.orDash(r.pending()), 120);
        screen.textColumn("Age", r -> Formats.age(r.created(), Instant.now()), 80);
        screen.setRowStyle(r -> switch (r.printableStatus()) {
            case "CrashLoopBackOff", "ErrorUnschedulable", "Unschedulable", "ErrImagePull", "ImagePullBackOff", "ErrorPvcNotFound",
                 "DataVolumeError" -> "row-danger";
            default -> null;
        });
        screen.setFacts(VmsView::facts);
        offer(actions.vmActions());
        offerInContextMenu(actions.vmActions());
    }

    static Badge.Tone statusTone(String status) {
        return switch (status) {
            case "Running" -> Badge.Tone.SUCCESS;
            case "Starting", "Stopping", "Migrating", "Provisioning", "WaitingForVolumeBinding" -> Badge.Tone.ACCENT;
            case "Stopped", "Paused", "Terminating" -> Badge.Tone.NEUTRAL;
            case "Unknown" -> Badge.Tone.WARNING;
            default -> Badge.Tone.DANGER;
        };
    }

    static List<Map.Entry<String, String>> facts(VmRow r) {
        return List.of(
                entry("Run strategy", r.runStrategy()),
                entry("Status", r.printableStatus() + (r.ready() ? " — ready" : "")),
                entry("Node", r.node().isEmpty() ? "no VMI" : r.node()),
                entry("Queued", r.pending().isEmpty() ? "nothing" : r.pending() + " (for the VM controller)"),
                entry("Age", Formats.age(r.created(), Instant.now())));
    }
}
