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

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.prefs.BackingStoreException;

import static dev.drainboard.ui.ConsoleUiTest.fx;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * PNGs of the action dialogs, light and dark, from the running console on the demo scenario: the drain dialog's
 * preview and its live progress, the taint dialog refusing an invalid key, and the scale dialog (a valid count and a
 * refused one). Node pressure has its own: {@link PressureScreenshotsTest}. Same output folder as
 * {@link ScreenshotsTest} ({@code -Ddrainboard.screenshots=DIR}).
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
    void drainAndTaintDialogsLightAndDark(FxRobot robot) throws IOException {
        Path dir = Path.of(System.getProperty("drainboard.screenshots", "target/screenshots"));
        Files.createDirectories(dir);
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

        select(robot, node);
        robot.press(KeyCode.D).release(KeyCode.D);
        TableView<?> preview = robot.lookup("#drainPreviewTable").queryTableView();
        await().atMost(WAIT).until(() -> fx(() -> !preview.getItems().isEmpty()));
        fx(() -> {
            robot.lookup("#drainIgnoreDaemonSets").queryAs(CheckBox.class).setSelected(true);
            return null;
        });
        await().pollDelay(Duration.ofMillis(600)).atMost(WAIT).until(() -> fx(() -> !preview.getItems().isEmpty()));
        bothThemes(robot, dir, "drain-preview");

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
        bothThemes(robot, dir, "drain-progress");
        robot.clickOn("#drainHide");

        String other = session.model().nodes().stream().map(n -> n.name()).filter(n -> !n.equals(node)).findFirst().orElseThrow();
        select(robot, other);
        robot.press(KeyCode.T).release(KeyCode.T);
        await().atMost(WAIT).until(() -> fx(() -> robot.lookup("#taintDialog").tryQuery().isPresent()));
        robot.clickOn("#taintKey").write("maintenance window");
        robot.clickOn("#taintValue").write("tonight");
        bothThemes(robot, dir, "taint-dialog");
        assertThat(Files.list(dir).filter(p -> p.getFileName().toString().startsWith("drain-")).count()).isGreaterThanOrEqualTo(4);
    }

    @Test
    void scaleDialogLightAndDark(FxRobot robot) throws IOException {
        Path dir = Path.of(System.getProperty("drainboard.screenshots", "target/screenshots"));
        Files.createDirectories(dir);
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
        bothThemes(robot, dir, "scale-dialog");
        robot.press(KeyCode.CONTROL, KeyCode.A).release(KeyCode.A, KeyCode.CONTROL);
        robot.write("-2");
        bothThemes(robot, dir, "scale-dialog-refused");
        assertThat(dir.resolve("scale-dialog-dark.png")).exists();
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

    private void bothThemes(FxRobot robot, Path dir, String name) throws IOException {
        ScreenshotsTest.snap(console, dir.resolve(name + "-light.png"));
        fx(() -> {
            console.theme().toggle();
            return null;
        });
        ScreenshotsTest.snap(console, dir.resolve(name + "-dark.png"));
        fx(() -> {
            console.theme().toggle();
            return null;
        });
    }
}
