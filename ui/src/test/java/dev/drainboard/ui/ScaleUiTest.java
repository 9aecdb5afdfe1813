package dev.drainboard.ui;

import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceReplicaSet;
import dev.drainboard.ui.common.Badge;
import dev.drainboard.ui.connect.Session;
import dev.drainboard.ui.model.ObjectRef;
import dev.drainboard.ui.model.ReplicaSetRow;
import dev.drainboard.ui.shell.CommandPalette;
import io.fabric8.kubernetes.client.KubernetesClient;
import javafx.scene.control.TableView;
import javafx.scene.control.TextField;
import javafx.scene.input.KeyCode;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

import java.util.List;
import java.util.prefs.BackingStoreException;

import static dev.drainboard.ui.ConsoleUiTest.fx;
import static dev.drainboard.ui.UiSteps.WAIT;
import static dev.drainboard.ui.UiSteps.text;
import static dev.drainboard.ui.UiSteps.toasts;
import static dev.drainboard.ui.UiSteps.visible;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Scaling the demo scenario's VMI replica set "workers" from the Replica sets view, headless. */
@ExtendWith(ApplicationExtension.class)
class ScaleUiTest {

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
    void aNegativeCountIsRefusedInPlaceAndWritesNothingThenAValidOneScalesTheSet(FxRobot robot) {
        Session session = UiSteps.connect(robot, console);
        KubernetesClient client = session.client();
        await().atMost(WAIT).until(() -> fx(() -> workers(session) != null && workers(session).current() == 3));
        selectWorkers(robot);

        robot.press(KeyCode.S).release(KeyCode.S);
        await().atMost(WAIT).until(() -> visible(robot, "#scaleDialog"));
        assertThat(fx(() -> field(robot).getText())).as("prefilled with the desired count").isEqualTo("3");
        assertThat(fx(() -> robot.lookup("#scaleOk").queryButton().isDisabled())).as("3 is no change").isTrue();

        type(robot, "-2");
        assertThat(visible(robot, "#scaleError")).isTrue();
        assertThat(text(robot, "#scaleError")).isEqualTo("Replicas must be 0 or more; got -2");
        assertThat(fx(() -> robot.lookup("#scaleOk").queryButton().isDisabled())).isTrue();
        robot.press(KeyCode.ENTER).release(KeyCode.ENTER); // Enter on a refused count does nothing either
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(visible(robot, "#scaleDialog")).isTrue();
        assertThat(fx(() -> field(robot).getText())).as("the operator's text is kept").isEqualTo("-2");

        type(robot, "2.5");
        assertThat(text(robot, "#scaleError")).isEqualTo("Replicas must be a whole number; got 2.5");
        type(robot, "");
        assertThat(text(robot, "#scaleError")).isEqualTo("Enter the number of replicas (0 or more)");
        assertThat(fx(() -> robot.lookup("#scaleOk").queryButton().isDisabled())).isTrue();
        UiSteps.awaitActionsAnswered(console);
        assertThat(specReplicas(client)).isEqualTo(3);
        assertThat(toasts(console)).isEmpty();

        type(robot, "5");
        assertThat(visible(robot, "#scaleError")).isFalse();
        assertThat(text(robot, "#scaleEffect")).isEqualTo("2 more VMIs will be created from the template.");
        assertThat(fx(() -> robot.lookup("#scaleOk").queryButton().isDisabled())).isFalse();
        robot.clickOn("#scaleOk");

        await().atMost(WAIT).until(() -> specReplicas(client) == 5);
        await().atMost(WAIT).until(() -> toasts(console).stream().anyMatch(t -> t.tone() == Badge.Tone.SUCCESS
                && t.title().equals("Scaled workers to 5")
                && t.message().equals("virtualmachineinstancereplicaset/workers scaled from 3 to 5")));
        assertThat(visible(robot, "#scaleDialog")).isFalse();
        // The controller creates the two VMIs; the table follows the set's status.
        TableView<ReplicaSetRow> table = robot.lookup("#replicaSetsTable").queryTableView();
        await().atMost(WAIT).until(() -> fx(() -> table.getItems().stream().anyMatch(r -> r.name().equals("workers")
                && r.desired() == 5 && r.current() == 5)));
        assertThat(client.resources(VirtualMachineInstance.class).inNamespace("demo").list().getItems().stream()
                .filter(v -> v.getMetadata().getName().startsWith("workers")).count()).isEqualTo(5);
    }

    @Test
    void theCommandPaletteOffersScalingAndTheDialogCancelsWithoutWriting(FxRobot robot) {
        Session session = UiSteps.connect(robot, console);
        await().atMost(WAIT).until(() -> fx(() -> workers(session) != null));
        // Listed even before the Replica sets view was ever opened (its permission is asked on the way).
        List<CommandPalette.Entry> entries = fx(() -> console.actionsProperty().get().paletteEntries());
        assertThat(entries).anySatisfy(e -> {
            assertThat(e.title()).isEqualTo("Scale workers…");
            assertThat(e.detail()).contains("demo").contains("key S");
        });

        robot.press(KeyCode.CONTROL, KeyCode.K).release(KeyCode.K, KeyCode.CONTROL);
        await().atMost(WAIT).until(() -> visible(robot, "#paletteField"));
        robot.write("scale workers");
        robot.press(KeyCode.ENTER).release(KeyCode.ENTER);
        await().atMost(WAIT).until(() -> visible(robot, "#scaleDialog"));
        type(robot, "0");
        assertThat(text(robot, "#scaleEffect")).contains("3 VMIs will be deleted");
        robot.press(KeyCode.ESCAPE).release(KeyCode.ESCAPE);
        await().atMost(WAIT).until(() -> !visible(robot, "#scaleDialog"));
        UiSteps.awaitActionsAnswered(console);
        assertThat(specReplicas(session.client())).isEqualTo(3);
        assertThat(toasts(console)).isEmpty();
    }

    private void selectWorkers(FxRobot robot) {
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
    }

    /** Replaces the field's text as typing would, and lets the dialog react. */
    private static void type(FxRobot robot, String text) {
        robot.clickOn("#scaleReplicasField");
        robot.press(KeyCode.CONTROL, KeyCode.A).release(KeyCode.A, KeyCode.CONTROL);
        robot.press(KeyCode.BACK_SPACE).release(KeyCode.BACK_SPACE);
        if (!text.isEmpty()) {
            robot.write(text);
        }
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(fx(() -> field(robot).getText())).isEqualTo(text);
    }

    private static TextField field(FxRobot robot) {
        return robot.lookup("#scaleReplicasField").queryAs(TextField.class);
    }

    private static ReplicaSetRow workers(Session session) {
        return session.model().replicaSets().stream().filter(r -> r.name().equals("workers")).findFirst().orElse(null);
    }

    private static int specReplicas(KubernetesClient client) {
        return client.resources(VirtualMachineInstanceReplicaSet.class).inNamespace("demo").withName("workers").get()
                .getSpec().getReplicas();
    }
}
