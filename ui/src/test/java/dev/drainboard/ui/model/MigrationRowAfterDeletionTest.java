package dev.drainboard.ui.model;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

/** What the Migrations list keeps of a migration once its VMIM is deleted. */
class MigrationRowAfterDeletionTest {

    static final Instant CREATED = Instant.parse("2026-11-28T10:00:00Z");
    static final Instant DELETED = Instant.parse("2026-11-28T10:00:42Z");

    static MigrationRow row(String phase, String failure, Instant until) {
        return new MigrationRow("demo", "m1", "uid-1", "cache", phase, "node02", "node01", "", "", "requested",
                "", "", "", CREATED, until, null, failure);
    }

    @ParameterizedTest(name = "{0} → {1}")
    @CsvSource(delimiter = '|', nullValues = "null", value = {
            // phase when deleted | shown as  | finished | reason shown
            "Pending              | Cancelled | true     | deleted before it finished (cancelled) while Pending",
            "Scheduling           | Cancelled | true     | deleted before it finished (cancelled) while Scheduling",
            "Running              | Cancelled | true     | deleted before it finished (cancelled) while Running",
            "Failed               | Failed    | true     | target pod did not start",
            "Succeeded            | null      | false    | null"})
    void keptOrGone(String phase, String shownAs, boolean kept, String reason) {
        boolean failed = phase.equals("Failed");
        MigrationRow before = row(phase, failed ? "target pod did not start" : "", phase.equals("Succeeded") || failed ? CREATED.plusSeconds(9) : null);
        MigrationRow after = before.afterDeletion(DELETED);
        if (shownAs == null) {
            assertThat(after).as("a succeeded migration goes with its object").isNull();
            return;
        }
        assertThat(after.phase()).isEqualTo(shownAs);
        assertThat(after.finished()).isEqualTo(kept);
        assertThat(after.aborted()).isTrue();
        assertThat(after.failureReason()).isEqualTo(reason);
        assertThat(after.until()).isEqualTo(failed ? CREATED.plusSeconds(9) : DELETED);
        assertThat(after.elapsed(DELETED.plusSeconds(600))).as("its bar ends when it ended").isEqualTo(
                java.time.Duration.between(CREATED, after.until()));
        assertThat(after.afterDeletion(DELETED.plusSeconds(5))).as("kept as it is").isSameAs(after);
    }

    @ParameterizedTest(name = "being deleted while {0}: {1}")
    @CsvSource(delimiter = '|', value = {
            "Running   | Cancelled | deleted before it finished (cancelled) while Running",
            "Failed    | Cancelled | Migration failed due to being canceled",
            "Failed    | Cancelled | deleted before it finished (cancelled)",
            "Succeeded | Succeeded | ''"})
    void beingDeleted(String phase, String shownAs, String reason) {
        MigrationRow before = row(phase, reason.startsWith("Migration failed") ? reason : "",
                phase.equals("Running") ? null : CREATED.plusSeconds(9));
        MigrationRow shown = before.asCancelled(DELETED);
        assertThat(shown.phase()).isEqualTo(shownAs);
        assertThat(shown.failureReason()).isEqualTo(reason);
        assertThat(shown.until()).isEqualTo(phase.equals("Running") ? DELETED : CREATED.plusSeconds(9));
        if (phase.equals("Succeeded")) {
            assertThat(shown.afterDeletion(DELETED.plusSeconds(1))).as("a succeeded one goes once gone").isNull();
        } else {
            assertThat(shown.afterDeletion(DELETED.plusSeconds(1))).as("and kept once gone").isSameAs(shown);
        }
    }
}
