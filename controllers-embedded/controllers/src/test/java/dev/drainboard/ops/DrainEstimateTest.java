package dev.drainboard.ops;

import dev.drainboard.controller.migration.MigrationSlots;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class DrainEstimateTest {

    private static final long GIB = 1L << 30;
    private static final long MIB = 1L << 20;

    /**
     * Transfers as {@code node:GiB:GiB-per-second} separated by spaces, in the order they start; limits per cluster and
     * per source node; when node01's last migration ends and when the last of all ends.
     */
    @ParameterizedTest(name = "[{index}] {0} / {1},{2} -> node01 {3}, total {4}")
    @CsvSource(delimiter = '|', textBlock = """
            ''                                       | 5 | 2 | 0   | 0
            node01:4:1                               | 5 | 2 | 4   | 4
            node01:4:2                               | 5 | 2 | 2   | 2
            node01:2:1 node01:2:1                    | 5 | 2 | 2   | 2
            node01:2:1 node01:2:1 node01:2:1         | 5 | 2 | 4   | 4
            node01:1:1 node01:3:1 node01:1:1         | 5 | 2 | 3   | 3
            node01:2:1 node01:2:1 node01:2:1 node01:2:1 node01:2:1 | 5 | 2 | 6 | 6
            node01:2:1 node02:2:1 node03:2:1         | 5 | 2 | 2   | 2
            node01:2:1 node01:2:1 node02:2:1 node02:2:1 node03:2:1 node03:2:1 | 5 | 2 | 2 | 4
            node01:2:1 node01:2:1 node02:2:1 node02:2:1 node03:2:1 node03:2:1 | 5 | 1 | 4 | 4
            node01:1:0                               | 5 | 2 | 0   | 0
            """)
    void estimate(String transfers, int perCluster, int perNode, double node01, double total) {
        List<DrainEstimate.Transfer> list = new ArrayList<>();
        for (String t : transfers.isBlank() ? new String[0] : transfers.split(" ")) {
            String[] f = t.split(":");
            list.add(new DrainEstimate.Transfer(f[0], Long.parseLong(f[1]) * GIB, Long.parseLong(f[2]) * GIB));
        }
        DrainEstimate.Estimate e = DrainEstimate.of(list, new MigrationSlots.Limits(perCluster, perNode));
        assertThat(e.forNode("node01")).isCloseTo(node01, within(1e-9));
        assertThat(e.total()).isCloseTo(total, within(1e-9));
    }
    /**
     * Row 4: the first pass (2 s) leaves 512 MiB dirty, 1 s to send, more than 900 ms: a second pass (1 s) leaves
     * 256 MiB, 0.5 s, which fits. Row 5: passes of 2, 0.75, 0.28125 and 0.10546875 s; the rest then takes 39.6 ms.
     */
    @ParameterizedTest(name = "{0} MiB at {1} MiB/s dirtying {2} MiB/s, downtime {3} ms: {4} s")
    @CsvSource(delimiter = '|', textBlock = """
            1024 |  512 |   0 | 900 | 2.0
             128 |  512 |   0 | 900 | 0.25
            1024 |  512 | 128 | 900 | 2.0
            1024 |  512 | 256 | 900 | 3.0
            2048 | 1024 | 384 |  90 | 3.13671875
               0 |  512 |   0 | 900 | 0.0
            """)
    void preCopyPassesUntilTheRestFitsTheDowntime(long memoryMib, long linkMib, long dirtyMib, long downtimeMs, double seconds) {
        assertThat(DrainEstimate.preCopySeconds(memoryMib * MIB, linkMib * MIB, dirtyMib * MIB, Duration.ofMillis(downtimeMs)))
                .isCloseTo(seconds, within(1e-9));
    }

    @ParameterizedTest(name = "{0} MiB/s dirtied over a {1} MiB/s link never converges")
    @CsvSource({"512, 512", "640, 512", "1, 0"})
    void aGuestDirtyingAsFastAsTheLinkSendsNeverEnds(long dirtyMib, long linkMib) {
        assertThat(DrainEstimate.preCopySeconds(1024 * MIB, linkMib * MIB, dirtyMib * MIB, Duration.ofMillis(900))).isInfinite();
    }

    /** A transfer with a dirty rate takes its pre-copy passes; one that never converges ends at its completion timeout. */
    @ParameterizedTest(name = "{0} MiB at {1} MiB/s dirtying {2} MiB/s, timeout {3} s: {4} s")
    @CsvSource(delimiter = '|', textBlock = """
            1024 | 512 |   0 |   0 | 2.0
            1024 | 512 | 256 | 800 | 3.0
            1024 | 512 | 512 | 800 | 800.0
            1024 |   0 |   0 | 800 | 0.0
            """)
    void transferTakesItsPreCopyPassesOrItsCompletionTimeout(long memoryMib, long linkMib, long dirtyMib, long timeout, double seconds) {
        var t = new DrainEstimate.Transfer("node01", memoryMib * MIB, linkMib * MIB, dirtyMib * MIB, Duration.ofMillis(900),
                Duration.ofSeconds(timeout));
        assertThat(t.seconds()).isCloseTo(seconds, within(1e-9));
    }

    /** Each migration costs the observed overhead on top of its transfer, in every slot it runs in. */
    @ParameterizedTest(name = "[{index}] {0} / {1},{2} +{3} s each -> node01 {4}, total {5}")
    @CsvSource(delimiter = '|', textBlock = """
            node01:2:1                               | 5 | 2 | 0.5 | 2.5 | 2.5
            node01:2:1 node01:2:1 node01:2:1         | 5 | 2 | 0.5 | 5   | 5
            node01:2:1 node02:2:1 node01:2:1         | 5 | 1 | 0.25 | 4.5 | 4.5
            node01:1:0                               | 5 | 2 | 0.5 | 0   | 0
            """)
    void overheadIsAddedToEveryMigration(String transfers, int perCluster, int perNode, double overhead, double node01, double total) {
        List<DrainEstimate.Transfer> list = new ArrayList<>();
        for (String t : transfers.split(" ")) {
            String[] f = t.split(":");
            list.add(new DrainEstimate.Transfer(f[0], Long.parseLong(f[1]) * GIB, Long.parseLong(f[2]) * GIB));
        }
        DrainEstimate.Estimate e = DrainEstimate.of(list, new MigrationSlots.Limits(perCluster, perNode),
                new MigrationOverhead.Observed(overhead, 7));
        assertThat(e.forNode("node01")).isCloseTo(node01, within(1e-9));
        assertThat(e.total()).isCloseTo(total, within(1e-9));
        assertThat(e.overheadSeconds()).isEqualTo(overhead);
        assertThat(e.overheadSamples()).isEqualTo(7);
    }
    /**
     * Four nodes of eight 1 GiB VMIs each at 1 GiB/s, drained together, 5 slots in the cluster and 2 per node: node
     * by node, the last nodes wait while the first ones hold their slots, and at the end only 4 of the 5 slots can be
     * used (8 s); in turns, as the evacuation shares the slots, the cluster's 5 stay busy (32 migrations in
     * ceil(32/5) = 7 rounds: 7 s).
     */
    @org.junit.jupiter.api.Test
    void nodesDrainedTogetherTakeTurns() {
        List<List<DrainEstimate.Transfer>> byNode = new ArrayList<>();
        for (String node : List.of("n1", "n2", "n3", "n4")) {
            List<DrainEstimate.Transfer> transfers = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                transfers.add(new DrainEstimate.Transfer(node, GIB, GIB));
            }
            byNode.add(transfers);
        }
        MigrationSlots.Limits limits = new MigrationSlots.Limits(5, 2);
        List<DrainEstimate.Transfer> nodeAfterNode = byNode.stream().flatMap(List::stream).toList();

        assertThat(DrainEstimate.of(nodeAfterNode, limits).total()).isCloseTo(8, within(1e-9));
        List<DrainEstimate.Transfer> turns = dev.drainboard.controller.migration.MigrationSlots.interleaved(byNode);
        assertThat(turns.subList(0, 4)).extracting(DrainEstimate.Transfer::node).containsExactly("n1", "n2", "n3", "n4");
        assertThat(DrainEstimate.of(turns, limits).total()).isCloseTo(7, within(1e-9));
    }
}
