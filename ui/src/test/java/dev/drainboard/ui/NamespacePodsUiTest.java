package dev.drainboard.ui;

import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.ops.DrainOptions;
import dev.drainboard.ops.DrainPreview;
import dev.drainboard.ops.PodOutcome;
import dev.drainboard.ops.PodPreview;
import dev.drainboard.ui.connect.Session;
import dev.drainboard.ui.model.NodePodRow;
import dev.drainboard.ui.model.Row;
import dev.drainboard.ui.pods.PodsView;
import dev.drainboard.ui.shell.NamespacePicker;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import javafx.scene.Node;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
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

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.prefs.BackingStoreException;

import static dev.drainboard.ui.ConsoleUiTest.fx;
import static dev.drainboard.ui.UiSteps.WAIT;
import static dev.drainboard.ui.UiSteps.visible;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The namespace picker and the Pods view, as an operator uses them from the keyboard and the mouse. */
@ExtendWith(ApplicationExtension.class)
class NamespacePodsUiTest {

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
    void pickingANamespaceNarrowsTheListsAndReconnectingRemembersIt(FxRobot robot) {
        Session first = UiSteps.connect(robot, console);
        KubernetesClient client = first.client();
        // A second team's VMI, so that "demo" narrows the VMIs too.
        client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName("team-b").endMetadata().build()).create();
        VirtualMachineInstance copy = client.resources(VirtualMachineInstance.class).inNamespace("demo").withName("cache").get();
        copy.setMetadata(new ObjectMetaBuilder().withName("cache").withNamespace("team-b").withLabels(Map.of("app", "cache")).build());
        copy.setStatus(null);
        client.resources(VirtualMachineInstance.class).inNamespace("team-b").resource(copy).create();
        await().atMost(WAIT).until(() -> fx(() -> first.model().vmis().stream().anyMatch(v -> v.namespace().equals("team-b"))
                && first.model().vmis().stream().filter(v -> v.namespace().equals("demo")).count() == 12));

        press(robot, KeyCode.DIGIT3); // Ctrl+3: VMIs
        TableView<?> vmis = robot.lookup("#vmisTable").queryTableView();
        await().atMost(WAIT).until(() -> namespaces(vmis).containsAll(List.of("demo", "team-b")));

        pick(robot, "team-b");
        await().atMost(WAIT).until(() -> namespaces(vmis).equals(List.of("team-b")));
        assertThat(fx(() -> vmis.getItems().size())).isEqualTo(1);
        press(robot, KeyCode.DIGIT7); // Ctrl+7: Events
        TableView<?> events = robot.lookup("#eventsTable").queryTableView();
        assertThat(namespaces(events)).doesNotContain("demo", "kube-system");
        // The overview keeps counting the whole cluster, and says so.
        press(robot, KeyCode.DIGIT1);
        await().atMost(WAIT).until(() -> visible(robot, "#overviewScopeNote"));
        assertThat(fx(() -> robot.lookup("#overviewScopeNote").queryLabeled().getText()))
                .contains("team-b").contains("whole cluster");
        assertThat(fx(() -> robot.lookup("#kpi-vmis .kpi-value").queryLabeled().getText())).isEqualTo("13");

        pick(robot, "demo");
        press(robot, KeyCode.DIGIT3);
        await().atMost(WAIT).until(() -> namespaces(vmis).equals(List.of("demo")));
        assertThat(fx(() -> vmis.getItems().size())).isEqualTo(12);

        // Disconnect, and open the same cluster again from Recent: the lists open on "demo".
        robot.clickOn("#disconnect");
        await().atMost(WAIT).until(() -> visible(robot, "#confirmDisconnect"));
        robot.clickOn("#confirmOk");
        await().atMost(WAIT).until(() -> fx(() -> console.sessionProperty().get() == null));
        ListView<?> recent = robot.lookup("#recentList").queryListView();
        await().atMost(WAIT).until(() -> fx(() -> !recent.getItems().isEmpty()));
        // The Recent entry says the embedded cluster still runs, as left.
        assertThat(fx(() -> ((Label) recent.lookup(".list-cell").lookupAll(".label").stream()
                .filter(n -> ((Label) n).getText().contains("running")).findFirst().orElseThrow()).getText()))
                .contains("running: reopens as you left it");
        robot.doubleClickOn(fx(() -> recent.lookup(".list-cell")));
        await().atMost(WAIT).until(() -> fx(() -> console.sessionProperty().get() != null && console.sessionProperty().get() != first));
        Session second = fx(() -> console.sessionProperty().get());
        await().atMost(WAIT).until(() -> fx(() -> second.model().synced().get() && second.model().vmis().size() == 13));
        assertThat(fx(() -> robot.lookup("#namespacePicker").queryAs(ComboBox.class).getValue())).isEqualTo("demo");
        press(robot, KeyCode.DIGIT3);
        TableView<?> again = robot.lookup("#vmisTable").queryTableView();
        await().atMost(WAIT).until(() -> fx(() -> again.getItems().size()) == 12);
        assertThat(namespaces(again)).containsExactly("demo");

