package dev.drainboard.ui;

import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.ops.VmiOps;
import dev.drainboard.simulation.SimulationKnobs;
import dev.drainboard.ui.connect.Session;
import dev.drainboard.ui.drain.DrainDialog;
import dev.drainboard.ui.drain.DrainSummary;
import dev.drainboard.ui.model.ObjectRef;
import dev.drainboard.ui.model.VmiRow;
import dev.drainboard.ui.shell.ViewId;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import javafx.scene.control.CheckBox;
import javafx.scene.control.Label;
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
import java.util.ArrayList;
import java.util.List;
import java.util.prefs.BackingStoreException;

import static dev.drainboard.ui.ConsoleUiTest.fx;
import static dev.drainboard.ui.UiSteps.text;
import static dev.drainboard.ui.UiSteps.visible;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Issue #17's truths in the console, on the demo scenario: VMIs with nowhere to run red on the overview with the
 * scheduler's reason (until they run again); the drain dialog's blockers, its estimate and the "External evacuation is
 * handled" option; why a pending migration waits (Migrations view, drain dialog) with a cluster limit of 1; the time
 * left; and after a cancel the marks left behind, cleared with a button. Screenshots of each, light and dark, at
 * 1600x1000 and 1280x720 ({@link ScreenshotRun}).
 */
@ExtendWith(ApplicationExtension.class)
class TruthfulDrainUiTest {

    private static final Duration WAIT = Duration.ofSeconds(90);
    private static final List<String> BOXES = List.of("#drainIgnoreDaemonSets", "#drainDeleteEmptyDir", "#drainForce");

    private Stage stage;
    private double x;
    private double y;
    private StageSize size;
    private Console console;
    private TestConsole window;

    @Start
    void start(Stage stage) {
        this.stage = stage;
        window = TestConsole.show(stage);
        console = window.console();
        x = stage.getX();
        y = stage.getY();
        size = StageSize.of(stage);
    }

    @AfterEach
    void tearDown() throws BackingStoreException {
        // TestFX hands the next test the same stage: leave it as the console sized it.
        fx(() -> {
            size.restore(stage);
            stage.setX(x);
            stage.setY(y);
            return null;
        });
        window.close();
    }

    @Test
    void aPodWithNowhereToRunIsRedOnTheOverviewUntilItIsGone(FxRobot robot) {
        Session session = UiSteps.connect(robot, console);
        KubernetesClient client = session.client();
        fx(() -> {
            console.shellProperty().get().show(ViewId.OVERVIEW);
            return null;
        });
        // A plain pod (no VMI's launcher) that only a node that does not exist could take.
        client.pods().inNamespace("demo").resource(new io.fabric8.kubernetes.api.model.PodBuilder().withNewMetadata()
                .withName("stuck").endMetadata().withNewSpec().addToNodeSelector("kubernetes.io/hostname", "node99")
                .addNewContainer().withName("c").withImage("nginx").endContainer().endSpec().build()).create();

        await().atMost(WAIT).until(() -> visible(robot, "#strandedVmis")
                && fx(() -> !robot.lookup("#strandedVmis .stranded-pod").queryAll().isEmpty()));
        assertThat(text(robot, "#strandedHeader")).endsWith("nowhere to run").contains("1 pod");
        List<String> lines = fx(() -> robot.lookup("#strandedVmis .stranded-pod").queryAllAs(Label.class).stream().map(Label::getText).toList());
        assertThat(lines).singleElement().asString().startsWith("demo/stuck (pod, Pending): 0/4 nodes are available")
                .contains("didn't match Pod's node affinity/selector");

        client.pods().inNamespace("demo").withName("stuck").withGracePeriod(0).delete();
        await().atMost(WAIT).until(() -> fx(() -> robot.lookup("#strandedVmis .stranded-pod").queryAll().isEmpty()));
    }

