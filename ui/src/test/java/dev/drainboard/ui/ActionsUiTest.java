package dev.drainboard.ui;

import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceMigration;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceMigrationSpec;
import dev.drainboard.ui.actions.AccessDecision;
import dev.drainboard.ui.common.Badge;
import dev.drainboard.ui.common.Notifier;
import dev.drainboard.ui.connect.Session;
import dev.drainboard.ui.dialogs.ActionButton;
import dev.drainboard.ui.dialogs.ActionCenter;
import dev.drainboard.ui.drain.DrainSummary;
import dev.drainboard.ui.model.NodeRow;
import dev.drainboard.ui.model.ObjectRef;
import dev.drainboard.ui.shell.ViewId;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.client.KubernetesClient;
import javafx.scene.control.Button;
import javafx.scene.control.CheckBox;
import javafx.scene.control.Label;
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

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.prefs.BackingStoreException;

import static dev.drainboard.ui.ConsoleUiTest.fx;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The console's actions as an operator uses them, headless, on the embedded demo cluster. */
@ExtendWith(ApplicationExtension.class)
class ActionsUiTest {

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
    void cordonAskedWithCAndConfirmedShowsTheNodeCordoned(FxRobot robot) {
        Session session = connect(robot);
        selectNode(robot, "node01");

        robot.press(KeyCode.C).release(KeyCode.C);
        await().atMost(WAIT).until(() -> visible(robot, "#confirmCordon"));
        assertThat(text(robot, "#confirmMessage")).contains("node01");
        robot.clickOn("#confirmOk");

        TableView<NodeRow> nodes = robot.lookup("#nodesTable").queryTableView();
        await().atMost(WAIT).until(() -> fx(() -> nodes.getItems().stream()
                .anyMatch(n -> n.name().equals("node01") && n.status().equals("Ready,SchedulingDisabled"))));
        assertThat(session.client().nodes().withName("node01").get().getSpec().getUnschedulable()).isTrue();
        await().atMost(WAIT).until(() -> toasts().stream().anyMatch(t -> t.tone() == Badge.Tone.SUCCESS
                && t.title().equals("Cordoned node01") && t.message().equals("node/node01 cordoned")));
        assertThat(visible(robot, "#confirmCordon")).isFalse();
    }

    @Test
    void aCancelledConfirmationWritesNothing(FxRobot robot) {
        Session session = connect(robot);
        selectNode(robot, "node02");

        robot.press(KeyCode.C).release(KeyCode.C);
        await().atMost(WAIT).until(() -> visible(robot, "#confirmCordon"));
        robot.clickOn("#confirmCancel");

        await().atMost(WAIT).until(() -> !visible(robot, "#confirmCordon"));
        UiSteps.awaitActionsAnswered(console);
        assertThat(session.client().nodes().withName("node02").get().getSpec().getUnschedulable()).isNotEqualTo(Boolean.TRUE);
        assertThat(toasts()).isEmpty();
    }

    @Test
    void theTaintDialogRefusesAnInvalidKeyInPlaceAndWritesAValidOne(FxRobot robot) {
        Session session = connect(robot);
        selectNode(robot, "node03");
        robot.press(KeyCode.T).release(KeyCode.T);
        await().atMost(WAIT).until(() -> visible(robot, "#taintDialog"));

        robot.clickOn("#taintKey").write("bad key!");
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(visible(robot, "#taintKeyError")).isTrue();
        assertThat(text(robot, "#taintKeyError")).contains("name part must consist of alphanumeric characters");
        assertThat(robot.lookup("#taintApply").queryButton().isDisabled()).isTrue();
        robot.clickOn("#taintValue").write("-bad-");
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(text(robot, "#taintValueError")).contains("a valid label must be an empty string");
        UiSteps.awaitActionsAnswered(console);
        assertThat(taints(session.client(), "node03")).isEmpty();

        fx(() -> {
            robot.lookup("#taintKey").queryAs(TextField.class).setText("example.com/maintenance");
            robot.lookup("#taintValue").queryAs(TextField.class).setText("window-1");
            return null;
        });
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(visible(robot, "#taintKeyError")).isFalse();
        assertThat(robot.lookup("#taintApply").queryButton().isDisabled()).isFalse();
        robot.clickOn("#taintApply");

        await().atMost(WAIT).until(() -> taints(session.client(), "node03").contains("example.com/maintenance=window-1:NoSchedule"));
        await().atMost(WAIT).until(() -> !visible(robot, "#taintDialog"));
        assertThat(toasts()).anyMatch(t -> t.title().equals("Tainted node03") && t.message().equals("node/node03 tainted"));

        // One click for KubeVirt's drain taint; then untaint by picking the first one.
        await().atMost(WAIT).until(() -> fx(() -> modelNode(session, "node03").taints().size() == 1));
        selectNode(robot, "node03");
        robot.press(KeyCode.T).release(KeyCode.T);
        await().atMost(WAIT).until(() -> visible(robot, "#taintDialog"));
        robot.clickOn("#taintDrainShortcut");
        await().atMost(WAIT).until(() -> taints(session.client(), "node03").contains("kubevirt.io/drain:NoSchedule"));

        await().atMost(WAIT).until(() -> fx(() -> modelNode(session, "node03").taints().size() == 2));
        selectNode(robot, "node03");
        robot.press(KeyCode.T).release(KeyCode.T);
        await().atMost(WAIT).until(() -> visible(robot, "#taintDialog"));
        fx(() -> {
            ListView<String> list = robot.lookup("#taintExisting").queryListView();
            list.getSelectionModel().select("example.com/maintenance=window-1:NoSchedule");
            return null;
        });
        robot.clickOn("#taintRemove");
        await().atMost(WAIT).until(() -> taints(session.client(), "node03").equals(Set.of("kubevirt.io/drain:NoSchedule")));
    }