        pick(robot, NamespacePicker.ALL);
        await().atMost(WAIT).until(() -> fx(() -> again.getItems().size()) == 13);
    }

    @Test
    void thePodsViewListsTheOtherPodsOfEachNodeWithWhatADrainDoesWithThem(FxRobot robot) throws Exception {
        Session session = UiSteps.connect(robot, console);
        robot.press(KeyCode.CONTROL, KeyCode.SHIFT, KeyCode.P).release(KeyCode.P, KeyCode.SHIFT, KeyCode.CONTROL);
        await().atMost(WAIT).until(() -> visible(robot, "#podsTable"));
        TableView<NodePodRow> pods = robot.lookup("#podsTable").queryTableView();
        // The demo's pods besides the launchers: a node-exporter per node (a DaemonSet), web ×2 and toolbox (ReplicaSets).
        await().atMost(WAIT).until(() -> rows(pods).size() == 7);
        List<NodePodRow> rows = rows(pods);
        assertThat(rows).noneMatch(r -> r.name().startsWith("virt-launcher"));
        NodePodRow exporter = rows.stream().filter(r -> r.name().equals("node-exporter-node01")).findFirst().orElseThrow();
        assertThat(exporter.owner()).isEqualTo("DaemonSet");
        assertThat(exporter.node()).isEqualTo("node01");
        assertThat(exporter.outcome()).isEqualTo(PodOutcome.NEEDS_IGNORE_DAEMONSETS);
        assertThat(rows.stream().filter(r -> r.name().startsWith("web-")).map(NodePodRow::owner)).containsOnly("ReplicaSet");

        // Each outcome and reason is the drain preview's, as the drain dialog would show it with its first options.
        DrainPreview preview = console.actionsProperty().get().preview(List.of("node01"), DrainOptions.defaults()).get(60, TimeUnit.SECONDS).getFirst();
        for (NodePodRow row : rows.stream().filter(r -> r.node().equals("node01")).toList()) {
            PodPreview expected = preview.pod(row.namespace(), row.name()).orElseThrow();
            assertThat(row.outcome()).as(row.name()).isEqualTo(expected.outcome());
            assertThat(row.reason()).as(row.name()).isEqualTo(expected.reason());
        }
        // Every outcome badge whole (the widest is "Needs Ignore DaemonSets").
        assertThat(fx(() -> pods.lookupAll(".badge").stream().filter(Node::isVisible)
                .map(n -> (Label) n).filter(Label::isTextTruncated).map(Label::getText).toList())).isEmpty();

        // Filter by node.
        robot.clickOn("#podsNodeFilter");
        clickCell(robot, "node01");
        await().atMost(WAIT).until(() -> rows(pods).stream().allMatch(r -> r.node().equals("node01")));
        assertThat(rows(pods).stream().map(NodePodRow::name)).contains("node-exporter-node01").hasSize(3);

        // Live: a pod that goes leaves the list.
        String toolbox = rows(pods).stream().map(NodePodRow::name).filter(n -> n.startsWith("toolbox-")).findFirst().orElseThrow();
        session.client().pods().inNamespace("demo").withName(toolbox).delete();
        await().atMost(WAIT).until(() -> rows(pods).stream().noneMatch(r -> r.name().equals(toolbox)));

        // The namespace picker narrows it as every list.
        pick(robot, "kube-system");
        robot.clickOn("#podsNodeFilter");
        clickCell(robot, PodsView.ALL_NODES);
        await().atMost(WAIT).until(() -> rows(pods).size() == 4 && rows(pods).stream().allMatch(r -> r.namespace().equals("kube-system")));
    }

    private static void press(FxRobot robot, KeyCode key) {
        robot.press(KeyCode.CONTROL, key).release(key, KeyCode.CONTROL);
        WaitForAsyncUtils.waitForFxEvents();
    }

    /** Opens the namespace picker and clicks the entry, as an operator does. */
    private static void pick(FxRobot robot, String entry) {
        robot.clickOn("#namespacePicker");
        clickCell(robot, entry);
        await().atMost(WAIT).until(() -> entry.equals(fx(() -> robot.lookup("#namespacePicker").queryAs(ComboBox.class).getValue())));
        WaitForAsyncUtils.waitForFxEvents();
    }

    private static void clickCell(FxRobot robot, String text) {
        await().atMost(WAIT).until(() -> fx(() -> robot.lookup((Node n) -> n instanceof ListCell<?> c && text.equals(c.getText()))
                .tryQuery().isPresent()));
        Node cell = fx(() -> robot.lookup((Node n) -> n instanceof ListCell<?> c && text.equals(c.getText())).query());
        robot.clickOn(cell);
        WaitForAsyncUtils.waitForFxEvents();
    }

    private static List<String> namespaces(TableView<?> table) {
        return fx(() -> table.getItems().stream().map(r -> ((Row) r).ref().namespace()).distinct().sorted().toList());
    }

    private static List<NodePodRow> rows(TableView<NodePodRow> table) {
        return fx(() -> List.copyOf(table.getItems()));
    }
}