    @Test
    void strandedVmisAreRedOnTheOverviewWithTheSchedulersReasonUntilTheyRunAgain(FxRobot robot) {
        ScreenshotRun shots = ScreenshotRun.of(names("overview-stranded"));
        Session session = UiSteps.connect(robot, console);
        KubernetesClient client = session.client();
        await().atMost(WAIT).until(() -> fx(() -> session.model().vmis().stream()
                .filter(v -> v.name().startsWith("workers") && "Running".equals(v.phase())).count() == 3));
        // node03 cordoned, a worker gone: the replica set's replacement is pinned to node03 and can run nowhere.
        client.nodes().withName("node03").edit(n -> {
            n.getSpec().setUnschedulable(true);
            return n;
        });
        String gone = fx(() -> session.model().vmis().stream().filter(v -> v.name().startsWith("workers")).findFirst().orElseThrow().name());
        client.resources(VirtualMachineInstance.class).inNamespace("demo").withName(gone).delete();
        await().atMost(WAIT).until(() -> fx(() -> session.model().vmis().stream()
                .anyMatch(v -> v.name().startsWith("workers") && !v.waiting().isEmpty())));
        VmiRow stranded = fx(() -> session.model().vmis().stream().filter(v -> !v.waiting().isEmpty()).findFirst().orElseThrow());
        assertThat(stranded.waiting()).contains("0/4 nodes are available", "1 node(s) were unschedulable",
                "3 node(s) didn't match Pod's node affinity/selector");

        fx(() -> {
            console.shellProperty().get().show(ViewId.OVERVIEW);
            return null;
        });
        await().atMost(WAIT).until(() -> visible(robot, "#strandedVmis"));
        assertThat(text(robot, "#strandedHeader")).isEqualTo("1 VMI has nowhere to run");
        List<String> lines = fx(() -> robot.lookup("#strandedVmis .stranded-vmi").queryAllAs(Label.class).stream().map(Label::getText).toList());
        assertThat(lines).singleElement().asString().startsWith("demo/" + stranded.name() + " (")
                .contains("0/4 nodes are available: 1 node(s) were unschedulable");
        // The VMIs line does not look healthy, and is red.
        Label detail = fx(() -> (Label) robot.lookup("#kpi-vmis .kpi-detail").query());
        assertThat(fx(detail::getText)).contains("1 stranded");
        assertThat(fx(() -> detail.getStyleClass().contains("kpi-danger"))).isTrue();
        allSizesBothThemes(shots, "overview-stranded", "1 VMI has nowhere to run", "demo/" + stranded.name(),
                "1 stranded", "0/4 nodes are available");

        // Red in the VMIs view too.
        fx(() -> {
            console.shellProperty().get().show(ViewId.VMIS);
            console.shellProperty().get().reveal(new ObjectRef(ObjectRef.Kind.VMI, "demo", stranded.name()));
            return null;
        });
        await().atMost(WAIT).until(() -> fx(() -> !robot.lookup(".row-danger").queryAll().isEmpty()));

        // It runs again: the red goes.
        client.nodes().withName("node03").edit(n -> {
            n.getSpec().setUnschedulable(false);
            return n;
        });
        fx(() -> {
            console.shellProperty().get().show(ViewId.OVERVIEW);
            return null;
        });
        await().atMost(WAIT).until(() -> !visible(robot, "#strandedVmis"));
        assertThat(fx(detail::getText)).doesNotContain("stranded");
        assertThat(fx(() -> detail.getStyleClass().contains("kpi-danger"))).isFalse();
        shots.assertAllTaken();
    }

