package dev.drainboard.ui.pdbs;

import dev.drainboard.ui.common.Badge;
import dev.drainboard.ui.common.Formats;
import dev.drainboard.ui.lists.ListScreen;
import dev.drainboard.ui.model.ClusterModel;
import dev.drainboard.ui.model.PdbRow;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import static java.util.Map.entry;

/** Pod disruption budgets: what they select, what they allow now, who owns them. */
public final class PdbsView extends ListScreen<PdbRow> {

    public PdbsView(ClusterModel model) {
        super(model, "pdbsTable", model.pdbs(), "PDBs");
        var screen = screen();
        screen.textColumn("Name", PdbRow::name, 180);
        screen.textColumn("Namespace", PdbRow::namespace, 100);
        screen.textColumn("Selector", PdbRow::selector, 200);
        screen.textColumn("Min available", r -> Formats.orDash(r.minAvailable()), 115);
        screen.textColumn("Max unavailable", r -> Formats.orDash(r.maxUnavailable()), 130);
        screen.badgeColumn("Allowed disruptions", r -> String.valueOf(r.disruptionsAllowed()),
                s -> "0".equals(s) ? Badge.Tone.DANGER : Badge.Tone.SUCCESS, 155);
        screen.textColumn("Healthy", r -> r.currentHealthy() + " / " + r.desiredHealthy(), 80);
        screen.badgeColumn("Migration", r -> r.expandedForMigration() ? "expanded" : "", s -> Badge.Tone.ACCENT, 90);
        screen.textColumn("Owner", r -> Formats.orDash(r.owner()), 150);
        screen.setRowStyle(r -> r.blocking() ? "row-danger" : null);
        screen.setFacts(r -> List.<Map.Entry<String, String>>of(
                entry("Selector", r.selector()),
                entry("Min available", r.minAvailable()),
                entry("Max unavailable", r.maxUnavailable()),
                entry("Allowed now", r.disruptionsAllowed() + (r.blocking() ? " — evictions of its pods are refused" : "")),
                entry("Healthy", r.currentHealthy() + " of " + r.desiredHealthy() + " desired, " + r.expectedPods() + " expected"),
                entry("Expanded", r.expandedForMigration() ? "yes, for a migration's target pod" : "no"),
                entry("Owner", r.owner()),
                entry("Age", Formats.age(r.created(), Instant.now()))));
    }
}
