package dev.drainboard.ui;

import dev.drainboard.ui.actions.ClusterActions;
import dev.drainboard.ui.connect.ConnectTarget;
import dev.drainboard.ui.connect.Connector;
import dev.drainboard.ui.connect.ModeChoice;
import dev.drainboard.ui.connect.Session;
import dev.drainboard.ui.dialogs.ActionButton;
import dev.drainboard.ui.dialogs.ActionCenter;
import dev.drainboard.ui.dialogs.ConsoleAction;
import dev.drainboard.ui.model.MigrationRow;
import dev.drainboard.ui.model.NodeRow;
import dev.drainboard.ui.model.ObjectRef;
import dev.drainboard.ui.model.ReplicaSetRow;
import dev.drainboard.ui.model.VmiRow;
import dev.drainboard.ui.shell.ViewId;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.KubernetesClient;
import javafx.scene.control.ListView;
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
import static dev.drainboard.ui.UiSteps.visible;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The flow of work as an operator keeps it going from the keyboard: focus after actions, disconnecting, Observe. */
@ExtendWith(ApplicationExtension.class)
class OperatorFlowUiTest {

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
    void afterACordonTheNextKeyActsOnTheSameRowNotTheFilter(FxRobot robot) {
        Session session = UiSteps.connect(robot, console);
        selectNode(robot, "node01");

        robot.press(KeyCode.C).release(KeyCode.C);
        await().atMost(WAIT).until(() -> visible(robot, "#confirmCordon"));
        robot.press(KeyCode.ENTER).release(KeyCode.ENTER);
        await().atMost(WAIT).until(() -> Boolean.TRUE.equals(node(session.client(), "node01").getSpec().getUnschedulable()));
        await().atMost(WAIT).until(() -> !visible(robot, "#confirmCordon"));
        WaitForAsyncUtils.waitForFxEvents();

        TableView<?> table = robot.lookup("#nodesTable").queryTableView();
        await().atMost(WAIT).until(() -> fx(() -> console.scene().getFocusOwner() == table));
        assertThat(fx(() -> ((NodeRow) table.getFocusModel().getFocusedItem()).name())).isEqualTo("node01");

        // The tile's context menu offers what the node's state allows: Uncordon, not Cordon.
        await().atMost(WAIT).until(() -> fx(() -> session.model().nodes().stream()
                .anyMatch(n -> n.name().equals("node01") && n.cordoned())));
        List<String> menu = fx(() -> console.actionsProperty().get().nodeMenu(session.model().nodes().stream()
                .filter(n -> n.name().equals("node01")).findFirst().orElseThrow()).getItems().stream()
                .map(javafx.scene.control.MenuItem::getId).toList());
        assertThat(menu).contains("menu-uncordon", "menu-drain", "menu-taint").doesNotContain("menu-cordon");

        robot.press(KeyCode.U).release(KeyCode.U);
        await().atMost(WAIT).until(() -> visible(robot, "#confirmUncordon"));
        assertThat(fx(() -> robot.lookup("#confirmMessage").queryLabeled().getText())).contains("node01");
        robot.press(KeyCode.ENTER).release(KeyCode.ENTER);
        await().atMost(WAIT).until(() -> !Boolean.TRUE.equals(node(session.client(), "node01").getSpec().getUnschedulable()));
        assertThat(fx(() -> robot.lookup("#nodesTableFilter").queryAs(TextField.class).getText()))
                .isEmpty();
        await().atMost(WAIT).until(() -> fx(() -> console.scene().getFocusOwner() == table));
    }

