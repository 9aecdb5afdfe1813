package dev.drainboard.ui;

import dev.drainboard.maintenance.MaintenancePlan;
import dev.drainboard.maintenance.MaintenancePlanSpec;
import dev.drainboard.ops.maintenance.MaintenancePlans;
import dev.drainboard.ui.connect.Session;
import dev.drainboard.ui.model.MaintenancePlanRow;
import dev.drainboard.ui.shell.ViewId;
import io.fabric8.kubernetes.client.KubernetesClient;
import javafx.scene.Node;
import javafx.scene.control.ListView;
import javafx.scene.control.TableView;
import javafx.scene.input.KeyCode;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.prefs.BackingStoreException;

import static dev.drainboard.ui.ConsoleUiTest.fx;
import static dev.drainboard.ui.UiSteps.WAIT;
import static dev.drainboard.ui.UiSteps.text;
import static dev.drainboard.ui.UiSteps.visible;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The Maintenance view as an operator uses it, from the keyboard, on the embedded demo cluster: Ctrl+0 opens it, the
 * nodes are ticked with Space, the planner's preview appears, Ctrl+Enter creates the plan in the cluster, Ctrl+P
 * pauses and resumes it, Ctrl+Shift+A aborts it after a confirmation, Ctrl+E exports its report; a plan made
 * elsewhere (as kubectl would) shows up in the list. The console's controllers' leader runs the plan for real.
 */
@ExtendWith(ApplicationExtension.class)
class MaintenanceUiTest {

    private Console console;
    private TestConsole window;
    private Stage stage;

    @Start
    void start(Stage stage) {
        this.stage = stage;
        window = TestConsole.show(stage);
        console = window.console();
    }

    @AfterEach
    void tearDown() throws BackingStoreException {
        window.close();
    }

