package dev.drainboard.ui.actions;

import dev.drainboard.ops.MigrationTargets;

import java.util.List;
import java.util.Optional;

/**
 * The Migrate-to-node dialog's state: the nodes with whether the VMI's migration target fits there (as
 * {@link dev.drainboard.ops.PlacementDecision} says, through {@link MigrationTargets}), the node chosen, and whether
 * OK may be pressed. The first node that fits is chosen to begin with.
 *
 * @param fits     every node, in order
 * @param selected the chosen node's name, empty when none
 */
public record MigrateToNodeForm(List<MigrationTargets.Fit> fits, String selected) {

    public MigrateToNodeForm {
        fits = List.copyOf(fits);
        selected = selected == null ? "" : selected;
    }

    /** The nodes as read, with the first that fits chosen. */
    public static MigrateToNodeForm of(List<MigrationTargets.Fit> fits) {
        return new MigrateToNodeForm(fits, fits.stream().filter(MigrationTargets.Fit::fits).map(MigrationTargets.Fit::node)
                .findFirst().orElse(""));
    }

    public MigrateToNodeForm select(String node) {
        return new MigrateToNodeForm(fits, node);
    }

    public Optional<MigrationTargets.Fit> chosen() {
        return fits.stream().filter(f -> f.node().equals(selected)).findFirst();
    }

    /** OK is enabled only for a chosen node the target fits on. */
    public boolean canMigrate() {
        return chosen().map(MigrationTargets.Fit::fits).orElse(false);
    }

    /** One line under the list: what OK will do, or why it cannot. */
    public String verdict() {
        if (fits.isEmpty()) {
            return "The cluster has no nodes.";
        }
        if (fits.stream().noneMatch(MigrationTargets.Fit::fits)) {
            return "The VMI fits on no other node now.";
        }
        return chosen().map(f -> f.fits() ? "A migration to " + f.node() + " is created (addedNodeSelector kubernetes.io/hostname="
                        + f.node() + ")." : "Cannot migrate to " + f.node() + ": " + f.why())
                .orElse("Choose a node.");
    }
}
