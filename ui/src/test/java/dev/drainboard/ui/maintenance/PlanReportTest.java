package dev.drainboard.ui.maintenance;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.drainboard.ui.model.MaintenancePlanRow.NodeLane;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static dev.drainboard.ui.maintenance.Plans.T0;
import static org.assertj.core.api.Assertions.assertThat;

class PlanReportTest {

    private static final dev.drainboard.ui.model.MaintenancePlanRow FINISHED = Plans.plan("maintenance-x1", "Succeeded", "Run",
            T0, T0.plusSeconds(132), 1, List.of(
                    new NodeLane("node01", 1, "Done", 0, 60, T0, T0.plusSeconds(50), T0.plusSeconds(66), 2, 2, true, ""),
                    new NodeLane("node02", 2, "Done", 60, 60, T0.plusSeconds(66), T0.plusSeconds(120), T0.plusSeconds(132), 1, 1, true, "")));

    @Test
    void markdownSaysPredictedAgainstActualPerNode() {
        String md = PlanReport.markdown(FINISHED);
        assertThat(md).startsWith("# Maintenance plan maintenance-x1\n")
                .contains("- Phase: Succeeded")
                .contains("- Time: 2 min predicted, 2 min 12 s taken (+10 %)")
                .contains("- Migrations: 1 made of 3 predicted")
                .contains("| 1 | node01 | Done | 0 | 1 min | 1 min 6 s | 2/2 |  |")
                .contains("| 2 | node02 | Done | 1 min | 1 min | 1 min 6 s | 1/1 |  |")
                .contains("demo/pinned: on node02: no other node matches its node selector");
    }

    @Test
    void aPreviewSaysWhoMovesTwiceAndWhy() {
        String md = PlanReport.markdown(Plans.preview());
        assertThat(md).startsWith("# Maintenance plan (preview)")
                .contains("- Time: 2 min predicted\n")
                .contains("- Migrations: 3 predicted")
                .contains("- demo/b: node01 → node02 → node03 (2 moves) — node02 was the only node with room");
    }

    @Test
    void jsonHasTheSameFacts(@TempDir Path dir) throws Exception {
        Path file = dir.resolve(PlanReport.fileName(FINISHED, PlanReport.Format.JSON));
        PlanReport.write(file, PlanReport.render(FINISHED, PlanReport.Format.JSON));
        assertThat(file.getFileName().toString()).isEqualTo("maintenance-x1.json");
        var json = new ObjectMapper().readTree(Files.readString(file));
        assertThat(json.get("name").asText()).isEqualTo("maintenance-x1");
        assertThat(json.get("phase").asText()).isEqualTo("Succeeded");
        assertThat(json.get("startedAt").asText()).isEqualTo("2026-11-28T10:00:00Z");
        assertThat(json.get("nodes").get(1).get("migrationsMade").asInt()).isEqualTo(1);
        assertThat(json.get("stranded").get(0).get("vm").asText()).isEqualTo("demo/pinned");
        assertThat(dir.toFile().list()).containsExactly("maintenance-x1.json"); // no temporary file left
    }
}
