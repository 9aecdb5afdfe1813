package dev.drainboard.ui.actions;

import dev.drainboard.ui.model.MigrationRow;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class FailedMigrationsTest {

    private static MigrationRow row(String name, String phase) {
        return new MigrationRow("demo", name, "uid-" + name, "vm-" + name, phase, "node01", "node02", "", "", "evacuation of node01",
                "", "", "", null, null, null, "");
    }

    @Test
    void theFirstLookIsTheBaselineAndOnlyNewFailuresAreNews() {
        FailedMigrations watch = new FailedMigrations();
        assertThat(watch.update(List.of(row("old", "Failed"), row("a", "Running")))).isEmpty();
        assertThat(watch.update(List.of(row("old", "Failed"), row("a", "Running")))).isEmpty();
        assertThat(watch.update(List.of(row("old", "Failed"), row("a", "Failed"), row("b", "Failed"), row("c", "Succeeded"))))
                .extracting(MigrationRow::name).containsExactly("a", "b");
        assertThat(watch.update(List.of(row("old", "Failed"), row("a", "Failed")))).isEmpty();
    }
}
