package dev.drainboard.ui.vmis;

import dev.drainboard.ui.common.Badge;
import dev.drainboard.ui.common.Formats;
import dev.drainboard.ui.dialogs.ActionCenter;
import dev.drainboard.ui.lists.ListScreen;
import dev.drainboard.ui.model.ClusterModel;
import dev.drainboard.ui.model.VmiRow;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;

import static java.util.Map.entry;

/**
 * Every VMI and how a drain would treat it: strategy (and where it came from), migratability, PDB, and whether a
 * node-pressure eviction is moving it (a countdown to the kubelet's kill) or lost it. Actions on the selected VMI: evict its launcher pod (E), migrate (M), cancel its evacuation (X).
 */
public final class VmisView extends ListScreen<VmiRow> {

    public VmisView(ClusterModel model, ActionCenter actions) {
        super(model, "vmisTable", model.vmis(), "VMIs");
        var screen = screen();
        screen.textColumn("Name", VmiRow::name, 120);
        screen.textColumn("Namespace", VmiRow::namespace, 105);
        screen.badgeColumn("Phase", r -> r.phase().isEmpty() ? "Pending" : r.phase(), VmisView::phaseTone, 115); // "Scheduling" whole
        screen.textColumn("Node", r -> Formats.orDash(r.node()), 80);
        screen.textColumn("Eviction strategy", r -> r.evictionStrategy()
                + ("VMI".equals(r.strategySource()) ? "" : " (cluster default)"), 200);
        screen.badgeColumn("Live-migratable", VmiRow::liveMigratable, s -> switch (s) {
            case "True" -> Badge.Tone.SUCCESS;
            case "False" -> Badge.Tone.DANGER;
            default -> Badge.Tone.NEUTRAL;
        }, 130);
        // The eviction's mark, and a node-pressure eviction's countdown to the kubelet's kill or its loss.
        new EvacuationColumn(Clock.systemDefaultZone()).addTo(screen, 175);
        screen.textColumn("PDB", r -> Formats.orDash(r.pdbs()), 230);
        screen.textColumn("Migration", r -> Formats.orDash(r.migration()), 90);
        // Nowhere to run (its launcher unschedulable) is red until it runs again.
        screen.setRowStyle(r -> r.isLostToNodePressure() || !r.waiting().isEmpty() ? "row-danger"
                : r.markedForEvacuation() ? "row-warning" : null);
        screen.setFacts(VmisView::facts);
        offer(actions.vmiActions());
        offerInContextMenu(actions.vmiActions());
    }

    static Badge.Tone phaseTone(String phase) {
        return switch (phase) {
            case "Running", "Succeeded" -> Badge.Tone.SUCCESS;
            case "Failed" -> Badge.Tone.DANGER;
            case "Scheduling", "Scheduled" -> Badge.Tone.ACCENT;
            default -> Badge.Tone.NEUTRAL;
        };
    }

    static List<Map.Entry<String, String>> facts(VmiRow r) {
        return List.of(
                entry("Phase", (r.phase().isEmpty() ? "Pending (no status yet)" : r.phase())
                        + (r.waiting().isEmpty() ? "" : " — waiting: " + r.waiting())),
                entry("Node", r.node()),
                entry("Eviction", r.evictionStrategy() + " — " + ("VMI".equals(r.strategySource())
                        ? "set on the VMI" : "cluster default from the KubeVirt CR")),
                entry("Live-migratable", r.liveMigratable() + (r.migratableReason().isEmpty() ? "" : " — " + r.migratableReason())),
                entry("Evacuation", r.markedForEvacuation() ? "marked: leave node " + r.evacuationNode() : "not marked"),
                entry("Node pressure", NodePressure.of(r, Instant.now(), ZoneId.systemDefault()).fact()),
                entry("PDB", r.pdbs()),
                entry("Migration", r.migration()),
                entry("Age", Formats.age(r.created(), Instant.now())));
    }
}
