package dev.drainboard.history;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class HistoryDocumentsTest {

    static DrainRecord record(String name, RecordKind kind, RecordResult result, String started, Double duration,
                              Double estimate, List<DrainRecordStatus.PodEntry> pods,
                              List<DrainRecordStatus.MigrationEntry> migrations, List<DrainRecordStatus.StrandedEntry> stranded) {
        DrainRecord r = new DrainRecord();
        ObjectMeta meta = new ObjectMeta();
        meta.setName(name);
        r.setMetadata(meta);
        r.setSpec(new DrainRecordSpec(kind, List.of("node03"), "alice@ops1", estimate));
        r.setStatus(new DrainRecordStatus(result, result == RecordResult.Running ? null : "node/node03: done", started,
                result == RecordResult.Running ? null : "2026-11-28T10:01:32Z", duration, pods, migrations, stranded, null));
        return r;
    }

    static final DrainRecordStatus.PodEntry CACHE = new DrainRecordStatus.PodEntry("demo", "virt-launcher-cache-x", "node03",
            "cache", "LIVE_MIGRATION", "GONE", 2, "Evacuation in progress | migrating");
    static final DrainRecordStatus.MigrationEntry MOVED = new DrainRecordStatus.MigrationEntry("demo", "kubevirt-evacuation-ab",
            "cache", "node03", "node01", "Succeeded", "2026-11-28T10:00:05Z", "2026-11-28T10:01:30Z", 2L * 1024 * 1024 * 1024, null);
    static final DrainRecordStatus.MigrationEntry CANCELLED = new DrainRecordStatus.MigrationEntry("demo", "kubevirt-migrate-vm-q",
            "ledger", "node03", "node02", "Cancelled", "2026-11-28T10:00:05Z", "2026-11-28T10:00:40Z", null, "cancelled by bob@ops2");
    static final DrainRecordStatus.StrandedEntry WORKER = new DrainRecordStatus.StrandedEntry("VirtualMachineInstance", "demo",
            "workersx8zc4", "its replacement has nowhere to run: 0/4 nodes are available:\n3 node(s) didn't match");

    @Test
    void markdownIsAChangeRecord() {
        String md = HistoryDocuments.markdown(record("drain-node03-abc", RecordKind.Drain, RecordResult.Stranded,
                "2026-11-28T10:00:00Z", 92.0, 80.4, List.of(CACHE), List.of(MOVED, CANCELLED), List.of(WORKER)));
        assertThat(md).isEqualTo("""
                # Drain of node03: Stranded

                | | |
                |---|---|
                | Record | drain-node03-abc |
                | Kind | Drain |
                | Nodes | node03 |
                | Started by | alice@ops1 |
                | Started | 2026-11-28 10:00:00 UTC |
                | Ended | 2026-11-28 10:01:32 UTC |
                | Duration | 1 min 32 s |
                | Estimate | 1 min 21 s |
                | Result | Stranded |

                > node/node03: done

                ## Pods

                | Pod | Node | VMI | Expected | End state | Attempts | Last answer |
                |---|---|---|---|---|---|---|
                | demo/virt-launcher-cache-x | node03 | cache | LIVE_MIGRATION | GONE | 2 | Evacuation in progress \\| migrating |

                ## Migrations

                | Migration | VMI | Source → target | Phase | Started | Ended | Data | Reason |
                |---|---|---|---|---|---|---|---|
                | demo/kubevirt-evacuation-ab | cache | node03 → node01 | Succeeded | 2026-11-28 10:00:05 UTC | 2026-11-28 10:01:30 UTC | 2.0 GiB |  |
                | demo/kubevirt-migrate-vm-q | ledger | node03 → node02 | Cancelled | 2026-11-28 10:00:05 UTC | 2026-11-28 10:00:40 UTC |  | cancelled by bob@ops2 |

                ## Left behind

                - VirtualMachineInstance demo/workersx8zc4: its replacement has nowhere to run: 0/4 nodes are available: 3 node(s) didn't match
                """);
    }

    @Test
    void markdownOfARunningDrainWithNothingYet() {
        String md = HistoryDocuments.markdown(record("drain-node03-r", RecordKind.Drain, RecordResult.Running,
                "2026-11-28T10:00:00Z", 3.2, null, List.of(), List.of(), List.of()));
        assertThat(md).startsWith("# Drain of node03: Running\n")
                .contains("| Ended | (running) |", "| Estimate | none |", "| Duration | 4 s |")
                .contains("## Pods\n\nNone.\n", "## Migrations\n\nNone.\n", "Nothing was left with nowhere to run.")
                .doesNotContain("> ");
    }

    @Test
    void severalRecordsNestTheirHeadings() {
        String md = HistoryDocuments.markdown(List.of(
                record("a", RecordKind.Evacuation, RecordResult.Drained, "2026-11-28T10:00:00Z", 1.0, null, List.of(), List.of(), List.of()),
                record("b", RecordKind.MigrationCancel, RecordResult.Cancelled, "2026-11-28T09:00:00Z", 1.0, null, List.of(), List.of(CANCELLED), List.of())));
        assertThat(md).startsWith("# Drain history\n\n## Evacuation of node03: Drained\n")
                .contains("\n## Cancelled migration of demo/ledger from node03\n", "\n### Pods\n")
                .doesNotContain("\n# Evacuation");
        assertThat(HistoryDocuments.markdown(List.of())).isEqualTo("# Drain history\n\nNo drains recorded.\n");
    }

    @Test
    void jsonIsTheApiObjectAndAListIsKubectls() throws Exception {
        DrainRecord r = record("drain-node03-abc", RecordKind.Drain, RecordResult.Drained, "2026-11-28T10:00:00Z",
                92.0, 80.0, List.of(CACHE), List.of(MOVED), List.of());
        JsonNode one = new ObjectMapper().readTree(HistoryDocuments.json(r));
        assertThat(one.path("apiVersion").asText()).isEqualTo("drainboard.dev/v1alpha1");
        assertThat(one.path("kind").asText()).isEqualTo("DrainRecord");
        assertThat(one.path("spec").path("estimateSeconds").asDouble()).isEqualTo(80.0);
        assertThat(one.path("status").path("result").asText()).isEqualTo("Drained");
        assertThat(one.path("status").path("migrations").get(0).path("bytes").asLong()).isEqualTo(2L << 30);
        assertThat(one.path("status").path("migrations").get(0).has("reason")).as("empty fields are left out").isFalse();
        assertThat(one.path("status").has("omitted")).isFalse();

        JsonNode list = new ObjectMapper().readTree(HistoryDocuments.json(List.of(r, r)));
        assertThat(list.path("kind").asText()).isEqualTo("List");
        assertThat(list.path("apiVersion").asText()).isEqualTo("v1");
        assertThat(list.path("items")).hasSize(2);
        assertThat(list.path("items").get(1)).isEqualTo(one);
    }

    @Test
    void tableAlignsColumns() {
        String table = HistoryDocuments.table(List.of(
                record("drain-node03-abc", RecordKind.Drain, RecordResult.TimedOut, "2026-11-28T10:00:00Z", 3600.0, 75.0, List.of(), List.of(), List.of()),
                record("e", RecordKind.Evacuation, RecordResult.Running, "2026-11-28T11:00:00Z", null, null, List.of(), List.of(), List.of())));
        assertThat(table).isEqualTo("""
                NAME               KIND         NODES    RESULT     STARTED                   DURATION   ESTIMATE     BY
                drain-node03-abc   Drain        node03   TimedOut   2026-11-28 10:00:00 UTC   1 h        1 min 15 s   alice@ops1
                e                  Evacuation   node03   Running    2026-11-28 11:00:00 UTC              -            alice@ops1
                """);
    }

    @ParameterizedTest
    @CsvSource({"0, 0 s", "0.2, 1 s", "59, 59 s", "60, 1 min", "61, 1 min 1 s", "3599, 59 min 59 s", "3600, 1 h", "3720, 1 h 2 min"})
    void durations(double seconds, String text) {
        assertThat(HistoryDocuments.duration(seconds)).isEqualTo(text);
    }

    @ParameterizedTest
    @CsvSource({"512, 512 B", "1024, 1.0 KiB", "1572864, 1.5 MiB", "2147483648, 2.0 GiB"})
    void bytes(long n, String text) {
        assertThat(HistoryDocuments.bytes(n)).isEqualTo(text);
    }

    @Test
    void newestFirst() {
        DrainRecord old = record("a", RecordKind.Drain, RecordResult.Drained, "2026-11-28T09:00:00Z", 1.0, null, List.of(), List.of(), List.of());
        DrainRecord young = record("b", RecordKind.Drain, RecordResult.Drained, "2026-11-28T10:00:00Z", 1.0, null, List.of(), List.of(), List.of());
        assertThat(List.of(old, young).stream().sorted(HistoryStore.NEWEST_FIRST).map(DrainRecord::name)).containsExactly("b", "a");
    }

    @Test
    void longMessagesAreCut() {
        assertThat(HistoryLimits.cut("x".repeat(600))).hasSize(HistoryLimits.MESSAGE_CHARS).endsWith("…");
        assertThat(HistoryLimits.cut("short")).isEqualTo("short");
    }
}
