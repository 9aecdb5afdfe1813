package dev.drainboard.ui;

import dev.drainboard.kubevirt.DrainboardAnnotations;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.simulation.SimulationKnobs;
import dev.drainboard.ui.connect.Session;
import dev.drainboard.ui.model.ObjectRef;
import dev.drainboard.ui.shell.ViewId;
import io.fabric8.kubernetes.client.KubernetesClient;
import javafx.scene.control.Label;
import javafx.scene.control.TableRow;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.prefs.BackingStoreException;

import static dev.drainboard.ui.ConsoleUiTest.fx;
import static dev.drainboard.ui.UiSteps.WAIT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Node-pressure eviction as the console shows it (issue 8): a VMI lost to it, a VMI racing the kubelet's kill, and
 * a node under memory pressure on the overview. The VMI marks are the node handler's annotations, set through the
 * API; the memory pressure is the simulated kubelet's own, from a node pushed over its hard threshold.
 */
@ExtendWith(ApplicationExtension.class)
class NodePressureUiTest {

    private static final String LOST = "The VirtualMachineInstance was lost: the kubelet killed its launcher pod on node "
            + "%s (node-pressure eviction) before the live migration finished";

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
    void aLostVmiHasADangerBadgeWithTheMessageAndARacingOneCountsDown(FxRobot robot) {
        Session session = UiSteps.connect(robot, console);
        KubernetesClient client = session.client();
        await().atMost(WAIT).until(() -> fx(() -> session.model().vmis().stream()
                .filter(v -> v.name().equals("database") || v.name().equals("cache"))
                .filter(v -> "Running".equals(v.phase())).count() == 2));
        String databaseNode = nodeOf(client, "database");
        String cacheNode = nodeOf(client, "cache");
        String lostMessage = LOST.formatted(databaseNode);
        annotate(client, "database", DrainboardAnnotations.LOST_TO_NODE_PRESSURE, lostMessage);
        annotate(client, "cache", DrainboardAnnotations.NODE_PRESSURE_DEADLINE,
                Instant.now().plusSeconds(150).truncatedTo(ChronoUnit.MILLIS).toString());

        fx(() -> {
            console.shellProperty().get().show(ViewId.VMIS);
            return null;
        });
        await().atMost(WAIT).until(() -> badge(robot, "Lost to node pressure").isPresent());
        Label lost = badge(robot, "Lost to node pressure").orElseThrow();
        assertThat(fx(() -> lost.getStyleClass())).contains("badge-danger");
        assertThat(fx(() -> lost.getTooltip().getText())).as("the handler's message on hover").isEqualTo(lostMessage);
        assertThat(fx(() -> rowOf(lost).getStyleClass())).contains("row-danger");

        await().atMost(WAIT).until(() -> badge(robot, "kill in ").isPresent());
        Label racing = badge(robot, "kill in ").orElseThrow();
        String first = fx(racing::getText);
        assertThat(first).matches("kill in 2m [0-9]{2}s");
        assertThat(fx(() -> racing.getStyleClass())).contains("badge-warning");
        assertThat(fx(() -> racing.getTooltip().getText())).contains(cacheNode).contains("node-pressure eviction");
        await().atMost(WAIT).until(() -> badge(robot, "kill in ").map(l -> !fx(l::getText).equals(first)).orElse(false));

        // The details pane says it too, without the ticking countdown.
        fx(() -> {
            console.shellProperty().get().reveal(new ObjectRef(ObjectRef.Kind.VMI, "demo", "database"));
            return null;
        });
        WaitForAsyncUtils.waitForFxEvents();
        await().atMost(WAIT).until(() -> fx(() -> robot.lookup(".label").queryAllAs(Label.class).stream()
                .anyMatch(l -> lostMessage.equals(l.getText()) && UiSteps.showing(l))));

        // The overview counts them on their nodes' tiles.
        fx(() -> {
            console.shellProperty().get().show(ViewId.OVERVIEW);
            return null;
        });
        await().atMost(WAIT).until(() -> tilePressure(robot, databaseNode).contains("1 VMI lost to node pressure"));
        assertThat(tilePressure(robot, cacheNode)).contains("1 VMI migrating before the kubelet's kill");
    }

    @Test
    void aNodeUnderMemoryPressureSaysSoOnItsTile(FxRobot robot) {
        Session session = UiSteps.connect(robot, console);
        KubernetesClient client = session.client();
        // Before: node04's tile is shown, without the badge (asked once the tile is there, not before it was drawn).
        await().atMost(WAIT).until(() -> UiSteps.visible(robot, "#tile-node04"));
        assertThat(UiSteps.visible(robot, "#pressure-node04")).isFalse();
        client.nodes().withName("node04").edit(n -> {
            n.getMetadata().getAnnotations().put(SimulationKnobs.EVICTION_HARD, "memory.available<100Mi");
            n.getMetadata().getAnnotations().put(SimulationKnobs.SYSTEM_MEMORY_USAGE, "4Ti");
            return n;
        });

        await().atMost(WAIT).until(() -> UiSteps.visible(robot, "#pressure-node04"));
        Label badge = robot.lookup("#pressure-node04").queryAs(Label.class);
        assertThat(fx(badge::getText)).isEqualTo("MemoryPressure");
        assertThat(fx(() -> badge.getStyleClass())).contains("badge-danger");
        assertThat(fx(() -> badge.getTooltip().getText())).contains("evicts pods");
        assertThat(fx(() -> robot.lookup("#tile-node04").query().getStyleClass())).contains("memory-pressure");
    }

    private static Optional<Label> badge(FxRobot robot, String prefix) {
        return fx(() -> robot.lookup(".evacuation-badge").queryAllAs(Label.class).stream()
                .filter(l -> l.isVisible() && l.getText() != null && l.getText().startsWith(prefix)
                        && UiSteps.showing(l) && l.getScene() != null)
                .findFirst());
    }

    private static TableRow<?> rowOf(javafx.scene.Node node) {
        for (javafx.scene.Node n = node; n != null; n = n.getParent()) {
            if (n instanceof TableRow<?> row) {
                return row;
            }
        }
        throw new AssertionError("not in a table row");
    }

    private static String tilePressure(FxRobot robot, String node) {
        return fx(() -> robot.lookup("#tile-" + node + " .tile-pressure").tryQuery()
                .filter(n -> n.isVisible()).map(n -> ((Label) n).getText()).orElse(""));
    }

    private static String nodeOf(KubernetesClient client, String vmi) {
        return client.resources(VirtualMachineInstance.class).inNamespace("demo").withName(vmi).get().getStatus().getNodeName();
    }

    private static void annotate(KubernetesClient client, String vmi, String key, String value) {
        client.resources(VirtualMachineInstance.class).inNamespace("demo").withName(vmi).edit(v -> {
            Map<String, String> annotations = v.getMetadata().getAnnotations() == null ? new HashMap<>()
                    : new HashMap<>(v.getMetadata().getAnnotations());
            annotations.put(key, value);
            v.getMetadata().setAnnotations(annotations);
            return v;
        });
    }
}
