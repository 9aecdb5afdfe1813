package dev.drainboard.ui;

import dev.drainboard.cluster.EmbeddedCluster;
import dev.drainboard.cluster.EmbeddedClusterOptions;
import dev.drainboard.controlplane.LocalControlPlane;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.ui.connect.ConnectTarget;
import dev.drainboard.ui.connect.Connector;
import dev.drainboard.ui.connect.ModeChoice;
import dev.drainboard.ui.connect.RecentConnections;
import dev.drainboard.ui.connect.Session;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import javafx.scene.control.Button;
import javafx.scene.control.TextField;
import javafx.scene.input.KeyCode;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.prefs.BackingStoreException;
import java.util.stream.Collectors;

import static dev.drainboard.ui.ConsoleUiTest.fx;
import static dev.drainboard.ui.UiSteps.text;
import static dev.drainboard.ui.UiSteps.visible;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * "Rehearse on a copy" as an operator uses it: connected to a cluster (the demo, served with its controllers, reached
 * through its kubeconfig in Observe mode, standing in for a real one), the command palette offers it; a time scale
 * that cannot be used is refused as it is typed; Copy and rehearse opens an embedded cluster serving a snapshot at
 * time scale 10, where every VMI runs on the node it ran on, and the real connection is in Recent. Screenshots of
 * the dialog light and dark at 1600x1000 and 1280x720, and of the copy.
 */
@ExtendWith(ApplicationExtension.class)
class RehearseUiTest {

    private static final Duration WAIT = Duration.ofSeconds(120);
    private static final int[][] SIZES = {{1600, 1000}, {1280, 720}};
    private static EmbeddedCluster real;
    private static LocalControlPlane realControllers;

    private TestConsole window;
    private Console console;
    private Stage stage;
    private StageSize size;

    @BeforeAll
    static void startCluster() throws Exception {
        real = EmbeddedCluster.start(EmbeddedClusterOptions.defaults().withScenario("demo"));
        realControllers = LocalControlPlane.start(Config.fromKubeconfig(Files.readString(real.kubeconfig())), real.hypervisors(), true);
    }

    @AfterAll
    static void stopCluster() {
        realControllers.close();
        real.close();
    }

    @Start
    void start(Stage stage) {
        this.stage = stage;
        size = StageSize.of(stage);
        window = TestConsole.show(stage);
        console = window.console();
    }

    @AfterEach
    void tearDown() throws BackingStoreException {
        fx(() -> {
            size.restore(stage);
            return null;
        });
        window.close();
    }