    @Test
    void blockersAreRedAndTheExternalOptionLiftsTheExternalBlocker(FxRobot robot) {
        ScreenshotRun shots = ScreenshotRun.of(names("drain-blockers"));
        Session session = UiSteps.connect(robot, console);
        KubernetesClient client = session.client();
        awaitAllRunning(session, client);
        String node = client.resources(VirtualMachineInstance.class).inNamespace("demo").withName("appliance").get()
                .getStatus().getNodeName();
        openDrain(robot, node);
        tick(robot, BOXES);
        String external = "VirtualMachineInstance demo/appliance: eviction strategy External";
        await().atMost(WAIT).until(() -> problems(robot).stream().anyMatch(t -> t.contains(external)));
        assertThat(fx(() -> robot.lookup("#drainStart").queryButton().isDisabled())).isTrue();
        // Blockers in red, the estimate in the node's line.
        allSizesBothThemes(shots, "drain-blockers", "Drain " + node, "blocker", "eviction strategy External",
                "the drain does not start unless");

        tick(robot, List.of("#drainExternalHandled"));
        await().atMost(WAIT).until(() -> problems(robot).stream().noneMatch(t -> t.contains(external)));
        TableView<?> preview = robot.lookup("#drainPreviewTable").queryTableView();
        assertThat(fx(() -> preview.getItems().stream().map(Object::toString).toList()))
                .anyMatch(r -> r.contains("appliance") && r.contains("EXTERNAL_EVACUATION"));
        robot.clickOn("#drainCancel");
    }

    @Test
    void pendingMigrationsSayWhyTheTimeLeftCountsAndACancelledDrainsMarksAreCleared(FxRobot robot) {
        ScreenshotRun shots = ScreenshotRun.of(names("migrations-pending", "drain-waits"));
        Session session = UiSteps.connect(robot, console);
        KubernetesClient client = session.client();
        awaitAllRunning(session, client);
        // One migration at a time in the whole cluster, on slow links: whatever comes second waits.
        client.genericKubernetesResources("kubevirt.io/v1", "KubeVirt").inNamespace("kubevirt").withName("kubevirt")
                .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"configuration\":{\"migrations\":{\"parallelMigrationsPerCluster\":1}}}}");
        await().atMost(WAIT).until(() -> fx(() -> session.model().kubeVirtSettings().get().migrations().stream()
                .anyMatch(s -> s.label().equals("Parallel migrations per cluster") && s.value().equals("1"))));
        for (var n : client.nodes().list().getItems()) {
            client.nodes().withName(n.getMetadata().getName()).edit(x -> {
                x.getMetadata().getAnnotations().put(SimulationKnobs.LINK_SPEED, "4Mi");
                return x;
            });
        }
        String node = client.resources(VirtualMachineInstance.class).inNamespace("demo").withName("database").get()
                .getStatus().getNodeName();
        UiSteps.removeStranding(client, node);
        List<String> others = fx(() -> session.model().vmis().stream()
                .filter(v -> "True".equals(v.liveMigratable()) && "Running".equals(v.phase()) && !v.node().equals(node)
                        && !v.name().equals("database") && !v.name().startsWith("workers"))
                .map(VmiRow::name).sorted().toList());
        assertThat(others).as("two migratable VMIs off %s", node).hasSizeGreaterThanOrEqualTo(2);
        VmiOps vmis = new VmiOps(client);
        vmis.migrate("demo", others.get(0));
        await().atMost(WAIT).until(() -> fx(() -> session.model().migrations().stream()
                .anyMatch(m -> m.vmi().equals(others.get(0)) && !m.phase().equals("Pending") && !m.phase().isEmpty())));
        vmis.migrate("demo", others.get(1));
        String limit = "1 of 1 migrations in the cluster in use";
        await().atMost(WAIT).until(() -> fx(() -> session.model().migrations().stream()
                .anyMatch(m -> m.vmi().equals(others.get(1)) && m.waiting().equals(limit))));
        fx(() -> {
            console.shellProperty().get().show(ViewId.MIGRATIONS);
            return null;
        });
        allSizesBothThemes(shots, "migrations-pending", "Progress", "Pending", "waits: 1 of 1 migrations in the cluster in use");

        openDrain(robot, node);
        tick(robot, BOXES);
        await().atMost(WAIT).until(() -> !fx(() -> robot.lookup("#drainStart").queryButton().isDisabled()));
        robot.clickOn("#drainStart");
        TableView<?> progress = robot.lookup("#drainProgressTable").queryTableView();
        // The database VMI's launcher: marked, and no slot for its migration (two unfinished, one allowed).
        await().atMost(WAIT).until(() -> fx(() -> progress.getItems().stream().map(Object::toString)
                .anyMatch(r -> r.contains("virt-launcher-database-") && r.contains("Migration waits: 2 migrations in the cluster under way, limit 1"))));
        await().atMost(WAIT).until(() -> visible(robot, "#drainTimeLeft"));
        assertThat(text(robot, "#drainTimeLeft")).matches("Live migrations: ~(\\d+ h )?\\d+ min( \\d+ s)? left");
        allSizesBothThemes(shots, "drain-waits", "Drain " + node, "Migration waits: 2 migrations in the cluster under way, limit 1",
                "Live migrations: ~", "Cancel drain");

