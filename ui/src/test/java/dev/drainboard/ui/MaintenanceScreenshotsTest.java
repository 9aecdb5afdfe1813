package dev.drainboard.ui;

import dev.drainboard.maintenance.MaintenancePlan;
import dev.drainboard.ui.connect.Session;
import dev.drainboard.ui.maintenance.MaintenanceViewAccess;
import dev.drainboard.ui.model.MaintenancePlanRow;
import dev.drainboard.ui.shell.ViewId;
import io.fabric8.kubernetes.client.KubernetesClient;
import javafx.scene.input.KeyCode;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.prefs.BackingStoreException;

import static dev.drainboard.ui.ConsoleUiTest.fx;
import static dev.drainboard.ui.UiSteps.WAIT;
import static dev.drainboard.ui.UiSteps.text;
import static org.awaitility.Awaitility.await;

/**
 * PNGs of the Maintenance view on the embedded demo cluster, light and dark, at 1600x1000 and 1280x720: the plan of all
 * four nodes two at a time (the VMs that move, the stranded ones in red), a plan of two nodes running for real
 * (its first node drained, waiting for the annotation an upgrade would set), and that plan finished once both nodes got
 * it. Same output folder as {@link ScreenshotsTest}.
 */
@ExtendWith(ApplicationExtension.class)
class MaintenanceScreenshotsTest {

    private static final int[][] SIZES = {{1600, 1000}, {1280, 720}};
    private static final String UPGRADED = "example.com/upgraded";

    private Console console;
    private TestConsole window;
    private Stage stage;
    private StageSize size;

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
    void planRunningAndFinishedLightAndDark(FxRobot robot) {
        ScreenshotRun shots = ScreenshotRun.of(names());
        Session session = UiSteps.connect(robot, console);
        KubernetesClient client = session.client();
        await().atMost(WAIT).until(() -> fx(() -> session.model().vmis().size() == 12
                && session.model().vmis().stream().allMatch(v -> v.phase().equals("Running"))));
        fx(() -> {
            console.shellProperty().get().show(ViewId.MAINTENANCE);
            return null;
        });
        var model = fx(() -> new MaintenanceViewAccess(robot.lookup("#maintenanceView").query()).model());

        // The plan: every node, two at a time; two nodes are cleared of what cannot move, the others keep theirs
        // (stranded, in red).
        // The two nodes to run: where the demo's live-migratable VMs landed (placement varies from run to run).
        List<String> pair = new ArrayList<>(fx(() -> session.model().vmis().stream()
                .filter(v -> List.of("database", "web-frontend", "cache").contains(v.name()))
                .map(v -> v.node()).distinct().sorted().toList()));
        for (String n : List.of("node01", "node02", "node03", "node04")) {
            if (pair.size() < 2 && !pair.contains(n)) {
                pair.add(n);
            }
        }
        List<String> run = List.copyOf(pair.subList(0, 2));
        MaintenanceUiTest.clearStranding(client, run);
        fx(() -> {
            model.draftNodes().setAll("node01", "node02", "node03", "node04");
            model.maxUnavailable().set(2);
            return null;
        });
        await().atMost(WAIT).until(() -> text(robot, "#maintenanceTitle").equals("New plan (preview)"));
        takeAll(robot, shots, "plan", "New plan (preview)", "Gantt", "Order", "VMs that move", "node01", "node04",
                "Stranded: the plan finds no node for these VMs", "predicted", "Waiting");

        // Running: node01 and node02, one at a time, each waiting for its annotation.
        fx(() -> {
            model.draftNodes().setAll(run);
            model.maxUnavailable().set(1);
            model.afterDrain().set("WaitForAnnotation");
            model.annotation().set(UPGRADED);
            return null;
        });
        await().atMost(WAIT).until(() -> fx(() -> model.canRun().get()));
        fx(() -> {
            robot.lookup("#maintenancePlans").query().requestFocus();
            return null;
        });
        robot.press(KeyCode.CONTROL, KeyCode.ENTER).release(KeyCode.ENTER, KeyCode.CONTROL);
        await().atMost(WAIT).until(() -> client.resources(MaintenancePlan.class).list().getItems().size() == 1);
        String name = client.resources(MaintenancePlan.class).list().getItems().getFirst().name();
        await().atMost(WAIT).until(() -> fx(() -> {
            MaintenancePlanRow p = model.shown().get();
            return p != null && name.equals(p.name()) && p.nodes().stream().anyMatch(n -> n.phase().equals("AfterDrain"));
        }));
        String first = fx(() -> model.shown().get().nodes().stream().filter(n -> n.phase().equals("AfterDrain"))
                .findFirst().orElseThrow().name());
        takeAll(robot, shots, "running", name, "Running", "so far", "AfterDrain", "Waiting", "Pause", "Abort…");

        // Finished: each node gets the annotation in turn.
        annotate(client, first);
        String second = first.equals(run.get(0)) ? run.get(1) : run.get(0);
        await().atMost(WAIT).until(() -> fx(() -> model.shown().get().nodes().stream()
                .anyMatch(n -> n.name().equals(second) && n.phase().equals("AfterDrain"))));
        annotate(client, second);
        await().atMost(WAIT).until(() -> fx(() -> model.shown().get().phase().equals("Succeeded")));
        takeAll(robot, shots, "finished", name, "Succeeded", "taken", "Done", "Markdown", "JSON");
        shots.assertAllTaken();
    }

    private static void annotate(KubernetesClient client, String node) {
        client.nodes().withName(node).edit(n -> {
            n.getMetadata().setAnnotations(n.getMetadata().getAnnotations() == null ? new java.util.HashMap<>()
                    : new java.util.HashMap<>(n.getMetadata().getAnnotations()));
            n.getMetadata().getAnnotations().putAll(Map.of(UPGRADED, "true"));
            return n;
        });
    }

    private void takeAll(FxRobot robot, ScreenshotRun shots, String state, String... shows) {
        for (String theme : List.of("light", "dark")) {
            if (theme.equals("dark")) {
                robot.clickOn("#themeToggle");
            }
            for (int[] size : SIZES) {
                resize(size[0], size[1]);
                shots.take(console, "maintenance-" + state + "-" + theme + "-" + size[0] + "x" + size[1], shows);
            }
        }
        robot.clickOn("#themeToggle"); // back to light
    }

    private static String[] names() {
        List<String> names = new ArrayList<>();
        for (String state : List.of("plan", "running", "finished")) {
            for (String theme : List.of("light", "dark")) {
                for (int[] size : SIZES) {
                    names.add("maintenance-" + state + "-" + theme + "-" + size[0] + "x" + size[1]);
                }
            }
        }
        return names.toArray(String[]::new);
    }

    private void resize(int width, int height) {
        fx(() -> {
            stage.setWidth(width);
            stage.setHeight(height);
            return null;
        });
        WaitForAsyncUtils.waitForFxEvents();
    }
}
