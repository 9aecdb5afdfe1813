package dev.drainboard.ui.migrations;

import dev.drainboard.ui.model.MigrationRow;
import dev.drainboard.ui.model.TransferProgress;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static dev.drainboard.ui.migrations.Rows.migration;
import static org.assertj.core.api.Assertions.assertThat;

class ProgressTextTest {

    private static final long MIB = 1024 * 1024;

    @ParameterizedTest(name = "{0} without a transfer → {1}")
    @CsvSource({
            "Pending,         queued",
            "Scheduling,      preparing target (Scheduling)",
            "TargetReady,     preparing target (TargetReady)",
            "Running,         starting the transfer",
            "Succeeded,       done",
            "Failed,          failed before the transfer",
            "Cancelled,       cancelled before the transfer",
    })
    void beforeTheTransferItSaysWhatItWaitsFor(String phase, String text) {
        assertThat(ProgressText.summary(migration("m", "vm", phase, "node01", 0, null))).isEqualTo(text);
        assertThat(ProgressText.warning(migration("m", "vm", phase, "node01", 0, null))).isEmpty();
    }

    @ParameterizedTest(name = "{0}, waiting for \"{1}\" → {2}")
    @CsvSource(delimiter = '|', value = {
            "Pending    | 2 of 2 outbound migrations of node01 in use | waits: 2 of 2 outbound migrations of node01 in use",
            "''         | 5 of 5 migrations in the cluster in use     | waits: 5 of 5 migrations in the cluster in use",
            "Scheduling | target pod t unschedulable: 0/4 nodes are available | waits: target pod t unschedulable: 0/4 nodes are available",
    })
    void aMigrationNotStartedSaysWhyItWaits(String phase, String why, String text) {
        MigrationRow row = migration("m", "vm", phase, "node01", 0, null).withWaiting(why);
        assertThat(ProgressText.summary(row)).isEqualTo(text);
        assertThat(ProgressText.detail(row)).endsWith("It waits: " + why + ".");
    }

    @ParameterizedTest(name = "{0} {1}, sent {2} MiB, left {3} MiB (before {4}) → \"{5}\" / \"{6}\"")
    @CsvSource(delimiter = '|', value = {
            "RUNNING   | PreCopy  | 256  | 768  | -1   | 25% · 4 MiB/s · pass 2             | ''",
            "RUNNING   | PreCopy  | 256  | 768  | 900  | 25% · 4 MiB/s · pass 2             | ''",
            "RUNNING   | PreCopy  | 256  | 1024 | 900  | 20% · 4 MiB/s · pass 2             | not converging",
            "RUNNING   | PostCopy | 900  | 124  | 200  | 87% · 4 MiB/s · pass 2 · PostCopy  | ''",
            "COMPLETED | PreCopy  | 2048 | 0    | 10   | 100% · 2.0 GiB moved               | ''",
            "FAILED    | PreCopy  | 600  | 400  | 300  | stopped at 60%                     | ''",
    })
    void duringTheTransferItSaysHowFarAndWhetherItConverges(String state, String mode, long sentMiB, long leftMiB,
                                                           long beforeMiB, String summary, String warning) {
        TransferProgress.Trend trend = beforeMiB < 0 ? TransferProgress.Trend.FIRST_SAMPLE
                : leftMiB > beforeMiB ? TransferProgress.Trend.GROWING : TransferProgress.Trend.SHRINKING;
        TransferProgress t = new TransferProgress(state, mode, 2, 2048 * MIB, sentMiB * MIB, leftMiB * MIB, 4 * MIB,
                Rows.T0, trend, beforeMiB < 0 ? -1 : beforeMiB * MIB);
        String phase = switch (state) {
            case "COMPLETED" -> "Succeeded";
            case "FAILED" -> "Failed";
            default -> "Running";
        };
        MigrationRow row = migration("m", "vm", phase, "node01", 0, null, t);

        assertThat(ProgressText.summary(row)).isEqualTo(summary);
        assertThat(ProgressText.warning(row)).isEqualTo(warning);
        if (!warning.isEmpty()) {
            assertThat(ProgressText.detail(row)).contains("Remaining grew from 900 MiB to 1.0 GiB");
        }
    }

    @ParameterizedTest(name = "{0} with its last sample {1} → \"{2}\"")
    @CsvSource(delimiter = '|', value = {
            "Cancelled | RUNNING   | stopped at 25%",
            "Failed    | RUNNING   | stopped at 25%",
            "Cancelled | COMPLETED | 100% · 512 MiB moved"})
    void anAbortedMigrationStoppedWhereItsLastSampleWas(String phase, String state, String summary) {
        TransferProgress t = new TransferProgress(state, "PreCopy", 1, 2048 * MIB, 512 * MIB,
                "COMPLETED".equals(state) ? 0 : 1536 * MIB, 4 * MIB, Rows.T0, TransferProgress.Trend.FIRST_SAMPLE, -1);
        assertThat(ProgressText.summary(migration("m", "vm", phase, "node01", 0, 9, t))).isEqualTo(summary);
    }
}