    @Test
    void planRunPauseResumeAbortAndExportFromTheKeyboard(FxRobot robot, @TempDir Path exports) throws Exception {
        Session session = UiSteps.connect(robot, console);
        KubernetesClient client = session.client();
        await().atMost(WAIT).until(() -> fx(() -> session.model().vmis().size() == 12
                && session.model().vmis().stream().allMatch(v -> v.phase().equals("Running"))));

        // The demo places some VMIs that cannot move on random nodes: node01 and node02 are cleared of them.
        clearStranding(client, List.of("node01", "node02"));

        keys(robot, KeyCode.CONTROL, KeyCode.DIGIT0);
        assertThat(fx(() -> console.shellProperty().get().current())).isEqualTo(ViewId.MAINTENANCE);
        assertThat(text(robot, "#viewTitle")).isEqualTo("Maintenance");
        assertThat(text(robot, "#maintenanceProblems")).isEqualTo("Pick the nodes to maintain, or give a label selector.");

        // Ctrl+N: the node list has the focus; Space ticks node01, then node02.
        keys(robot, KeyCode.CONTROL, KeyCode.N);
        await().atMost(WAIT).until(() -> "maintenanceNodePicker".equals(focusedId()));
        key(robot, KeyCode.HOME);
        key(robot, KeyCode.SPACE);
        key(robot, KeyCode.DOWN);
        key(robot, KeyCode.SPACE);
        // The preview is the planner's own answer (what `drainboard maintain --dry-run` prints).
        var expected = new MaintenancePlans(client).preview(new MaintenancePlanSpec(List.of("node01", "node02"), null, 1, null, null));
        await().atMost(WAIT).until(() -> text(robot, "#maintenanceTitle").equals("New plan (preview)"));
        assertThat(text(robot, "#maintenanceMigrations")).isEqualTo(expected.migrations() + " predicted");
        assertThat(text(robot, "#maintenanceTime")).endsWith(" predicted");
        assertThat(fx(() -> robot.lookup("#maintenanceOrder").<MaintenancePlanRow.NodeLane>queryTableView().getItems().stream()
                .map(MaintenancePlanRow.NodeLane::name).toList()))
                .isEqualTo(expected.nodes().stream().map(n -> n.name()).toList());
        assertThat(fx(() -> robot.lookup("#maintenanceMoves").queryTableView().getItems().size())).isEqualTo(expected.vms().size());
        assertThat(visible(robot, "#maintenanceStranded")).isEqualTo(expected.strands());
        assertThat(visible(robot, "#maintenanceOrderNote")).isTrue();

        // Each drained node waits for an annotation an upgrade would set (none does here: the plan stays on node01's turn).
        robot.clickOn("#maintenanceAfterDrain");
        robot.clickOn("Wait for annotation");
        assertThat(text(robot, "#maintenanceProblems")).contains("Give the annotation key");
        robot.clickOn("#maintenanceAnnotation").write("example.com/upgraded");
        await().atMost(WAIT).until(() -> !visible(robot, "#maintenanceProblems")
                && text(robot, "#maintenanceTitle").equals("New plan (preview)"));

        // Ctrl+Enter: the plan is created in the cluster and selected; the focus is on it in the list.
        keys(robot, KeyCode.CONTROL, KeyCode.ENTER);
        await().atMost(WAIT).until(() -> client.resources(MaintenancePlan.class).list().getItems().size() == 1);
        MaintenancePlan created = client.resources(MaintenancePlan.class).list().getItems().getFirst();
        String name = created.name();
        assertThat(created.getSpec().nodes()).containsExactly("node01", "node02");
        assertThat(created.getSpec().maxUnavailableOrDefault()).isEqualTo(1);
        assertThat(created.getSpec().actionOrRun()).isEqualTo(MaintenancePlanSpec.Action.Run);
        assertThat(created.getSpec().afterDrain()).isEqualTo(MaintenancePlanSpec.AfterDrain.waitForAnnotation("example.com/upgraded"));
        await().atMost(WAIT).until(() -> text(robot, "#maintenanceTitle").equals(name));
        await().atMost(WAIT).until(() -> "maintenancePlans".equals(focusedId()) && name.equals(selectedPlan(robot)));

        // The controllers' leader runs it: the view follows its status.
        planUntil(client, name, () -> text(robot, "#maintenancePhase").equals("Running"));
        await().atMost(WAIT).until(() -> text(robot, "#maintenanceTime").contains("so far"));
        planUntil(client, name, () -> fx(() -> robot.lookup("#maintenanceOrder").<MaintenancePlanRow.NodeLane>queryTableView()
                .getItems().stream().anyMatch(n -> n.phase().equals("AfterDrain"))));

        // Ctrl+P pauses (spec.action), and once paused resumes.
        keys(robot, KeyCode.CONTROL, KeyCode.P);
        await().atMost(WAIT).until(() -> action(client, name) == MaintenancePlanSpec.Action.Pause);
        assertThat(focusedId()).isEqualTo("maintenancePlans");
        await().atMost(WAIT).until(() -> text(robot, "#maintenancePhase").equals("Paused") && visible(robot, "#maintenanceResume"));
        keys(robot, KeyCode.CONTROL, KeyCode.P);
        await().atMost(WAIT).until(() -> action(client, name) == MaintenancePlanSpec.Action.Run);
        await().atMost(WAIT).until(() -> !text(robot, "#maintenancePhase").equals("Paused"));

        // Ctrl+Shift+A asks first: Escape leaves it alone, Enter aborts; the focus comes back to the plan.
        keys(robot, KeyCode.CONTROL, KeyCode.SHIFT, KeyCode.A);
        await().atMost(WAIT).until(() -> visible(robot, "#confirmAbortPlan"));
        assertThat(text(robot, "#confirmMessage")).contains("uncordoned");
        key(robot, KeyCode.ESCAPE);
        await().atMost(WAIT).until(() -> !visible(robot, "#confirmAbortPlan"));
        UiSteps.awaitActionsAnswered(console);
        assertThat(action(client, name)).isEqualTo(MaintenancePlanSpec.Action.Run);
        assertThat(focusedId()).isEqualTo("maintenancePlans");
        keys(robot, KeyCode.CONTROL, KeyCode.SHIFT, KeyCode.A);
        await().atMost(WAIT).until(() -> visible(robot, "#confirmAbortPlan"));
        key(robot, KeyCode.ENTER);
        await().atMost(WAIT).until(() -> action(client, name) == MaintenancePlanSpec.Action.Abort);
        await().atMost(WAIT).until(() -> "maintenancePlans".equals(focusedId()) && name.equals(selectedPlan(robot)));

        // It ends; what the plan cordoned is uncordoned; its report is kept and exported as Markdown and JSON.
        await().atMost(WAIT).until(() -> text(robot, "#maintenancePhase").equals("Aborted"));
        await().atMost(WAIT).until(() -> fx(() -> robot.lookup("#maintenanceAbort").query().isDisabled()));
        await().atMost(WAIT).until(() -> fx(() -> session.model().nodes().stream().noneMatch(n -> n.cordoned())));
        fx(() -> {
            view(robot).setSaveTo(exports::resolve);
            return null;
        });
        keys(robot, KeyCode.CONTROL, KeyCode.E);
        keys(robot, KeyCode.CONTROL, KeyCode.SHIFT, KeyCode.E);
        await().atMost(WAIT).until(() -> Files.exists(exports.resolve(name + ".md")) && Files.exists(exports.resolve(name + ".json")));
        assertThat(Files.readString(exports.resolve(name + ".md"))).startsWith("# Maintenance plan " + name)
                .contains("- Phase: Aborted").contains("| 1 | ");
        assertThat(Files.readString(exports.resolve(name + ".json"))).contains("\"phase\" : \"Aborted\"");

        // A plan made elsewhere (kubectl apply, the CLI, another console) shows up in the list.
        client.resource(new MaintenancePlan("from-kubectl", new MaintenancePlanSpec(null, "kubernetes.io/os=linux", 2, null, null))).create();
        await().atMost(WAIT).until(() -> fx(() -> robot.lookup("#maintenancePlans").<String>queryListView().getItems()
                .contains("from-kubectl")));
        assertThat(selectedPlan(robot)).as("the selection stays").isEqualTo(name);
    }

