package dev.drainboard.app;

import dev.drainboard.ops.DrainPreview;
import dev.drainboard.ops.DrainProgress;
import dev.drainboard.ops.DrainWaits;
import dev.drainboard.ops.PodOutcome;
import dev.drainboard.ops.PodPreview;
import dev.drainboard.ops.PodProgress;
import dev.drainboard.ops.PodState;
import dev.drainboard.ops.WhyPendingDecision;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

@DisplayName("drain's live display: why a migration waits, the time left, and what an External VMI waits for")
class DrainDisplayTest {

    private static final PodPreview MIGRATES = new PodPreview("demo", "virt-launcher-db-x", "u1", PodOutcome.LIVE_MIGRATION,
            "migrates", "db", null, null);
    private static final PodPreview EXTERNAL = new PodPreview("demo", "virt-launcher-app-y", "u2", PodOutcome.EXTERNAL_EVACUATION,
            "external", "app", null, null);

    static PodProgress waiting(PodPreview preview) {
        return new PodProgress("demo", preview.name(), preview.uid(), PodState.WAITING_FOR_MIGRATION, 2, 429,
                "Cannot evict pod as it would violate the pod's disruption budget.", preview, Instant.now());
    }

    static DrainProgress progress() {
        return new DrainProgress("node03", DrainProgress.Phase.EVICTING, new DrainPreview("node03", List.of(MIGRATES, EXTERNAL), List.of()),
                List.of(waiting(MIGRATES), waiting(EXTERNAL)), Instant.now(), Optional.empty());
    }

    static final DrainWaits WAITS = new DrainWaits(Map.of("demo/db", new WhyPendingDecision.Why(WhyPendingDecision.Kind.NODE_LIMIT,
            "2 of 2 outbound migrations of node03 in use", null)), 160);

    @Test
    @DisplayName("a waiting launcher says why its migration waits; an External one what it waits for, never WAITING_FOR_MIGRATION")
    void lines() {
        assertThat(DrainDisplay.line(waiting(MIGRATES), WAITS)).contains("WAITING_FOR_MIGRATION")
                .endsWith("migration waits: 2 of 2 outbound migrations of node03 in use");
        assertThat(DrainDisplay.line(waiting(MIGRATES), DrainWaits.NONE))
                .endsWith("Cannot evict pod as it would violate the pod's disruption budget.");
        assertThat(DrainDisplay.line(waiting(EXTERNAL), WAITS)).doesNotContain("WAITING_FOR_MIGRATION")
                .contains("WAITING_FOR_EXTERNAL")
                .endsWith("waiting for something outside KubeVirt to remove VMI app (strategy External)");
        assertThat(waiting(EXTERNAL).stateText()).isEqualTo("waiting for something outside KubeVirt to remove VMI app (strategy External)");
    }

    @Test
    @DisplayName("the header carries the time left; appended output prints it on a line of its own")
    void timeLeft() {
        assertThat(DrainDisplay.header(progress(), WAITS)).endsWith(", live migrations ~2 min 40 s left");
        assertThat(DrainDisplay.header(progress(), DrainWaits.NONE)).doesNotContain("left");
        StringWriter out = new StringWriter();
        DrainDisplay display = new DrainDisplay(new PrintWriter(out), false, 200);
        display.waits(WAITS);
        display.show(progress());
        display.show(progress());
        assertThat(out.toString()).containsOnlyOnce("node/node03: live migrations ~2 min 40 s left")
                .containsOnlyOnce("migration waits: 2 of 2 outbound migrations of node03 in use");
    }
}
