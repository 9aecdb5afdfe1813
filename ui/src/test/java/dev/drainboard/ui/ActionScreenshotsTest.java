package dev.drainboard.ui;

import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.simulation.SimulationKnobs;
import dev.drainboard.ui.connect.Session;
import dev.drainboard.ui.model.ObjectRef;
import dev.drainboard.ui.shell.ViewId;
import io.fabric8.kubernetes.client.KubernetesClient;
import javafx.scene.control.CheckBox;
import javafx.scene.control.TableView;
import javafx.scene.input.KeyCode;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

import java.time.Duration;
import java.util.List;
import java.util.prefs.BackingStoreException;

import static dev.drainboard.ui.ConsoleUiTest.fx;
import static org.awaitility.Awaitility.await;

/**
 * PNGs of the action dialogs, light and dark, from the running console on the demo scenario: the drain dialog's
 * preview and its live progress, the taint dialog refusing an invalid key, and the scale dialog (a valid count and a
 * refused one). Node pressure has its own: {@link PressureScreenshotsTest}. Each picture is checked for what it must
 * show ({@link ScreenshotRun}); same output folder as {@link ScreenshotsTest} ({@code -Ddrainboard.screenshots=DIR}).
 */
@ExtendWith(ApplicationExtension.class)
class ActionScreenshotsTest {

    private static final Duration WAIT = Duration.ofSeconds(60);

    private Console console;
    private TestConsole window;

    @Start
    void start(Stage stage) {
        window = TestConsole.show(stage);
        console = window.console();
    }

    @AfterEach
    void tearDown() throws BackingStoreException {
        window.close();
    }

    @Test
    void drainAndTaintDialogsLightAndDark(FxRobot robot) {
        ScreenshotRun shots = ScreenshotRun.of("drain-preview-light", "drain-preview-dark",
                "drain-progress-light", "drain-progress-dark", "taint-dialog-light", "taint-dialog-dark");
        robot.clickOn("#connectEmbedded");
        await().atMost(WAIT).until(() -> fx(() -> console.sessionProperty().get() != null));
        Session session = fx(() -> console.sessionProperty().get());
        KubernetesClient client = session.client();
        await().atMost(WAIT).until(() -> {
            int vmis = client.resources(VirtualMachineInstance.class).inAnyNamespace().list().getItems().size();
            return fx(() -> session.model().synced().get() && session.model().vmis().size() == vmis
                    && session.model().vmis().stream().allMatch(v -> "Running".equals(v.phase())));
        });
        for (var node : client.nodes().list().getItems()) {
            client.nodes().withName(node.getMetadata().getName()).edit(n -> {
                n.getMetadata().getAnnotations().put(SimulationKnobs.LINK_SPEED, "4Mi");
                return n;
            });
        }
        String node = client.resources(VirtualMachineInstance.class).inNamespace("demo").withName("database").get()
                .getStatus().getNodeName();
        // A preview without blockers (the pinned replica set, the External VMI), as in the screenshots' drain.
        UiSteps.removeStranding(client, node);

        select(robot, node);
        robot.press(KeyCode.D).release(KeyCode.D);
        TableView<?> preview = robot.lookup("#drainPreviewTable").queryTableView();
        await().atMost(WAIT).until(() -> fx(() -> !preview.getItems().isEmpty()));
        fx(() -> {
            robot.lookup("#drainIgnoreDaemonSets").queryAs(CheckBox.class).setSelected(true);
            return null;
        });
        // The preview read again with the box ticked: the DaemonSet's pod stays, the database VMI live-migrates. (Whether
        // it can start as the options stand depends on the node the scheduler chose: one of them runs an emptyDir pod.)
        bothThemes(shots, "drain-preview", "Drain " + node, node + ": ", "virt-launcher-database-", "Live migration",
                "Stays (DaemonSet)");

        for (String box : List.of("#drainDeleteEmptyDir", "#drainForce")) {
            fx(() -> {
                robot.lookup(box).queryAs(CheckBox.class).setSelected(true);
                return null;
            });
        }
        await().atMost(WAIT).until(() -> !fx(() -> robot.lookup("#drainStart").queryButton().isDisabled()));
        robot.clickOn("#drainStart");
        TableView<?> progress = robot.lookup("#drainProgressTable").queryTableView();
        await().atMost(WAIT).until(() -> fx(() -> !progress.getItems().isEmpty() && progress.getItems().stream()
                .map(Object::toString).noneMatch(r -> r.contains("attempts=0,"))));
        // Under way: the node's bar says so and counts the pods gone; the database VMI's pod waits for its migration.
        bothThemes(shots, "drain-progress", "Drain " + node, "Draining", " pods gone", "waiting for migration",
                "virt-launcher-database-", "Waiting for migration", "Cancel drain");
        robot.clickOn("#drainHide");

        String other = session.model().nodes().stream().map(n -> n.name()).filter(n -> !n.equals(node)).findFirst().orElseThrow();
        select(robot, other);
        robot.press(KeyCode.T).release(KeyCode.T);
        await().atMost(WAIT).until(() -> fx(() -> robot.lookup("#taintDialog").tryQuery().isPresent()));
        robot.clickOn("#taintKey").write("maintenance window");
        robot.clickOn("#taintValue").write("tonight");
        // The key refused as the API server would refuse it.
        bothThemes(shots, "taint-dialog", "Taints of " + other, "maintenance window", "tonight",
                "name part must consist of alphanumeric characters", "Add kubevirt.io/drain:NoSchedule");
        shots.assertAllTaken();
    }

