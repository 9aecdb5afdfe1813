package dev.drainboard.ui.rehearse;

import dev.drainboard.ui.connect.ConnectTarget;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;

/** "Rehearse on a copy" without its controls: the time scale checked as typed, then copy, then open. */
class RehearseModelTest {

    /** Records what the model asks; the snapshot completes when the test says. */
    static final class Fake implements RehearseModel.Actions {
        final CompletableFuture<RehearseModel.Snapshot> snapshot = new CompletableFuture<>();
        int snapshots;
        final List<ConnectTarget.Embedded> opened = new ArrayList<>();

        @Override
        public CompletableFuture<RehearseModel.Snapshot> snapshot() {
            snapshots++;
            return snapshot;
        }

        @Override
        public void open(ConnectTarget.Embedded copy) {
            opened.add(copy);
        }
    }

    private final Fake actions = new Fake();
    private final RehearseModel model = new RehearseModel("https://prod:6443", actions, Runnable::run);

    @ParameterizedTest(name = "\"{0}\"")
    @CsvSource(delimiter = '|', value = {
            "10 | | Boots, migrations, grace periods and KubeVirt's timeouts run 10 times faster: a 2-hour window rehearses in 12 minutes. Durations measured on the copy × 10 are real time.",
            "2.5 | | Boots, migrations, grace periods and KubeVirt's timeouts run 2.5 times faster: a 2-hour window rehearses in 48 minutes. Durations measured on the copy × 2.5 are real time.",
            "1 | | The copy runs at real time.",
            "1000 | | Boots, migrations, grace periods and KubeVirt's timeouts run 1000 times faster: a 2-hour window rehearses in under a minute. Durations measured on the copy × 1000 are real time.",
            "0 | Not a time scale: a number above 0 and at most 1000 (1 is real time), e.g. 10 or 2.5. | ",
            "fast | Not a time scale: a number above 0 and at most 1000 (1 is real time), e.g. 10 or 2.5. | ",
            "5000 | Not a time scale: a number above 0 and at most 1000 (1 is real time), e.g. 10 or 2.5. | ",
            "' ' | Type how many times faster than real time the copy runs, e.g. 10. | "})
    void checksTheTimeScaleAsItIsTyped(String typed, String problem, String help) {
        model.timeScaleProperty().set(typed);
        assertThat(model.timeScaleProblemProperty().get()).isEqualTo(problem == null ? "" : problem);
        assertThat(model.timeScaleHelpProperty().get()).isEqualTo(help == null ? "" : help);
        assertThat(model.canStartProperty().get()).isEqualTo(problem == null);
    }

    @Test
    void copiesThenOpensTheCopyAtTheScaleTyped() {
        model.timeScaleProperty().set("20");
        model.start();
        assertThat(model.phaseProperty().get()).isEqualTo(RehearseModel.Phase.COPYING);
        assertThat(model.messageProperty().get()).startsWith("Copying https://prod:6443 (");
        assertThat(model.canStartProperty().get()).as("one copy at a time").isFalse();
        model.start();
        assertThat(actions.snapshots).isEqualTo(1);

        actions.snapshot.complete(new RehearseModel.Snapshot(Path.of("/tmp/r/snapshot"), List.of()));
        assertThat(model.phaseProperty().get()).isEqualTo(RehearseModel.Phase.OPENING);
        assertThat(actions.opened).containsExactly(new ConnectTarget.Embedded("/tmp/r/snapshot", 20));
        assertThat(model.messageProperty().get()).isEqualTo("Copied to /tmp/r/snapshot. Starting the copy…");
    }

    @Test
    void anIncompleteCopyIsOpenedAndSaysWhatItLacks() {
        model.start();
        actions.snapshot.complete(new RehearseModel.Snapshot(Path.of("/tmp/s"), List.of("pods: forbidden (no)")));
        assertThat(actions.opened).containsExactly(new ConnectTarget.Embedded("/tmp/s", 10));
        assertThat(model.messageProperty().get()).contains("without what could not be read: pods: forbidden (no)");
    }

    @Test
    void aFailedCopyOpensNothingAndSaysWhy() {
        model.start();
        actions.snapshot.completeExceptionally(new java.util.concurrent.CompletionException(
                new IllegalStateException("cannot reach the cluster at https://prod:6443")));
        assertThat(model.phaseProperty().get()).isEqualTo(RehearseModel.Phase.FAILED);
        assertThat(model.messageProperty().get()).isEqualTo("The copy could not be taken: cannot reach the cluster at "
                + "https://prod:6443. Nothing was started; the cluster was only read.");
        assertThat(actions.opened).isEmpty();
        assertThat(model.canStartProperty().get()).as("may be tried again").isTrue();
    }

    @Test
    void aScaleThatCannotBeUsedStartsNothing() {
        model.timeScaleProperty().set("-3");
        model.start();
        assertThat(actions.snapshots).isZero();
        assertThat(model.phaseProperty().get()).isEqualTo(RehearseModel.Phase.IDLE);
    }

    @Test
    void theCopysTargetKeepsItsScaleInRecent() {
        ConnectTarget.Embedded copy = new ConnectTarget.Embedded("/tmp/s", 2.5);
        assertThat(copy.encode()).isEqualTo("embedded\t/tmp/s\t2.5");
        assertThat(copy.subtitle()).isEqualTo("/tmp/s · time ×2.5");
        assertThat(new ConnectTarget.Embedded("demo").encode()).isEqualTo("embedded\tdemo");
        java.util.prefs.Preferences prefs = java.util.prefs.Preferences.userRoot().node("dev/drainboard/ui-test/" + java.util.UUID.randomUUID());
        try {
            var recent = new dev.drainboard.ui.connect.RecentConnections(prefs);
            recent.remember(new ConnectTarget.Embedded("demo"));
            recent.remember(copy);
            assertThat(new dev.drainboard.ui.connect.RecentConnections(prefs).list())
                    .containsExactly(copy, new ConnectTarget.Embedded("demo"));
        } finally {
            try {
                prefs.removeNode();
            } catch (java.util.prefs.BackingStoreException e) {
                throw new IllegalStateException(e);
            }
        }
    }
}
