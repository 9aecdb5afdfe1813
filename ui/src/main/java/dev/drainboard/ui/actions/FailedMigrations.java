package dev.drainboard.ui.actions;

import dev.drainboard.ui.model.MigrationRow;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Spots migrations that have just failed, for a notification: a row whose phase is Failed now and was not when
 * last seen. The first look is the baseline (what had failed before the console connected is not news).
 * Not thread-safe: fed from the FX thread as the model's migration rows change.
 */
public final class FailedMigrations {

    private static final String FAILED = "Failed";

    private final Map<String, String> lastPhase = new HashMap<>();
    private boolean baselined;

    /** The rows that failed since the last call (none on the first). */
    public List<MigrationRow> update(List<MigrationRow> rows) {
        List<MigrationRow> failed = new ArrayList<>();
        Map<String, String> now = new HashMap<>();
        for (MigrationRow row : rows) {
            String key = row.ref().key();
            now.put(key, row.phase());
            if (baselined && FAILED.equals(row.phase()) && !FAILED.equals(lastPhase.get(key))) {
                failed.add(row);
            }
        }
        lastPhase.clear();
        lastPhase.putAll(now);
        baselined = true;
        return failed;
    }
}
