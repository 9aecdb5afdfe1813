package dev.drainboard.ui;

import dev.drainboard.ops.MigrationTargets;
import dev.drainboard.ui.connect.Session;
import dev.drainboard.ui.model.ObjectRef;
import dev.drainboard.ui.shell.ViewId;
import javafx.scene.control.ListView;
import javafx.scene.input.KeyCode;
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
 * PNGs of the VMs view, its Stop confirmation, and the Migrate-to-node dialog (a cordoned node chosen: OK disabled,
 * the scheduler's reason shown), light and dark, at 1600×1000 and at the smallest supported window, 1280×720.
 */
@ExtendWith(ApplicationExtension.class)
class VmsScreenshotsTest {

    private Console console;
    private TestConsole window;
    private Stage stage;
    private StageSize size;

    @Start
    void start(Stage stage) {
        this.stage = stage;
        window = TestConsole.show(stage);
        console = window.console();
        size = StageSize.of(stage);
    }

    @AfterEach
    void tearDown() throws BackingStoreException {
        window.close();
        fx(() -> {
            size.restore(stage);
            return null;
        });
    }

    @Test
    void vmsViewStopConfirmationAndMigrateToNodeDialog(FxRobot robot) {
        List<String> names = new ArrayList<>();
        for (String theme : List.of("light", "dark")) {
            for (String size : List.of("1600x1000", "1280x720")) {
                for (String screen : List.of("vms", "vm-stop-confirm", "migrate-to-node")) {
                    names.add(screen + "-" + size + "-" + theme);
                }
            }
        }
        ScreenshotRun shots = ScreenshotRun.of(names.toArray(String[]::new));
        Session session = UiSteps.connect(robot, console);
        session.embeddedCluster().orElseThrow().setKubeVirtVersion("v1.6.0");
        await().atMost(WAIT).until(() -> fx(() -> session.model().vms().stream()
                .anyMatch(v -> v.name().equals("web-frontend") && v.printableStatus().equals("Running") && !v.node().isEmpty())));
        String source = fx(() -> session.model().vms().stream().filter(v -> v.name().equals("web-frontend")).findFirst().orElseThrow().node());
        String cordoned = source.equals("node04") ? "node03" : "node04";
        session.client().nodes().withName(cordoned).edit(n -> {
            n.getSpec().setUnschedulable(true);
            return n;
        });
        for (String theme : List.of("light", "dark")) {
            if (theme.equals("dark")) {
                robot.clickOn("#themeToggle");
            }
            for (int[] size : new int[][]{{1600, 1000}, {1280, 720}}) {
                resize(size[0], size[1]);
                String suffix = "-" + size[0] + "x" + size[1] + "-" + theme;
                reveal(robot, new ObjectRef(ObjectRef.Kind.VM, "demo", "web-frontend"), "#vmsTable");
                shots.take(console, "vms" + suffix, "web-frontend", "Run strategy", "Always", "Running", "Status", "Ready",
                        "demo/web-frontend", "kind: \"VirtualMachine\"");

                robot.press(KeyCode.T).release(KeyCode.T);
                await().atMost(WAIT).until(() -> UiSteps.visible(robot, "#confirmStopVm"));
                shots.take(console, "vm-stop-confirm" + suffix, "Stop web-frontend?", "Cancel", "Stop");
                robot.clickOn("#confirmCancel");
                await().atMost(WAIT).until(() -> !UiSteps.visible(robot, "#confirmStopVm"));

                reveal(robot, new ObjectRef(ObjectRef.Kind.VMI, "demo", "web-frontend"), "#vmisTable");
                robot.press(KeyCode.N).release(KeyCode.N);
                await().atMost(WAIT).until(() -> UiSteps.visible(robot, "#migrateToNodeDialog"));
                ListView<MigrationTargets.Fit> list = robot.lookup("#migrateTargets").queryListView();
                await().atMost(WAIT).until(() -> fx(() -> list.getItems().size() == 4));
                fx(() -> {
                    list.getSelectionModel().select(list.getItems().stream().filter(f -> f.node().equals(cordoned)).findFirst().orElseThrow());
                    return null;
                });
                WaitForAsyncUtils.waitForFxEvents();
                assertThat(fx(() -> robot.lookup("#migrateOk").queryButton().isDisabled())).isTrue();
                shots.take(console, "migrate-to-node" + suffix, "Migrate web-frontend to a node", "fits", "does not fit",
                        "the VMI runs on this node", "Cannot migrate to " + cordoned + ": ");
                robot.clickOn("#migrateCancel");
                await().atMost(WAIT).until(() -> !UiSteps.visible(robot, "#migrateToNodeDialog"));
            }
        }
        shots.assertAllTaken();
    }

    private void reveal(FxRobot robot, ObjectRef ref, String table) {
        fx(() -> {
            console.shellProperty().get().reveal(ref);
            return null;
        });
        WaitForAsyncUtils.waitForFxEvents();
        fx(() -> {
            robot.lookup(table).query().requestFocus();
            return null;
        });
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(fx(() -> console.shellProperty().get().current())).isIn(ViewId.VMS, ViewId.VMIS);
    }

    private void resize(int w, int h) {
        fx(() -> {
            stage.setWidth(w);
            stage.setHeight(h);
            return null;
        });
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(fx(() -> console.scene().getWidth())).isEqualTo(w);
    }
}
