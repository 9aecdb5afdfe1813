package dev.drainboard.ui;

import dev.drainboard.ui.connect.Session;
import dev.drainboard.ui.model.ControllerRow;
import dev.drainboard.ui.shell.ViewId;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;

import java.time.Duration;
import java.util.prefs.BackingStoreException;

import static dev.drainboard.ui.ConsoleUiTest.fx;
import static org.awaitility.Awaitility.await;

/**
 * The Controllers screen, light and dark, with the embedded controllers running the demo scenario (no staged
 * statuses: what it shows is what the loops report). Each picture is checked for what it must show
 * ({@link ScreenshotRun}); written to {@code -Ddrainboard.screenshots=DIR}, else {@code target/screenshots}.
 */
@ExtendWith(ApplicationExtension.class)
class ControllersScreenshotsTest {

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
    void controllersLightAndDark(FxRobot robot) {
        ScreenshotRun shots = ScreenshotRun.of("controllers-light", "controllers-dark");
        robot.clickOn("#connectEmbedded");
        await().atMost(Duration.ofSeconds(60)).until(() -> fx(() -> console.sessionProperty().get() != null));
        Session session = fx(() -> console.sessionProperty().get());
        await().atMost(Duration.ofSeconds(60)).until(() -> fx(() -> session.model().synced().get()));
        fx(() -> {
            console.shellProperty().get().show(ViewId.CONTROLLERS);
            return null;
        });
        var rows = session.controlPlaneStatus().controllers();
        await().atMost(Duration.ofSeconds(60)).until(() -> fx(() -> rows.size() >= 4
                && rows.stream().allMatch(ControllerRow::running)
                && rows.stream().filter(r -> r.name().equals("vmi-controller")).allMatch(r -> r.reconciles() > 0)));
        await().atMost(Duration.ofSeconds(30)).until(() -> fx(() -> session.controlPlaneStatus().webhook().get().serving()));

        String[] shows = {"Controllers", "Control plane", "Leader", "Eviction webhook: serving at https://",
                "vmi-controller", "vm-controller", "disruption-budget", "evacuation", "migration", "node-handler",
                "RUNNING", "KubeVirt configuration"};
        shots.take(console, "controllers-light", shows);
        robot.clickOn("#themeToggle");
        robot.moveTo("#viewTitle"); // no hover highlight on the theme button
        shots.take(console, "controllers-dark", shows);
        shots.assertAllTaken();
    }
}