    @Test
    void aDrainGoesFromPreviewToDrainedWithPerPodProgressAndANotification(FxRobot robot) {
        Session session = connect(robot);
        KubernetesClient client = session.client();
        await().atMost(WAIT).until(() -> client.resources(VirtualMachineInstance.class).inNamespace("demo").list().getItems()
                .stream().allMatch(v -> "Running".equals(v.getStatus() == null ? null : v.getStatus().getPhase())));
        String node = client.resources(VirtualMachineInstance.class).inNamespace("demo").withName("database").get()
                .getStatus().getNodeName();
        // VMIs that keep a drain from ever finishing (not migratable with LiveMigrate, External) leave the node first,
        // and so does the replica set pinned to it (its replacements would have nowhere to run: a blocker).
        for (String blocker : List.of("ledger", "legacy-erp", "appliance")) {
            VirtualMachineInstance vmi = client.resources(VirtualMachineInstance.class).inNamespace("demo").withName(blocker).get();
            if (vmi != null && node.equals(vmi.getStatus().getNodeName())) {
                client.resources(VirtualMachineInstance.class).inNamespace("demo").withName(blocker).delete();
            }
        }
        UiSteps.removeStranding(client, node);
        selectNode(robot, node);
        robot.press(KeyCode.D).release(KeyCode.D);
        await().atMost(WAIT).until(() -> visible(robot, "#drainDialog"));

        // The preview: DaemonSet pods keep the drain from starting until "Ignore DaemonSets" is ticked.
        TableView<?> preview = robot.lookup("#drainPreviewTable").queryTableView();
        await().atMost(WAIT).until(() -> fx(() -> !preview.getItems().isEmpty()));
        await().atMost(WAIT).until(() -> visible(robot, "#drainProblems"));
        assertThat(fx(() -> robot.lookup("#drainProblems .label").queryAllAs(Label.class).stream().map(Label::getText).toList()))
                .anyMatch(t -> t.contains("cannot delete DaemonSet-managed Pods") && t.contains("Ignore DaemonSets"));
        assertThat(robot.lookup("#drainStart").queryButton().isDisabled()).isTrue();
        assertThat(fx(() -> preview.getItems().stream().map(Object::toString).toList()))
                .anyMatch(row -> row.contains("LIVE_MIGRATION") && row.contains("database"));

        for (String box : List.of("#drainIgnoreDaemonSets", "#drainDeleteEmptyDir", "#drainForce")) {
            fx(() -> {
                robot.lookup(box).queryAs(CheckBox.class).setSelected(true);
                return null;
            });
        }
        await().atMost(WAIT).until(() -> !visible(robot, "#drainProblems")
                && !fx(() -> robot.lookup("#drainStart").queryButton().isDisabled()));
        robot.clickOn("#drainStart");

        TableView<?> progress = robot.lookup("#drainProgressTable").queryTableView();
        await().atMost(WAIT).until(() -> visible(robot, "#drainProgressTable") && fx(() -> !progress.getItems().isEmpty()));
        assertThat(robot.lookup("#drainBar-" + node).tryQuery()).isPresent();
        await().atMost(Duration.ofSeconds(120)).until(() -> visible(robot, "#drainEndState"));
        assertThat(fx(() -> console.actionsProperty().get().dialogs().current()))
                .isInstanceOfSatisfying(dev.drainboard.ui.drain.DrainDialog.class,
                        d -> assertThat(d.endState().get()).isEqualTo(DrainSummary.EndState.DRAINED));
        assertThat(text(robot, "#drainEndState")).contains(node + " drained");
        List<String> rows = fx(() -> progress.getItems().stream().map(Object::toString).toList());
        assertThat(rows).isNotEmpty().allMatch(r -> r.contains("state=GONE"));
        assertThat(rows).anyMatch(r -> r.contains("database") && !r.contains("attempts=0,"));
        await().atMost(WAIT).until(() -> toasts().stream().anyMatch(t -> t.tone() == Badge.Tone.SUCCESS
                && t.title().equals("Drain finished: " + node + " drained")));
        robot.clickOn("#drainClose");
        await().atMost(WAIT).until(() -> !visible(robot, "#drainDialog"));
    }