        robot.clickOn("#drainCancelRun");
        await().atMost(WAIT).until(() -> visible(robot, "#drainEndState"));
        assertThat(fx(() -> console.actionsProperty().get().dialogs().current()))
                .isInstanceOfSatisfying(DrainDialog.class, d -> assertThat(d.endState().get()).isEqualTo(DrainSummary.EndState.CANCELLED));
        await().atMost(WAIT).until(() -> visible(robot, "#drainClearMarks"));
        assertThat(text(robot, "#drainMarks")).contains("still marked for evacuation", "demo/database");
        assertThat(client.resources(VirtualMachineInstance.class).inNamespace("demo").withName("database").get()
                .getStatus().getEvacuationNodeName()).isEqualTo(node);

        robot.clickOn("#drainClearMarks");
        await().atMost(WAIT).until(() -> !visible(robot, "#drainClearMarks"));
        assertThat(text(robot, "#drainMarks")).contains("virtualmachineinstance/database evacuation from node " + node + " cancelled");
        assertThat(client.resources(VirtualMachineInstance.class).inNamespace("demo").withName("database").get()
                .getStatus().getEvacuationNodeName()).isNull();
        robot.clickOn("#drainClose");
        shots.assertAllTaken();
    }

    // ---- steps

    private static void awaitAllRunning(Session session, KubernetesClient client) {
        await().atMost(WAIT).until(() -> {
            int count = client.resources(VirtualMachineInstance.class).inAnyNamespace().list().getItems().size();
            return fx(() -> session.model().synced().get() && session.model().vmis().size() == count
                    && session.model().vmis().stream().allMatch(v -> "Running".equals(v.phase())));
        });
    }

    private void openDrain(FxRobot robot, String node) {
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
        robot.press(KeyCode.D).release(KeyCode.D);
        await().atMost(WAIT).until(() -> visible(robot, "#drainDialog"));
        TableView<?> preview = robot.lookup("#drainPreviewTable").queryTableView();
        await().atMost(WAIT).until(() -> fx(() -> !preview.getItems().isEmpty()));
    }

    private static void tick(FxRobot robot, List<String> boxes) {
        for (String box : boxes) {
            fx(() -> {
                robot.lookup(box).queryAs(CheckBox.class).setSelected(true);
                return null;
            });
        }
    }

    private static List<String> problems(FxRobot robot) {
        return fx(() -> robot.lookup("#drainProblems .label").queryAllAs(Label.class).stream().map(Label::getText).toList());
    }

    /** Each subject at 1600x1000 and 1280x720, light and dark. */
    private static String[] names(String... subjects) {
        List<String> names = new ArrayList<>();
        for (String subject : subjects) {
            for (String size : List.of("1600x1000", "1280x720")) {
                names.add(subject + "-" + size + "-light");
                names.add(subject + "-" + size + "-dark");
            }
        }
        return names.toArray(String[]::new);
    }

    private void allSizesBothThemes(ScreenshotRun shots, String subject, String... shows) {
        for (int[] size : new int[][]{{1600, 1000}, {1280, 720}}) {
            fx(() -> {
                // At the screen's corner: Monocle's headless screen is 1600x1000, a window past its edge cannot be painted.
                stage.setX(0);
                stage.setY(0);
                stage.setWidth(size[0]);
                stage.setHeight(size[1]);
                return null;
            });
            await().atMost(WAIT).until(() -> fx(() -> Math.round(console.scene().getWidth()) == size[0]
                    && Math.round(console.scene().getHeight()) == size[1]));
            String name = subject + "-" + size[0] + "x" + size[1];
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
}
