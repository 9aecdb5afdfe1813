package dev.drainboard.ui;

import dev.drainboard.kubevirt.api.VirtualMachine;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceMigration;
import dev.drainboard.ops.MigrationTargets;
import dev.drainboard.ui.common.Badge;
import dev.drainboard.ui.connect.Session;
import dev.drainboard.ui.model.ObjectRef;
import dev.drainboard.ui.model.VmRow;
import dev.drainboard.ui.shell.ViewId;
import io.fabric8.kubernetes.client.KubernetesClient;
import javafx.scene.control.ListView;
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

import java.util.Map;
import java.util.prefs.BackingStoreException;

import static dev.drainboard.ui.ConsoleUiTest.fx;
import static dev.drainboard.ui.UiSteps.WAIT;
import static dev.drainboard.ui.UiSteps.text;
import static dev.drainboard.ui.UiSteps.toasts;
import static dev.drainboard.ui.UiSteps.visible;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What an operator does with VMs on the demo cluster, headless: stop, start and restart the VM "web-frontend" from the
 * VMs view (Ctrl+Shift+V) and see its VMI go and come back; migrate a VMI to a node that fits, and see a node that
 * does not fit refused with the reason before anything is written.
 */
@ExtendWith(ApplicationExtension.class)
class VmsUiTest {

    private static final String VM = "web-frontend";

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
    void stopStartAndRestartAVmFromTheVmsView(FxRobot robot) {
        Session session = UiSteps.connect(robot, console);
        KubernetesClient client = session.client();
        robot.press(KeyCode.CONTROL, KeyCode.SHIFT, KeyCode.V).release(KeyCode.V, KeyCode.SHIFT, KeyCode.CONTROL);
        await().atMost(WAIT).until(() -> visible(robot, "#vmsTable"));
        TableView<VmRow> table = robot.lookup("#vmsTable").queryTableView();
        await().atMost(WAIT).until(() -> fx(() -> row(table) != null && row(table).printableStatus().equals("Running")
                && !row(table).node().isEmpty()));
        assertThat(fx(() -> row(table).runStrategy())).isEqualTo("Always");
        select(robot);

        // Stop is confirmed first; Cancel writes nothing.
        robot.press(KeyCode.T).release(KeyCode.T);
        await().atMost(WAIT).until(() -> visible(robot, "#confirmStopVm"));
        assertThat(text(robot, "#confirmMessage")).contains("demo/" + VM).contains("Always, Running");
        robot.clickOn("#confirmCancel");
        UiSteps.awaitActionsAnswered(console);
        assertThat(runStrategy(client)).isEqualTo("Always");

        robot.press(KeyCode.T).release(KeyCode.T);
        await().atMost(WAIT).until(() -> visible(robot, "#confirmStopVm"));
        robot.clickOn("#confirmOk");
        await().atMost(WAIT).until(() -> toasts(console).stream().anyMatch(t -> t.tone() == Badge.Tone.SUCCESS
                && t.title().equals("Stop of " + VM + " requested") && t.message().equals("virtualmachine/" + VM + " stopped")));
        assertThat(runStrategy(client)).isEqualTo("Halted");
        await().atMost(WAIT).until(() -> vmi(client) == null);
        await().atMost(WAIT).until(() -> fx(() -> row(table).printableStatus().equals("Stopped") && row(table).node().isEmpty()));
        assertFocusOnTheVm(table);

        // Restart of a stopped VM (now Halted) is refused by virt-api, with its words.
        robot.press(KeyCode.R).release(KeyCode.R);
        await().atMost(WAIT).until(() -> visible(robot, "#confirmRestartVm"));
        robot.clickOn("#confirmOk");
        await().atMost(WAIT).until(() -> toasts(console).stream().anyMatch(t -> t.tone() == Badge.Tone.DANGER
                && t.title().equals("Cannot restart " + VM)
                && t.message().equals("Operation cannot be fulfilled on virtualmachine.kubevirt.io \"" + VM
                        + "\": RunStategy Halted does not support manual restart requests")));
        assertFocusOnTheVm(table);

        robot.press(KeyCode.S).release(KeyCode.S);
        await().atMost(WAIT).until(() -> toasts(console).stream().anyMatch(t -> t.title().equals("Start of " + VM + " requested")));
        await().atMost(WAIT).until(() -> vmi(client) != null && "Running".equals(vmi(client).getStatus().getPhase()));
        await().atMost(WAIT).until(() -> fx(() -> row(table).printableStatus().equals("Running") && !row(table).node().isEmpty()));
        assertThat(runStrategy(client)).isEqualTo("Always");
        assertFocusOnTheVm(table);

        // Start of a running VM: virt-api's refusal, as it came.
        robot.press(KeyCode.S).release(KeyCode.S);
        await().atMost(WAIT).until(() -> toasts(console).stream().anyMatch(t -> t.tone() == Badge.Tone.DANGER
                && t.title().equals("Cannot start " + VM)
                && t.message().equals("Operation cannot be fulfilled on virtualmachine.kubevirt.io \"" + VM + "\": VM is already running")));

        String before = vmi(client).getMetadata().getUid();
        robot.press(KeyCode.R).release(KeyCode.R);
        await().atMost(WAIT).until(() -> visible(robot, "#confirmRestartVm"));
        robot.clickOn("#confirmOk");
        await().atMost(WAIT).until(() -> {
            VirtualMachineInstance now = vmi(client);
            return now != null && !now.getMetadata().getUid().equals(before) && "Running".equals(now.getStatus().getPhase());
        });
        await().atMost(WAIT).until(() -> fx(() -> row(table).printableStatus().equals("Running")));
        assertFocusOnTheVm(table);
    }