    @Test
    @dev.drainboard.testing.RequiresKubectl
    void aPlanAppliedWithKubectlIsListedAndPausedFromTheConsole(FxRobot robot, @TempDir Path dir) throws Exception {
        Session session = UiSteps.connect(robot, console);
        Path kubeconfig = session.embeddedCluster().orElseThrow().kubeconfig();
        await().atMost(WAIT).until(() -> fx(() -> session.model().vmis().size() == 12
                && session.model().vmis().stream().allMatch(v -> v.phase().equals("Running"))));
        clearStranding(session.client(), List.of("node01"));
        keys(robot, KeyCode.CONTROL, KeyCode.DIGIT0);
        Path yaml = dir.resolve("plan.yaml");
        Files.writeString(yaml, """
                apiVersion: drainboard.dev/v1alpha1
                kind: MaintenancePlan
                metadata:
                  name: kernel-upgrade
                spec:
                  nodes: [node01]
                  afterDrain:
                    type: WaitForAnnotation
                    annotation: example.com/upgraded
                """);
        assertThat(kubectl(kubeconfig, "apply", "-f", yaml.toString())).contains("maintenanceplan.drainboard.dev/kernel-upgrade created");

        // Listed under the new plan; Down selects it, and the view shows it running.
        await().atMost(WAIT).until(() -> fx(() -> robot.lookup("#maintenancePlans").<String>queryListView().getItems()
                .contains("kernel-upgrade")));
        fx(() -> {
            robot.lookup("#maintenancePlans").query().requestFocus();
            return null;
        });
        key(robot, KeyCode.HOME);
        key(robot, KeyCode.DOWN);
        assertThat(selectedPlan(robot)).isEqualTo("kernel-upgrade");
        planUntil(session.client(), "kernel-upgrade", () -> text(robot, "#maintenancePhase").equals("Running"));

        // Ctrl+P: kubectl sees the pause.
        keys(robot, KeyCode.CONTROL, KeyCode.P);
        await().atMost(WAIT).until(() -> kubectl(kubeconfig, "get", "mp", "kernel-upgrade", "-o", "jsonpath={.spec.action}").equals("Pause"));
        await().atMost(WAIT).until(() -> text(robot, "#maintenancePhase").equals("Paused"));
        // kubectl resumes it: the console follows.
        kubectl(kubeconfig, "patch", "mp", "kernel-upgrade", "--type", "merge", "-p", "{\"spec\":{\"action\":\"Run\"}}");
        await().atMost(WAIT).until(() -> !text(robot, "#maintenancePhase").equals("Paused") && visible(robot, "#maintenancePause"));
    }

