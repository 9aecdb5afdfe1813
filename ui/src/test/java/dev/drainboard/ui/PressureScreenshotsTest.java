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
 * PNGs of a real node-pressure eviction on the built-in {@code pressure} scenario, light and dark: node01 pushed
 * below its soft memory threshold with the feature gate on, its victims live-migrating to node02 on a slowed link
 * while the kubelet's kill counts down (the VMIs screen), and node01's tile under memory pressure (the overview).
 * Same output folder as {@link ScreenshotsTest} ({@code -Ddrainboard.screenshots=DIR}).
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
    void nodePressureLightAndDark(FxRobot robot) throws IOException {
        Path dir = Path.of(System.getProperty("drainboard.screenshots", "target/screenshots"));
        Files.createDirectories(dir);
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
        fx(() -> {
            console.shellProperty().get().show(ViewId.VMIS);
            return null;
        });
        snapBoth(dir, "node-pressure");
        fx(() -> {
            console.shellProperty().get().show(ViewId.OVERVIEW);
            return null;
        });
        await().atMost(WAIT).until(() -> UiSteps.visible(robot, "#pressure-node01"));
        snapBoth(dir, "node-pressure-overview");
        assertThat(dir.resolve("node-pressure-overview-dark.png")).exists();
    }

    private void snapBoth(Path dir, String name) throws IOException {
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