    @Test
    void migrateAVmiToANodeThatFitsAndNotToOneThatDoesNot(FxRobot robot) {
        Session session = UiSteps.connect(robot, console);
        KubernetesClient client = session.client();
        session.embeddedCluster().orElseThrow().setKubeVirtVersion("v1.6.0");
        await().atMost(WAIT).until(() -> vmi(client) != null && "Running".equals(vmi(client).getStatus().getPhase()));
        String source = vmi(client).getStatus().getNodeName();
        // A node the VMI cannot go to: cordoned.
        String cordoned = source.equals("node04") ? "node03" : "node04";
        client.nodes().withName(cordoned).edit(n -> {
            n.getSpec().setUnschedulable(true);
            return n;
        });
        fx(() -> {
            console.shellProperty().get().reveal(new ObjectRef(ObjectRef.Kind.VMI, "demo", VM));
            return null;
        });
        WaitForAsyncUtils.waitForFxEvents();
        fx(() -> {
            robot.lookup("#vmisTable").query().requestFocus();
            return null;
        });
        WaitForAsyncUtils.waitForFxEvents();

        robot.press(KeyCode.N).release(KeyCode.N);
        await().atMost(WAIT).until(() -> visible(robot, "#migrateToNodeDialog"));
        ListView<MigrationTargets.Fit> list = robot.lookup("#migrateTargets").queryListView();
        await().atMost(WAIT).until(() -> fx(() -> list.getItems().size() == 4));
        MigrationTargets.Fit here = fx(() -> list.getItems().stream().filter(f -> f.node().equals(source)).findFirst().orElseThrow());
        assertThat(here.fits()).isFalse();
        assertThat(here.why()).isEqualTo("the VMI runs on this node");

        fx(() -> {
            list.getSelectionModel().select(list.getItems().stream().filter(f -> f.node().equals(cordoned)).findFirst().orElseThrow());
            return null;
        });
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(fx(() -> robot.lookup("#migrateOk").queryButton().isDisabled())).isTrue();
        assertThat(text(robot, "#migrateVerdict")).startsWith("Cannot migrate to " + cordoned + ": ").contains("unschedulable");

        String target = fx(() -> list.getItems().stream().filter(MigrationTargets.Fit::fits).findFirst().orElseThrow().node());
        fx(() -> {
            list.getSelectionModel().select(list.getItems().stream().filter(f -> f.node().equals(target)).findFirst().orElseThrow());
            return null;
        });
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(fx(() -> robot.lookup("#migrateOk").queryButton().isDisabled())).isFalse();
        assertThat(text(robot, "#migrateVerdict")).isEqualTo("A migration to " + target
                + " is created (addedNodeSelector kubernetes.io/hostname=" + target + ").");
        robot.clickOn("#migrateOk");

        await().atMost(WAIT).until(() -> toasts(console).stream().anyMatch(t -> t.tone() == Badge.Tone.SUCCESS
                && t.title().equals("Migration of " + VM + " to " + target + " requested")));
        assertThat(visible(robot, "#migrateToNodeDialog")).isFalse();
        assertThat(client.resources(VirtualMachineInstanceMigration.class).inNamespace("demo").list().getItems())
                .anySatisfy(m -> assertThat(m.getSpec().getAddedNodeSelector()).isEqualTo(Map.of("kubernetes.io/hostname", target)));
        await().atMost(WAIT).until(() -> target.equals(vmi(client).getStatus().getNodeName()));
    }

    private void select(FxRobot robot) {
        fx(() -> {
            console.shellProperty().get().reveal(new ObjectRef(ObjectRef.Kind.VM, "demo", VM));
            return null;
        });
        WaitForAsyncUtils.waitForFxEvents();
        fx(() -> {
            robot.lookup("#vmsTable").query().requestFocus();
            return null;
        });
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(fx(() -> console.shellProperty().get().current())).isEqualTo(ViewId.VMS);
    }

    /** After an action the keyboard is back on the table, on the VM acted on (not in the filter box). */
    private static void assertFocusOnTheVm(TableView<VmRow> table) {
        WaitForAsyncUtils.waitForFxEvents();
        await().atMost(WAIT).until(() -> fx(() -> table.isFocused() && table.getSelectionModel().getSelectedItem() != null
                && table.getSelectionModel().getSelectedItem().name().equals(VM)));
    }

    private static VmRow row(TableView<VmRow> table) {
        return table.getItems().stream().filter(r -> r.name().equals(VM)).findFirst().orElse(null);
    }

    private static String runStrategy(KubernetesClient client) {
        return client.resources(VirtualMachine.class).inNamespace("demo").withName(VM).get().getSpec().getRunStrategy();
    }

    private static VirtualMachineInstance vmi(KubernetesClient client) {
        return client.resources(VirtualMachineInstance.class).inNamespace("demo").withName(VM).get();
    }
}