    @Test
    void disconnectAsksAndRecentReconnectsToTheSameEmbeddedCluster(FxRobot robot) {
        String promised = fx(() -> robot.lookup("#scenarioDemo").queryLabeled().getText());
        java.util.regex.Matcher count = java.util.regex.Pattern.compile("(\\d+) VMIs").matcher(promised);
        assertThat(count.find()).as(promised).isTrue();
        Session first = UiSteps.connect(robot, console);
        // The start screen's count is what the cluster then shows (VMIs of the VM and the replica set included).
        await().atMost(WAIT).until(() -> fx(() -> first.model().vmis().size() == Integer.parseInt(count.group(1))));
        first.client().nodes().withName("node02").edit(n -> {
            n.getSpec().setUnschedulable(true);
            return n;
        });
        String server = first.info().server();

        robot.clickOn("#disconnect");
        await().atMost(WAIT).until(() -> visible(robot, "#confirmDisconnect"));
        assertThat(fx(() -> robot.lookup("#confirmMessage").queryLabeled().getText()))
                .contains("keeps running until the console quits");
        robot.clickOn("#confirmCancel");
        await().atMost(WAIT).until(() -> !visible(robot, "#confirmDisconnect"));
        assertThat(fx(() -> console.sessionProperty().get())).isSameAs(first);

        robot.clickOn("#disconnect");
        await().atMost(WAIT).until(() -> visible(robot, "#confirmDisconnect"));
        robot.clickOn("#confirmOk");
        await().atMost(WAIT).until(() -> fx(() -> console.sessionProperty().get() == null));

        ListView<?> recent = robot.lookup("#recentList").queryListView();
        await().atMost(WAIT).until(() -> fx(() -> !recent.getItems().isEmpty()));
        assertThat(fx(() -> recent.getItems().getFirst())).isInstanceOf(ConnectTarget.Embedded.class);
        fx(() -> {
            recent.getSelectionModel().select(0);
            return null;
        });
        robot.doubleClickOn(fx(() -> recent.lookup(".list-cell")));
        await().atMost(WAIT).until(() -> fx(() -> console.sessionProperty().get() != null));
        Session second = fx(() -> console.sessionProperty().get());
        await().atMost(WAIT).until(() -> fx(() -> second.model().synced().get() && second.model().nodes().size() == 4));

        assertThat(second.info().server()).isEqualTo(server);
        assertThat(node(second.client(), "node02").getSpec().getUnschedulable()).isTrue();
        await().atMost(WAIT).until(() -> fx(() -> second.model().nodes().stream()
                .anyMatch(n -> n.name().equals("node02") && n.status().contains("SchedulingDisabled"))));
    }