    @Test
    void rehearsesOnACopyAtTimeScaleTen(FxRobot robot) throws Exception {
        ScreenshotRun shots = ScreenshotRun.of(names());
        Map<String, String> placements;
        try (KubernetesClient client = new KubernetesClientBuilder()
                .withConfig(Config.fromKubeconfig(Files.readString(real.kubeconfig()))).build()) {
            await().atMost(WAIT).until(() -> running(client).size() == 12);
            placements = running(client);
        }
        ConnectTarget.Kubeconfig realTarget = new ConnectTarget.Kubeconfig(Optional.of(real.kubeconfig()), "drainboard-embedded");
        fx(() -> {
            console.connect(realTarget, ModeChoice.OBSERVE, Connector.MissingCrds.FAIL);
            return null;
        });
        await().atMost(WAIT).until(() -> fx(() -> console.sessionProperty().get() != null));
        Session session = fx(() -> console.sessionProperty().get());
        await().atMost(WAIT).until(() -> fx(() -> session.model().synced().get() && session.model().nodes().size() == 4));
        assertThat(session.info().embedded()).isFalse();

        for (String theme : List.of("light", "dark")) {
            if (theme.equals("dark")) {
                robot.clickOn("#themeToggle");
            }
            openDialog(robot);
            for (int[] size : SIZES) {
                resize(size[0], size[1]);
                shots.take(console, "rehearse-" + theme + "-" + size[0] + "x" + size[1], "Rehearse on a copy",
                        "Time scale", "a 2-hour window rehearses in 12 minutes", "Copy and rehearse");
            }
            robot.clickOn("#rehearseCancel");
            await().atMost(WAIT).until(() -> !visible(robot, "#rehearseDialog"));
        }

        openDialog(robot);
        TextField scale = robot.lookup("#rehearseTimeScale").queryAs(TextField.class);
        Button go = robot.lookup("#rehearseStart").queryAs(Button.class);
        type(scale, "0");
        assertThat(text(robot, "#rehearseTimeScaleError")).isEqualTo(
                "Not a time scale: a number above 0 and at most 1000 (1 is real time), e.g. 10 or 2.5.");
        assertThat(fx(go::isDisabled)).isTrue();
        shots.take(console, "rehearse-refused-dark-1280x720", "Not a time scale");
        type(scale, "10");
        assertThat(fx(go::isDisabled)).isFalse();
        robot.clickOn(go);

        await().atMost(WAIT).until(() -> fx(() -> console.sessionProperty().get() != null
                && console.sessionProperty().get() != session && console.sessionProperty().get().info().embedded()));
        Session copy = fx(() -> console.sessionProperty().get());
        assertThat(copy.info().target()).isInstanceOfSatisfying(ConnectTarget.Embedded.class, e -> {
            assertThat(e.timeScale()).isEqualTo(10.0);
            assertThat(Path.of(e.scenario()).resolve("README.txt")).exists();
        });
        assertThat(copy.embeddedCluster().orElseThrow().timeScale()).isEqualTo(10.0);
        // Every VMI runs again where it ran on the real cluster.
        await().atMost(WAIT).until(() -> running(copy.client()).equals(placements));
        await().atMost(WAIT).until(() -> fx(() -> copy.model().synced().get() && copy.model().nodes().size() == 4));
        resize(1600, 1000);
        shots.take(console, "rehearse-copy-dark-1600x1000", "node01", "node04", "Live");
        assertThat(new RecentConnections(window.prefs()).list()).contains(realTarget);
        shots.assertAllTaken();
    }

    private static Map<String, String> running(KubernetesClient client) {
        return client.resources(VirtualMachineInstance.class).inAnyNamespace().list().getItems().stream()
                .filter(v -> v.getStatus() != null && "Running".equals(v.getStatus().getPhase()) && v.getStatus().getNodeName() != null)
                .collect(Collectors.toMap(v -> v.getMetadata().getNamespace() + "/" + v.getMetadata().getName(),
                        v -> v.getStatus().getNodeName(), (a, b) -> a, TreeMap::new));
    }

    private void openDialog(FxRobot robot) {
        robot.press(KeyCode.CONTROL, KeyCode.K).release(KeyCode.K, KeyCode.CONTROL);
        await().atMost(WAIT).until(() -> visible(robot, "#paletteField"));
        robot.write("rehearse");
        WaitForAsyncUtils.waitForFxEvents();
        robot.press(KeyCode.ENTER).release(KeyCode.ENTER);
        await().atMost(WAIT).until(() -> visible(robot, "#rehearseDialog"));
    }

    private static void type(TextField field, String text) {
        fx(() -> {
            field.setText(text);
            return null;
        });
        WaitForAsyncUtils.waitForFxEvents();
    }

    private void resize(int w, int h) {
        fx(() -> {
            stage.setWidth(w);
            stage.setHeight(h);
            return null;
        });
        WaitForAsyncUtils.waitForFxEvents();
    }

    private static String[] names() {
        List<String> names = new ArrayList<>();
        for (String theme : List.of("light", "dark")) {
            for (int[] size : SIZES) {
                names.add("rehearse-" + theme + "-" + size[0] + "x" + size[1]);
            }
        }
        names.add("rehearse-refused-dark-1280x720");
        names.add("rehearse-copy-dark-1600x1000");
        return names.toArray(String[]::new);
    }
}
