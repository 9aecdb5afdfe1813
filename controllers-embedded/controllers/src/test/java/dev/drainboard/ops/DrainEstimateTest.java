package dev.drainboard.ops;

import dev.drainboard.controller.migration.MigrationSlots;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class DrainEstimateTest {

    private static final long GIB = 1L << 30;

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
}