    @Test
    void scaleDialogLightAndDark(FxRobot robot) {
        ScreenshotRun shots = ScreenshotRun.of("scale-dialog-light", "scale-dialog-dark",
                "scale-dialog-refused-light", "scale-dialog-refused-dark");
        Session session = UiSteps.connect(robot, console);
        await().atMost(WAIT).until(() -> fx(() -> session.model().replicaSets().stream()
                .anyMatch(r -> r.name().equals("workers") && r.ready() == 3)));
        fx(() -> {
            console.shellProperty().get().reveal(new ObjectRef(ObjectRef.Kind.VMIRS, "demo", "workers"));
            return null;
        });
        WaitForAsyncUtils.waitForFxEvents();
        fx(() -> {
            robot.lookup("#replicaSetsTable").query().requestFocus();
            return null;
        });
        WaitForAsyncUtils.waitForFxEvents();
        robot.press(KeyCode.S).release(KeyCode.S);
        await().atMost(WAIT).until(() -> UiSteps.visible(robot, "#scaleDialog"));
        robot.clickOn("#scaleReplicasField");
        robot.press(KeyCode.CONTROL, KeyCode.A).release(KeyCode.A, KeyCode.CONTROL);
        robot.write("5");
        bothThemes(shots, "scale-dialog", "Scale workers", "3 desired, 3 current, 3 ready", "Replicas",
                "2 more VMIs will be created from the template.");
        robot.press(KeyCode.CONTROL, KeyCode.A).release(KeyCode.A, KeyCode.CONTROL);
        robot.write("-2");
        bothThemes(shots, "scale-dialog-refused", "Scale workers", "-2", "Replicas must be 0 or more; got -2");
        shots.assertAllTaken();
    }

    private void select(FxRobot robot, String node) {
        fx(() -> {
            console.shellProperty().get().show(ViewId.NODES);
            console.shellProperty().get().reveal(ObjectRef.node(node));
            return null;
        });
        WaitForAsyncUtils.waitForFxEvents();
        fx(() -> {
            robot.lookup("#nodesTable").query().requestFocus();
            return null;
        });
        WaitForAsyncUtils.waitForFxEvents();
    }

    private void bothThemes(ScreenshotRun shots, String name, String... shows) {
        shots.take(console, name + "-light", shows);
        fx(() -> {
            console.theme().toggle();
            return null;
        });
        shots.take(console, name + "-dark", shows);
        fx(() -> {
            console.theme().toggle();
            return null;
        });
    }
}
