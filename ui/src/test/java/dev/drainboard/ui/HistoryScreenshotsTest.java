package dev.drainboard.ui;

import dev.drainboard.ops.DrainOperation;
import dev.drainboard.ops.DrainOptions;
import dev.drainboard.ops.Ops;
import dev.drainboard.ops.VmiOps;
import dev.drainboard.ui.connect.Session;
import dev.drainboard.ui.model.HistoryRow;
import dev.drainboard.ui.model.MigrationRow;
import dev.drainboard.ui.model.ObjectRef;
import dev.drainboard.ui.shell.ViewId;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

import java.util.ArrayList;
import java.util.List;
import java.util.prefs.BackingStoreException;

import static dev.drainboard.ui.ConsoleUiTest.fx;
import static dev.drainboard.ui.UiSteps.WAIT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * PNGs of the History view and of the Migrations view with a cancelled migration, light and dark, at 1600x1000 and
 * 1280x720, on the demo scenario after a refused drain of node03 (its workers would have nowhere to run: Failed), a
 * real drain of the "database" VM from its node (Drained) and a migration of "cache" cancelled while it ran. Same output folder as
 * {@link ScreenshotsTest}.
 */
@ExtendWith(ApplicationExtension.class)
class HistoryScreenshotsTest {

    private static final int[][] SIZES = {{1600, 1000}, {1280, 720}};

    private Console console;
    private TestConsole window;
    private Stage stage;
    private StageSize size;

    @Start
    void start(Stage stage) {
        this.stage = stage;
        size = StageSize.of(stage);
        window = TestConsole.show(stage);
        console = window.console();
    }

    @AfterEach
    void tearDown() throws BackingStoreException {
        // TestFX shares the stage between tests: the next one gets the size this one found.
        fx(() -> {
            size.restore(stage);
            return null;
        });
        window.close();
    }

    @Test
    void historyAndCancelledMigrationLightAndDark(FxRobot robot) {
        ScreenshotRun shots = ScreenshotRun.of(names());
        Session session = UiSteps.connect(robot, console);
        await().atMost(WAIT).until(() -> fx(() -> session.model().vmis().size() == 12
                && session.model().vmis().stream().allMatch(v -> v.phase().equals("Running"))));
        try (Ops ops = new Ops(session.client())) {
            DrainOptions options = DrainOptions.defaults().withIgnoreDaemonSets(true).withDeleteEmptyDirData(true).withForce(true);
            // Refused: node03's workers would have nowhere to run. Then the "database" VM's node, drained of it for
            // real (its launcher only: the demo's other VMIs land on different nodes from run to run).
            record(ops, List.of("node03"), options);
            var database = session.client().resources(dev.drainboard.kubevirt.api.VirtualMachineInstance.class)
                    .inNamespace("demo").withName("database").get();
            String node = database.getStatus().getNodeName();
            record(ops, List.of(node), options.withTimeout(java.time.Duration.ofSeconds(90))
                    .withPodSelector("kubevirt.io/created-by=" + database.getMetadata().getUid()));
            ScreenshotsTest.slowLinks(session.client());
            String cancelled = new VmiOps(session.client()).migrate("demo", "cache").name();
            await().atMost(WAIT).until(() -> fx(() -> session.model().migrations().stream()
                    .anyMatch(m -> m.name().equals(cancelled) && m.phase().equals("Running") && m.progress() != null
                            && m.progress().processedBytes() > 24L << 20))); // a bar wide enough to see on the timeline
            ops.cancelMigration("demo", cancelled);
            await().atMost(WAIT).until(() -> fx(() -> session.model().migrations().stream()
                    .anyMatch(m -> m.name().equals(cancelled) && m.phase().equals(MigrationRow.CANCELLED))));

            for (String theme : List.of("light", "dark")) {
                if (theme.equals("dark")) {
                    robot.clickOn("#themeToggle");
                }
                for (int[] size : SIZES) {
                    resize(size[0], size[1]);
                    String suffix = "-" + theme + "-" + size[0] + "x" + size[1];
                    show(ViewId.HISTORY);
                    await().atMost(WAIT).until(() -> fx(() -> robot.lookup("#historyTable").queryTableView().getItems().size() == 3));
                    HistoryRow drained = fx(() -> robot.lookup("#historyTable").<HistoryRow>queryTableView().getItems().stream()
                            .filter(r -> r.nodes().equals(List.of(node))).findFirst().orElseThrow());
                    reveal(drained.ref());
                    shots.take(console, "history" + suffix, "History", node, "node03", "Drained", "Failed",
                            "MigrationCancel", "Cancelled", drained.name(), "Duration vs estimate", "MARKDOWN");

                    show(ViewId.MIGRATIONS);
                    robot.clickOn("#timelineWindow5");
                    reveal(new ObjectRef(ObjectRef.Kind.VMIM, "demo", cancelled));
                    // At 1280x720 the details pane leaves the timeline's title cut short.
                    String[] shows = size[0] >= 1600
                            ? new String[]{"Migrations", "cache", "Cancelled", "Timeline", "stopped at"}
                            : new String[]{"Migrations", "cache", "Cancelled", "stopped at", "Succeeded"};
                    shots.take(console, "migrations-cancelled" + suffix, shows);
                }
            }
            shots.assertAllTaken();
            assertThat(fx(() -> console.scene().getWidth())).isEqualTo(1280.0);
        }
    }

    private static void record(Ops ops, List<String> nodes, DrainOptions options) {
        List<DrainOperation> drains = ops.drainAll(nodes, options);
        ops.history().record(drains).written().orTimeout(120, java.util.concurrent.TimeUnit.SECONDS).join();
    }

    private static String[] names() {
        List<String> names = new ArrayList<>();
        for (String theme : List.of("light", "dark")) {
            for (int[] size : SIZES) {
                names.add("history-" + theme + "-" + size[0] + "x" + size[1]);
                names.add("migrations-cancelled-" + theme + "-" + size[0] + "x" + size[1]);
            }
        }
        return names.toArray(String[]::new);
    }

    private void resize(int width, int height) {
        fx(() -> {
            stage.setWidth(width);
            stage.setHeight(height);
            return null;
        });
        WaitForAsyncUtils.waitForFxEvents();
    }

    private void show(ViewId view) {
        fx(() -> {
            console.shellProperty().get().show(view);
            return null;
        });
    }

    private void reveal(ObjectRef ref) {
        fx(() -> {
            console.shellProperty().get().reveal(ref);
            return null;
        });
    }
}