    @Test
    void aDrainHeldByABlockerCanBeCancelledAndSaysSo(FxRobot robot) {
        Session session = connect(robot);
        KubernetesClient client = session.client();
        await().atMost(WAIT).until(() -> {
            VirtualMachineInstance ledger = client.resources(VirtualMachineInstance.class).inNamespace("demo").withName("ledger").get();
            return ledger != null && ledger.getStatus() != null && "Running".equals(ledger.getStatus().getPhase());
        });
        String node = client.resources(VirtualMachineInstance.class).inNamespace("demo").withName("ledger").get()
                .getStatus().getNodeName();
        selectNode(robot, node);
        robot.press(KeyCode.D).release(KeyCode.D);
        await().atMost(WAIT).until(() -> visible(robot, "#drainDialog"));
        // "Allow stranded VMs" too: the ledger's node may also run the External VMI or the pinned replica set.
        for (String box : List.of("#drainIgnoreDaemonSets", "#drainDeleteEmptyDir", "#drainForce", "#drainAllowStranded")) {
            fx(() -> {
                robot.lookup(box).queryAs(CheckBox.class).setSelected(true);
                return null;
            });
        }
        await().atMost(WAIT).until(() -> !fx(() -> robot.lookup("#drainStart").queryButton().isDisabled()));
        assertThat(text(robot, "#drainStatus")).containsAnyOf("block", "Allowed");
        robot.clickOn("#drainStart");

        TableView<?> progress = robot.lookup("#drainProgressTable").queryTableView();
        await().atMost(WAIT).until(() -> fx(() -> progress.getItems().stream().map(Object::toString)
                .anyMatch(r -> r.contains("ledger") && r.contains("state=BLOCKED"))));
        robot.clickOn("#drainCancelRun");

        await().atMost(WAIT).until(() -> visible(robot, "#drainEndState"));
        assertThat(text(robot, "#drainEndState")).startsWith("Drain cancelled");
        await().atMost(WAIT).until(() -> toasts().stream().anyMatch(t -> t.tone() == Badge.Tone.WARNING
                && t.title().equals("Drain of " + node + " cancelled")));
        assertThat(client.pods().inNamespace("demo").withLabel("kubevirt.io", "virt-launcher").list().getItems())
                .as("the blocked launcher was never evicted").anyMatch(p -> p.getMetadata().getName().contains("ledger"));
    }

    @Test
    void evictingAVmisLauncherShowsTheWebhooksAnswerVerbatim(FxRobot robot) {
        Session session = connect(robot);
        await().atMost(WAIT).until(() -> fx(() -> session.model().vmis().stream()
                .anyMatch(v -> v.name().equals("database") && "Running".equals(v.phase()) && "True".equals(v.liveMigratable()))));
        fx(() -> {
            console.shellProperty().get().reveal(new ObjectRef(ObjectRef.Kind.VMI, "demo", "database"));
            return null;
        });
        WaitForAsyncUtils.waitForFxEvents();
        fx(() -> {
            robot.lookup("#vmisTable").query().requestFocus();
            return null;
        });
        WaitForAsyncUtils.waitForFxEvents();
        robot.press(KeyCode.E).release(KeyCode.E);

        await().atMost(WAIT).until(() -> visible(robot, "#confirmEvict"));
        assertThat(text(robot, "#confirmDetail")).contains("live migration of VMI database");
        robot.clickOn("#confirmOk");

        await().atMost(WAIT).until(() -> toasts().stream().anyMatch(t -> t.tone() == Badge.Tone.WARNING
                && t.message().contains("Eviction triggered evacuation of VMI \"demo/database\"")));
        await().atMost(WAIT).until(() -> fx(() -> session.model().vmis().stream()
                .anyMatch(v -> v.name().equals("database") && v.markedForEvacuation())));
    }

