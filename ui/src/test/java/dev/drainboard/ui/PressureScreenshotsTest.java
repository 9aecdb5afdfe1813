package dev.drainboard.ui;

import dev.drainboard.simulation.SimulationKnobs;
import dev.drainboard.ui.connect.Session;
import dev.drainboard.ui.shell.ViewId;
import io.fabric8.kubernetes.client.KubernetesClient;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;

import java.time.Duration;
import java.util.List;
import java.util.prefs.BackingStoreException;

import static dev.drainboard.ui.ConsoleUiTest.fx;
import static org.awaitility.Awaitility.await;

/**
 * PNGs of a real node-pressure eviction on the built-in {@code pressure} scenario, light and dark: node01 pushed
 * below its soft memory threshold with the feature gate on, its victims live-migrating to node02 on a slowed link
 * while the kubelet's kill counts down (the VMIs screen), and node01's tile under memory pressure (the overview).
 * Each picture is checked for what it must show ({@link ScreenshotRun}); same output folder as
 * {@link ScreenshotsTest} ({@code -Ddrainboard.screenshots=DIR}).
 */
@ExtendWith(ApplicationExtension.class)
class PressureScreenshotsTest {

    private static final Duration WAIT = Duration.ofSeconds(90);

    private Console console;
    private TestConsole window;

    @Start
    void start(Stage stage) {
        window = TestConsole.show(stage, options -> options.withScenario("pressure"));
        console = window.console();
    }

    @AfterEach
    void tearDown() throws BackingStoreException {
        window.close();
    }

    @Test
    void nodePressureLightAndDark(FxRobot robot) {
        ScreenshotRun shots = ScreenshotRun.of("node-pressure-light", "node-pressure-dark",
                "node-pressure-overview-light", "node-pressure-overview-dark");
        robot.clickOn("#connectEmbedded");
        await().atMost(WAIT).until(() -> fx(() -> console.sessionProperty().get() != null));
        Session session = fx(() -> console.sessionProperty().get());
        KubernetesClient client = session.client();
        await().atMost(WAIT).until(() -> fx(() -> session.model().synced().get() && session.model().vmis().size() == 6
                && session.model().vmis().stream().allMatch(v -> "Running".equals(v.phase()))));
        for (String node : List.of("node01", "node02")) {
            client.nodes().withName(node).edit(n -> {
                n.getMetadata().getAnnotations().put(SimulationKnobs.LINK_SPEED, "8Mi"); // migrations take minutes
                return n;
            });
        }
        client.nodes().withName("node02").edit(n -> {
            n.getSpec().setUnschedulable(false);
            return n;
        });
        client.nodes().withName("node01").edit(n -> {
            n.getMetadata().getAnnotations().put(SimulationKnobs.SYSTEM_MEMORY_USAGE, "6Gi");
            return n;
        });

        await().atMost(WAIT).until(() -> fx(() -> session.model().vmis().stream()
                .anyMatch(v -> !v.nodePressureDeadline().isEmpty() && "Running".equals(v.migration()))));
        String racing = fx(() -> session.model().vmis().stream()
                .filter(v -> !v.nodePressureDeadline().isEmpty() && "Running".equals(v.migration()))
                .findFirst().orElseThrow().name());
        fx(() -> {
            console.shellProperty().get().show(ViewId.VMIS);
            return null;
        });
        // The VMI the kubelet evicted, its countdown to the kill, on the node under pressure.
        snapBoth(shots, "node-pressure", "VMIs", racing, "kill in ", "node01", "LiveMigrate");
        fx(() -> {
            console.shellProperty().get().show(ViewId.OVERVIEW);
            return null;
        });
        await().atMost(WAIT).until(() -> UiSteps.visible(robot, "#pressure-node01"));
        snapBoth(shots, "node-pressure-overview", "Overview", "node01", "node02", "MemoryPressure",
                "migrating before the kubelet's kill");
        shots.assertAllTaken();
    }

    private void snapBoth(ScreenshotRun shots, String name, String... shows) {
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
