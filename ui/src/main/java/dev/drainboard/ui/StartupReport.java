package dev.drainboard.ui;

import dev.drainboard.ui.connect.Session;
import javafx.animation.PauseTransition;
import javafx.application.Platform;
import javafx.beans.value.ChangeListener;
import javafx.beans.value.ObservableValue;
import javafx.scene.Scene;

import java.time.Duration;
import java.time.Instant;

/**
 * Prints the two startup milestones an operator waits for, timed from the start of the process (the native
 * launcher included): the window's first frame, and the first complete picture of the cluster. The installer
 * smoke test (packaging/test-deb.sh) and docs/benchmarks.md read these lines:
 * <pre>
 * drainboard: first frame after 812 ms
 * drainboard: cluster populated after 2140 ms (4 nodes, 8 VMIs)
 * </pre>
 */
final class StartupReport {

    static final String EXIT_AFTER_POPULATED = "drainboard.exitAfterPopulatedMs";

    private final Instant processStart = ProcessHandle.current().info().startInstant().orElse(Instant.now());
    private boolean populatedReported;

    /** Watches the scene for its first pulse and the console for its first synced session. */
    static void watch(Scene scene, Console console) {
        new StartupReport().start(scene, console);
    }

    private void start(Scene scene, Console console) {
        // The first pulse after show() lays the scene out and hands it to the renderer: the first frame.
        Runnable[] firstPulse = new Runnable[1];
        firstPulse[0] = () -> {
            scene.removePostLayoutPulseListener(firstPulse[0]);
            System.out.println("drainboard: first frame after " + sinceStart() + " ms");
        };
        scene.addPostLayoutPulseListener(firstPulse[0]);
        if (console.sessionProperty().get() != null) {
            whenSynced(console.sessionProperty().get());
        }
        console.sessionProperty().addListener((obs, old, session) -> {
            if (session != null && !populatedReported) {
                whenSynced(session);
            }
        });
    }

    private void whenSynced(Session session) {
        var synced = session.model().synced();
        ChangeListener<Boolean> onSynced = new ChangeListener<>() {
            @Override
            public void changed(ObservableValue<? extends Boolean> obs, Boolean was, Boolean is) {
                if (is) {
                    synced.removeListener(this);
                    reportPopulated(session);
                }
            }
        };
        if (synced.get()) {
            reportPopulated(session);
        } else {
            synced.addListener(onSynced);
        }
    }

    private void reportPopulated(Session session) {
        if (populatedReported) {
            return;
        }
        populatedReported = true;
        // The synced flag arrives in the same batch as the rows; the next pulse paints them.
        Platform.runLater(() -> {
            System.out.println("drainboard: cluster populated after " + sinceStart() + " ms ("
                    + session.model().nodes().size() + " nodes, " + session.model().vmis().size() + " VMIs)");
            exitIfTraining();
        });
    }

    /**
     * The installer build records which classes a start loads (packaging/build.sh, AOT cache) with
     * {@code -Ddrainboard.exitAfterPopulatedMs=N}: the window closes N ms after the cluster is shown, as if the
     * operator closed it, on every OS alike.
     */
    private static void exitIfTraining() {
        Long delay = Long.getLong(EXIT_AFTER_POPULATED);
        if (delay != null) {
            PauseTransition pause = new PauseTransition(javafx.util.Duration.millis(delay));
            pause.setOnFinished(e -> Platform.exit());
            pause.play();
        }
    }

    private long sinceStart() {
        return Duration.between(processStart, Instant.now()).toMillis();
    }
}