    @Test
    void anActionRbacForbidsIsDisabledWithTheReasonOnHover(FxRobot robot) {
        connect(robot);
        ActionCenter actions = fx(() -> console.actionsProperty().get());
        fx(() -> {
            actions.permissions().reviewWith(check -> check.resource().equals("nodes")
                    ? AccessDecision.denied(check, "RBAC: clusterrole \"viewer\" grants get, list, watch")
                    : AccessDecision.ALLOWED);
            return null;
        });
        selectNode(robot, "node01");
        await().atMost(WAIT).until(() -> fx(() -> robot.lookup("#action-cordon").queryButton().isDisabled()));

        String reason = fx(() -> robot.lookup("#action-cordon-wrap").queryAs(ActionButton.class).tooltipText());
        assertThat(reason).isEqualTo("Not allowed: your credentials may not patch nodes "
                + "(RBAC: clusterrole \"viewer\" grants get, list, watch)");
        assertThat(fx(() -> robot.lookup("#action-drain").queryButton().isDisabled())).isTrue();

        robot.press(KeyCode.C).release(KeyCode.C);
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(visible(robot, "#confirmCordon")).isFalse();
        assertThat(toasts()).anyMatch(t -> t.message().equals(reason));
    }

    @Test
    void aFailedMigrationIsNotified(FxRobot robot) {
        Session session = connect(robot);
        // virt-api admits a migration only of a VMI that exists: one that never gets a node, deleted under its migration.
        var vmis = session.client().resources(dev.drainboard.kubevirt.api.VirtualMachineInstance.class).inNamespace("demo");
        vmis.resource(io.fabric8.kubernetes.client.utils.Serialization.unmarshal("""
                apiVersion: kubevirt.io/v1
                kind: VirtualMachineInstance
                metadata: {name: doomed-vmi, namespace: demo}
                spec:
                  nodeSelector: {kubernetes.io/hostname: no-such-node}
                  domain: {devices: {}, memory: {guest: 64Mi}}
                """, dev.drainboard.kubevirt.api.VirtualMachineInstance.class)).create();
        VirtualMachineInstanceMigration doomed = new VirtualMachineInstanceMigration();
        doomed.setMetadata(new ObjectMetaBuilder().withNamespace("demo").withName("doomed").build());
        doomed.setSpec(new VirtualMachineInstanceMigrationSpec("doomed-vmi"));
        session.client().resources(VirtualMachineInstanceMigration.class).inNamespace("demo").resource(doomed).create();
        vmis.withName("doomed-vmi").delete();

        await().atMost(WAIT).until(() -> toasts().stream().anyMatch(t -> t.tone() == Badge.Tone.DANGER
                && t.title().equals("Migration of demo/doomed-vmi failed")));
    }

    // ---- helpers

    private Session connect(FxRobot robot) {
        robot.clickOn("#connectEmbedded");
        await().atMost(WAIT).until(() -> fx(() -> console.sessionProperty().get() != null));
        Session session = fx(() -> console.sessionProperty().get());
        await().atMost(WAIT).until(() -> fx(() -> session.model().synced().get() && session.model().nodes().size() == 4));
        return session;
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

    private static NodeRow modelNode(Session session, String name) {
        return session.model().nodes().stream().filter(n -> n.name().equals(name)).findFirst().orElseThrow();
    }

    private List<Notifier.Toast> toasts() {
        return fx(() -> List.copyOf(console.actionsProperty().get().notifier().history()));
    }

    private static boolean visible(FxRobot robot, String query) {
        return fx(() -> robot.lookup(query).tryQuery().map(n -> n.isVisible() && n.getScene() != null
                && n.getParent() != null && isShowing(n)).orElse(false));
    }

    private static boolean isShowing(javafx.scene.Node node) {
        for (javafx.scene.Node n = node; n != null; n = n.getParent()) {
            if (!n.isVisible()) {
                return false;
            }
        }
        return true;
    }

    private static String text(FxRobot robot, String query) {
        return fx(() -> robot.lookup(query).queryAs(Label.class).getText());
    }

    private static Set<String> taints(KubernetesClient client, String node) {
        List<Taint> taints = client.nodes().withName(node).get().getSpec().getTaints();
        return taints == null ? Set.of() : taints.stream().map(dev.drainboard.ops.Taints::describe)
                .collect(java.util.stream.Collectors.toSet());
    }
}