    private static String kubectl(Path kubeconfig, String... args) throws Exception {
        List<String> command = new java.util.ArrayList<>(List.of("kubectl", "--kubeconfig", kubeconfig.toString()));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).trim();
        assertThat(p.waitFor()).as("kubectl " + String.join(" ", args) + ": " + out).isZero();
        return out;
    }

    /** Deletes what a plan of these nodes would strand (the planner says which), until it strands nothing. */
    static void clearStranding(KubernetesClient client, List<String> nodes) {
        nodes.forEach(n -> UiSteps.removeStranding(client, n));
        var spec = new MaintenancePlanSpec(nodes, null, 1, null, null);
        await().atMost(WAIT).until(() -> {
            var preview = new MaintenancePlans(client).preview(spec);
            preview.stranded().forEach(v -> client.resources(dev.drainboard.kubevirt.api.VirtualMachineInstance.class)
                    .inNamespace(v.namespace()).withName(v.name()).delete());
            return !preview.strands();
        });
    }

    /** Waits for the condition; on timeout, says where the plan is. */
    private static void planUntil(KubernetesClient client, String plan, java.util.concurrent.Callable<Boolean> condition) {
        try {
            await().atMost(WAIT).until(condition);
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            throw new AssertionError("the plan's status: " + io.fabric8.kubernetes.client.utils.Serialization
                    .asYaml(client.resources(MaintenancePlan.class).withName(plan).get().getStatus()), e);
        }
    }

    private static MaintenancePlanSpec.Action action(KubernetesClient client, String plan) {
        return client.resources(MaintenancePlan.class).withName(plan).get().getSpec().actionOrRun();
    }

    private static String selectedPlan(FxRobot robot) {
        return fx(() -> robot.lookup("#maintenancePlans").<String>queryListView().getSelectionModel().getSelectedItem());
    }

    private dev.drainboard.ui.maintenance.MaintenanceViewAccess view(FxRobot robot) {
        return new dev.drainboard.ui.maintenance.MaintenanceViewAccess(robot.lookup("#maintenanceView").query());
    }

    private String focusedId() {
        return fx(() -> {
            Node n = console.scene().getFocusOwner();
            while (n != null && n.getId() == null) {
                n = n.getParent();
            }
            return n == null ? null : n.getId();
        });
    }

    private static void key(FxRobot robot, KeyCode key) {
        robot.press(key).release(key);
        WaitForAsyncUtils.waitForFxEvents();
    }

    private static void keys(FxRobot robot, KeyCode... keys) {
        robot.press(keys);
        KeyCode[] reversed = new KeyCode[keys.length];
        for (int i = 0; i < keys.length; i++) {
            reversed[i] = keys[keys.length - 1 - i];
        }
        robot.release(reversed);
        WaitForAsyncUtils.waitForFxEvents();
    }
}