    @Test
    void observeModeDisablesEveryActionWithTheReasonAndWritesNothing(FxRobot robot) {
        fx(() -> {
            console.connect(new ConnectTarget.Embedded("demo"), ModeChoice.OBSERVE, Connector.MissingCrds.FAIL);
            return null;
        });
        await().atMost(WAIT).until(() -> fx(() -> console.sessionProperty().get() != null));
        Session session = fx(() -> console.sessionProperty().get());
        await().atMost(WAIT).until(() -> fx(() -> session.model().synced().get() && session.model().nodes().size() == 4
                && !session.model().vmis().isEmpty() && !session.model().replicaSets().isEmpty()));
        KubernetesClient client = session.client();
        String before = snapshot(client);

        selectNode(robot, "node01");
        await().atMost(WAIT).until(() -> fx(() -> robot.lookup("#action-cordon").queryButton().isDisabled()));
        assertThat(fx(() -> robot.lookup("#action-cordon-wrap").queryAs(ActionButton.class).tooltipText()))
                .isEqualTo(ClusterActions.OBSERVE_REASON);
        for (KeyCode key : List.of(KeyCode.C, KeyCode.U, KeyCode.D, KeyCode.T)) {
            robot.press(key).release(key);
            WaitForAsyncUtils.waitForFxEvents();
            assertThat(fx(() -> console.actionsProperty().get().dialogs().isShowing())).as("no dialog for " + key).isFalse();
        }

        ActionCenter center = fx(() -> console.actionsProperty().get());
        NodeRow node = fx(() -> session.model().nodes().getFirst());
        VmiRow vmi = fx(() -> session.model().vmis().getFirst()); // none runs: Observe starts no controllers
        ReplicaSetRow rs = fx(() -> session.model().replicaSets().getFirst());
        for (ConsoleAction a : List.of(ConsoleAction.CORDON, ConsoleAction.UNCORDON, ConsoleAction.DRAIN, ConsoleAction.TAINT)) {
            assertThat(fx(() -> center.nodeActions().trigger(a, List.of(node)))).as(a.name()).isFalse();
        }
        for (ConsoleAction a : List.of(ConsoleAction.EVICT, ConsoleAction.MIGRATE, ConsoleAction.CANCEL_EVACUATION)) {
            assertThat(fx(() -> center.vmiActions().trigger(a, List.of(vmi)))).as(a.name()).isFalse();
        }
        assertThat(fx(() -> center.replicaSetActions().trigger(ConsoleAction.SCALE, List.of(rs)))).isFalse();
        assertThat(UiSteps.toasts(console)).isNotEmpty().allMatch(t -> t.message().contains(ClusterActions.OBSERVE_REASON));

        // Past the disabled controls (a dialog opened some other way): the confirmed write is still not sent.
        fx(() -> {
            center.cordon(List.of(node));
            return null;
        });
        await().atMost(WAIT).until(() -> visible(robot, "#confirmCordon"));
        robot.clickOn(fx(() -> center.dialogs().current().primaryButton()));
        await().atMost(WAIT).until(() -> fx(() -> !center.dialogs().isShowing()) && !visible(robot, "#confirmCordon"));
        fx(() -> {
            center.migrate(vmi);
            return null;
        });
        await().atMost(WAIT).until(() -> visible(robot, "#confirmMigrate"));
        robot.clickOn(fx(() -> center.dialogs().current().primaryButton()));
        UiSteps.awaitActionsAnswered(console);
        await().atMost(WAIT).until(() -> UiSteps.toasts(console).stream()
                .anyMatch(t -> t.title().startsWith("Cannot migrate") && t.message().equals(ClusterActions.OBSERVE_REASON)));
        assertThat(snapshot(client)).isEqualTo(before);
    }

    // ---- helpers

    /** What an action could change: nodes' cordons and taints, VMIs' evacuation marks, migrations, replica counts. */
    private static String snapshot(KubernetesClient client) {
        StringBuilder s = new StringBuilder();
        client.nodes().list().getItems().forEach(n -> s.append(n.getMetadata().getName()).append(' ')
                .append(n.getSpec().getUnschedulable()).append(' ').append(n.getSpec().getTaints()).append('\n'));
        client.resources(dev.drainboard.kubevirt.api.VirtualMachineInstance.class).inAnyNamespace().list().getItems()
                .forEach(v -> s.append(v.getMetadata().getName()).append(' ')
                        .append(v.getStatus() == null ? null : v.getStatus().getEvacuationNodeName()).append('\n'));
        s.append(client.resources(dev.drainboard.kubevirt.api.VirtualMachineInstanceMigration.class).inAnyNamespace()
                .list().getItems().size()).append(" migrations\n");
        client.genericKubernetesResources("kubevirt.io/v1", "VirtualMachineInstanceReplicaSet").inAnyNamespace().list()
                .getItems().forEach(r -> s.append(r.getMetadata().getName()).append(' ')
                        .append(((java.util.Map<?, ?>) r.getAdditionalProperties().get("spec")).get("replicas")).append('\n'));
        return s.toString();
    }

    private static Node node(KubernetesClient client, String name) {
        return client.nodes().withName(name).get();
    }

    private void selectNode(FxRobot robot, String node) {
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
        assertThat(fx(() -> robot.lookup("#nodesTable").queryTableView().getSelectionModel().getSelectedItems()
                .stream().map(r -> ((NodeRow) r).name()).toList())).containsExactly(node);
    }
}
