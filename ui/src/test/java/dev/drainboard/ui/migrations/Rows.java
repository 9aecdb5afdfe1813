package dev.drainboard.ui.migrations;

import dev.drainboard.ui.model.MigrationRow;
import dev.drainboard.ui.model.TransferProgress;

import java.time.Instant;

/** Migration rows for tests: times as seconds after {@link #T0}. */
final class Rows {

    static final Instant T0 = Instant.parse("2026-11-22T03:00:00Z");

    private Rows() {
    }

    static MigrationRow migration(String name, String vmi, String phase, String source, Integer startSecond, Integer endSecond) {
        return migration(name, vmi, phase, source, startSecond, endSecond, null);
    }

    static MigrationRow migration(String name, String vmi, String phase, String source, Integer startSecond, Integer endSecond,
                                  TransferProgress progress) {
        return new MigrationRow("demo", name, "uid-" + name, vmi, phase, source, source.isEmpty() ? "" : "target",
                "", "", "node drain taint", "", "", T0.toString(),
                startSecond == null ? null : T0.plusSeconds(startSecond),
                endSecond == null ? null : T0.plusSeconds(endSecond), progress, "");
    }
}
