package dev.drainboard.ui.actions;

import dev.drainboard.ops.MigrationTargets.Fit;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The Migrate-to-node dialog's state: OK only for a chosen node the target fits on, and one line saying why. */
class MigrateToNodeFormTest {

    private static final List<Fit> FITS = List.of(
            new Fit("node01", false, "the VMI runs on this node"),
            new Fit("node02", true, ""),
            new Fit("node03", false, "0/3 nodes are available: 1 node(s) were unschedubable"));

    @Test
    void theFirstNodeThatFitsIsChosenAndOkIsEnabled() {
        MigrateToNodeForm form = MigrateToNodeForm.of(FITS);
        assertThat(form.selected()).isEqualTo("node02");
        assertThat(form.canMigrate()).isTrue();
        assertThat(form.verdict()).isEqualTo("A migration to node02 is created (addedNodeSelector kubernetes.io/hostname=node02).");
    }

    @Test
    void aNodeThatDoesNotFitDisablesOkAndSaysWhy() {
        MigrateToNodeForm form = MigrateToNodeForm.of(FITS).select("node03");
        assertThat(form.canMigrate()).isFalse();
        assertThat(form.verdict()).isEqualTo("Cannot migrate to node03: 0/3 nodes are available: 1 node(s) were unschedubable");
        assertThat(MigrateToNodeForm.of(FITS).select("node01").canMigrate()).isFalse();
        assertThat(MigrateToNodeForm.of(FITS).select("").verdict()).isEqualTo("Choose a node.");
    }

    @Test
    void noNodeFits() {
        MigrateToNodeForm form = MigrateToNodeForm.of(List.of(FITS.getFirst(), FITS.getLast()));
        assertThat(form.selected()).isEmpty();
        assertThat(form.canMigrate()).isFalse();
        assertThat(form.verdict()).isEqualTo("The VMI fits on no other node now.");
        assertThat(MigrateToNodeForm.of(List.of()).verdict()).isEqualTo("The cluster has no nodes.");
    }
}
