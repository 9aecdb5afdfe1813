package dev.drainboard.ui;

import dev.drainboard.ui.connect.Session;
import javafx.animation.PauseTransition;
import javafx.application.Platform;
import javafx.beans.value.ChangeListener;
import javafx.beans.value.ObservableValue;
import javafx.scene.Scene;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.OptionalLong;

/**
 * Prints the two startup milestones an operator waits for, timed from the start of the process (the native
 * launcher included): the window's first frame, and the first complete picture of the cluster. The installer
 * smoke test (packaging/test-deb.sh) and docs/benchmarks.md read these lines:
 * <pre>
 * drainboard: first frame after 812 ms
 * drainboard: cluster populated after 2140 ms (4 nodes, 8 VMIs)
 * </pre>
 * With {@code -Ddrainboard.startup.expect=NODES,VMIS} (the start-up benchmark, on the demo cluster) also when the window
 * shows the whole demo: a tile per node and a row per VMI, each VMI placed on a node (the demo's VM and replica set
 * create theirs after the first sync):
 * <pre>
 * drainboard: demo populated after 2380 ms (4 nodes, 12 VMIs, CPU 6120 ms)
 * </pre>
 */
final class StartupReport {

    static final String EXIT_AFTER_POPULATED = "drainboard.exitAfterPopulatedMs";
    static final String EXPECT = "drainboard.startup.expect";

    private final long processStartNanos = System.nanoTime() - processAgeNanos();
    private boolean populatedReported;
    private boolean completeReported;
    private final int[] expected = expected(System.getProperty(EXPECT));

    /** {@code "4,12"} → {4, 12}; null when not asked for or not two numbers. */
    static int[] expected(String property) {
        if (property == null) {
            return null;
        }
        String[] parts = property.split(",");
        try {
            return parts.length == 2 ? new int[]{Integer.parseInt(parts[0].trim()), Integer.parseInt(parts[1].trim())} : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }

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
            if (session != null && expected != null && !completeReported) {
                whenComplete(session);
            }
        });
    }

    private void whenComplete(Session session) {
        var model = session.model();
        Runnable check = new Runnable() {
            @Override
            public void run() {
                if (completeReported || !model.synced().get() || model.nodes().size() < expected[0]
                        || model.vmis().size() < expected[1] || model.vmis().stream().anyMatch(v -> v.node().isEmpty())) {
                    return;
                }
                completeReported = true;
                // The rows are in the lists; the next pulse lays out and paints them.
                Platform.runLater(() -> {
                    System.out.println("drainboard: demo populated after " + sinceStart() + " ms ("
                            + model.nodes().size() + " nodes, " + model.vmis().size() + " VMIs" + cpu() + ")");
                    exitIfTraining();
                });
            }
        };
        model.vmis().addListener((javafx.collections.ListChangeListener<Object>) c -> check.run());
        model.nodes().addListener((javafx.collections.ListChangeListener<Object>) c -> check.run());
        model.synced().addListener((obs, was, is) -> check.run());
        check.run();
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
            if (expected == null) {
                exitIfTraining();
            }
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

    /** ", CPU N ms": what the process has used so far (all threads), which a shared machine's load does not change much. */
    private static String cpu() {
        try {
            OptionalLong ms = cpuMillis(Files.readString(Path.of("/proc/self/stat")));
            return ms.isPresent() ? ", CPU " + ms.getAsLong() + " ms" : "";
        } catch (IOException | RuntimeException e) {
            return "";
        }
    }

    /** utime + stime (fields 14 and 15 of /proc/self/stat, 100 ticks per second) in milliseconds. */
    static OptionalLong cpuMillis(String stat) {
        int close = stat.lastIndexOf(')');
        String[] fields = stat.substring(close + 1).trim().split("\\s+");
        if (close < 0 || fields.length < 13) {
            return OptionalLong.empty();
        }
        try {
            return OptionalLong.of((Long.parseLong(fields[11]) + Long.parseLong(fields[12])) * 10);
        } catch (NumberFormatException e) {
            return OptionalLong.empty();
        }
    }

    private long sinceStart() {
        return (System.nanoTime() - processStartNanos) / 1_000_000;
    }

    /**
     * How long this process has been running. On Linux from /proc, both figures counted from boot (10 ms ticks);
     * {@code ProcessHandle.Info.startInstant()} adds the boot time, which /proc gives in whole seconds only.
     * Elsewhere from the JVM's own start, which misses the native launcher's few milliseconds.
     */
    private static long processAgeNanos() {
        try {
            OptionalLong age = processAgeMillis(Files.readString(Path.of("/proc/self/stat")),
                    Files.readString(Path.of("/proc/uptime")));
            if (age.isPresent()) {
                return age.getAsLong() * 1_000_000;
            }
        } catch (IOException | RuntimeException e) {
            // not Linux: fall through
        }
        long jvmStart = ProcessHandle.current().info().startInstant().map(Instant::toEpochMilli)
                .orElse(System.currentTimeMillis());
        return Math.max(0, System.currentTimeMillis() - jvmStart) * 1_000_000;
    }

    /**
     * The process's age from /proc/self/stat (field 22: start time in clock ticks since boot, 100 per second) and
     * /proc/uptime (seconds since boot); empty when either cannot be read.
     */
    static OptionalLong processAgeMillis(String stat, String uptime) {
        // The command name (field 2) is in parentheses and may hold spaces: count fields after its closing one.
        int close = stat.lastIndexOf(')');
        String[] fields = stat.substring(close + 1).trim().split("\\s+");
        String[] up = uptime.trim().split("\\s+");
        if (close < 0 || fields.length < 20 || up.length < 1) {
            return OptionalLong.empty();
        }
        try {
            long startTicks = Long.parseLong(fields[19]); // field 22 overall; fields[0] is field 3 (state)
            long uptimeMillis = Math.round(Double.parseDouble(up[0]) * 1000);
            long age = uptimeMillis - startTicks * 10;
            return age >= 0 ? OptionalLong.of(age) : OptionalLong.empty();
        } catch (NumberFormatException e) {
            return OptionalLong.empty();
        }
    }
}
