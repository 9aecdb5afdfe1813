package dev.drainboard.ui.history;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.drainboard.history.DrainRecord;
import dev.drainboard.history.DrainRecordSpec;
import dev.drainboard.history.DrainRecordStatus;
import dev.drainboard.history.RecordKind;
import dev.drainboard.history.RecordResult;
import dev.drainboard.ui.model.HistoryRow;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;

class HistoryViewModelTest {

    static HistoryRow row(String name, RecordResult result, Double estimate, Double duration, String started) {
        DrainRecord r = new DrainRecord();
        ObjectMeta meta = new ObjectMeta();
        meta.setName(name);
        r.setMetadata(meta);
        r.setSpec(new DrainRecordSpec(RecordKind.Drain, List.of("node02"), "alice@ops1", estimate));
        r.setStatus(new DrainRecordStatus(result, null, started, null, duration,
                List.of(new DrainRecordStatus.PodEntry("demo", "virt-launcher-db", "node02", "db", "LIVE_MIGRATION", "GONE", 1, "")),
                List.of(new DrainRecordStatus.MigrationEntry("demo", "m1", "db", "node02", "node01", "Cancelled",
                        started, started, null, "cancelled by bob@ops2")), List.of(), null));
        return HistoryRow.of(r);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', nullValues = "null", value = {
            "on time         | Drained | 80   | 80   | 1 min 20 s expected, 1 min 20 s taken (+0 %)",
            "slower          | Drained | 80   | 92   | 1 min 20 s expected, 1 min 32 s taken (+15 %)",
            "faster          | Stranded| 100  | 50   | 1 min 40 s expected, 50 s taken (-50 %)",
            "refused         | Failed  | 100  | 2    | 1 min 40 s expected, 2 s taken",
            "cancelled       | Cancelled | 100 | 30  | 1 min 40 s expected, 30 s taken",
            "running         | Running | 80   | 30   | 1 min 20 s expected, 30 s so far",
            "no estimate     | Drained | null | 12   | 12 s taken, no estimate",
            "nothing known   | Running | null | null | —",
            "zero estimate   | Drained | 0    | 3    | 0 s expected, 3 s taken"})
    void estimateVsActual(String what, RecordResult result, Double estimate, Double duration, String text) {
        assertThat(HistoryViewModel.estimateVsActual(row("r", result, estimate, duration, "2026-11-28T10:00:00Z"))).isEqualTo(text);
    }

    @Test
    void refreshKeepsRowsInPlaceAndSaysWhyWhenItCannotRead() {
        List<CompletableFuture<List<HistoryRow>>> answers = new ArrayList<>();
        HistoryViewModel model = new HistoryViewModel(() -> {
            CompletableFuture<List<HistoryRow>> f = new CompletableFuture<>();
            answers.add(f);
            return f;
        });
        HistoryRow a = row("a", RecordResult.Running, 10.0, 1.0, "2026-11-28T10:00:00Z");
        HistoryRow b = row("b", RecordResult.Drained, 10.0, 9.0, "2026-11-28T09:00:00Z");
        model.refresh();
        assertThat(model.loading().get()).isTrue();
        model.refresh(); // skipped while one is under way
        assertThat(answers).hasSize(1);
        answers.getFirst().complete(List.of(a, b));
        assertThat(model.rows()).containsExactly(a, b);
        assertThat(model.loading().get()).isFalse();

        HistoryRow aEnded = row("a", RecordResult.Drained, 10.0, 11.0, "2026-11-28T10:00:00Z");
        HistoryRow c = row("c", RecordResult.Running, null, 0.5, "2026-11-28T11:00:00Z");
        HistoryRow before = model.rows().get(1);
        model.refresh();
        answers.get(1).complete(List.of(c, aEnded, b));
        assertThat(model.rows()).containsExactly(c, aEnded, b);
        assertThat(model.rows().get(2)).isSameAs(before).as("unchanged rows are not replaced");

        model.refresh();
        answers.get(2).completeExceptionally(new IllegalStateException("drain history is not kept on this cluster: no CRD"));
        assertThat(model.notice().get()).isEqualTo("drain history is not kept on this cluster: no CRD");
        assertThat(model.rows()).as("what was read stays").containsExactly(c, aEnded, b);

        model.refresh();
        answers.get(3).complete(List.of(b));
        assertThat(model.notice().get()).isEmpty();
        assertThat(model.rows()).containsExactly(b);
    }

    @Test
    void exportsOneAndAll(@TempDir Path dir) throws Exception {
        HistoryViewModel model = new HistoryViewModel(() -> CompletableFuture.completedFuture(List.of(
                row("a", RecordResult.Drained, 10.0, 11.0, "2026-11-28T10:00:00Z"),
                row("b", RecordResult.Cancelled, null, 2.0, "2026-11-28T09:00:00Z"))));
        model.refresh();
        HistoryRow a = model.rows().getFirst();
        assertThat(HistoryViewModel.export(a, HistoryViewModel.Format.MARKDOWN)).startsWith("# Drain of node02: Drained\n")
                .contains("| demo/m1 | db | node02 → node01 | Cancelled |");
        JsonNode one = new ObjectMapper().readTree(HistoryViewModel.export(a, HistoryViewModel.Format.JSON));
        assertThat(one.path("metadata").path("name").asText()).isEqualTo("a");

        JsonNode all = new ObjectMapper().readTree(model.exportAll(HistoryViewModel.Format.JSON));
        assertThat(all.path("kind").asText()).isEqualTo("List");
        assertThat(all.path("items")).extracting(i -> i.path("metadata").path("name").asText()).containsExactly("a", "b");
        assertThat(all.path("items").get(0)).isEqualTo(one);
        String md = model.exportAll(HistoryViewModel.Format.MARKDOWN);
        assertThat(md).startsWith("# Drain history\n\n## Drain of node02: Drained\n").contains("\n## Drain of node02: Cancelled\n");

        assertThat(HistoryViewModel.fileName(a, HistoryViewModel.Format.MARKDOWN)).isEqualTo("a.md");
        assertThat(HistoryViewModel.fileName(null, HistoryViewModel.Format.JSON)).isEqualTo("drain-history.json");
        Path file = dir.resolve("a.md");
        Files.writeString(file, "old");
        HistoryViewModel.write(file, md);
        assertThat(Files.readString(file)).isEqualTo(md);
        try (var left = Files.list(dir)) {
            assertThat(left).containsExactly(file);
        }
    }

    @Test
    void factsListMigrationsPodsAndWhatWasLeft() {
        var facts = HistoryViewModel.facts(row("a", RecordResult.Drained, 10.0, 11.0, "2026-11-28T10:00:00Z"));
        assertThat(facts).extracting(e -> e.getKey() + ": " + e.getValue()).contains(
                "Result: Drained", "Nodes: node02", "Started: 2026-11-28 10:00:00 UTC",
                "Duration: 10 s expected, 11 s taken (+10 %)", "Pods: 1 of 1 gone", "Migrations: 1 (1 cancelled)",
                "  db: Cancelled, node02 → node01: cancelled by bob@ops2", "  demo/virt-launcher-db: LIVE_MIGRATION → GONE",
                "Left behind: nothing");
    }
}
