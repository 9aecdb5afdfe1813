package dev.drainboard.ui;

import dev.drainboard.ui.connect.Session;
import dev.drainboard.ui.model.ControllerRow;
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

import java.time.Duration;
import java.util.List;
import java.util.prefs.BackingStoreException;

import static dev.drainboard.ui.ConsoleUiTest.fx;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The Controllers screen and the status bar's leader, on the embedded demo cluster in Control mode. */
@ExtendWith(ApplicationExtension.class)
class ControllersScreenTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(60);

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
    void listsEveryControllerRunningAndThisProcessAsLeader(FxRobot robot) {
        robot.clickOn("#connectEmbedded");
        await().atMost(TIMEOUT).until(() -> fx(() -> console.sessionProperty().get() != null));
        Session session = fx(() -> console.sessionProperty().get());
        assertThat(session.info().mode().label()).isEqualTo("Control");

        robot.press(KeyCode.CONTROL, KeyCode.DIGIT8).release(KeyCode.DIGIT8, KeyCode.CONTROL);
        TableView<ControllerRow> table = robot.lookup("#controllersTable").queryTableView();
        await().atMost(TIMEOUT).until(() -> fx(() -> table.getItems().stream().map(ControllerRow::name).toList())
                .containsAll(List.of("vmi-controller", "vm-controller", "disruption-budget", "node-handler", "replicaset-controller")));
        await().atMost(TIMEOUT).until(() -> fx(() -> table.getItems().stream().allMatch(ControllerRow::running)));
        // The demo's VMIs were reconciled: the loops have done work, so the figures are live, not placeholders.
        await().atMost(TIMEOUT).until(() -> fx(() -> table.getItems().stream()
                .filter(r -> r.name().equals("vmi-controller")).allMatch(r -> r.reconciles() > 0)));

        await().atMost(TIMEOUT).until(() -> fx(() -> text(robot, "#leaderLabel")).equals("Leader: this process"));
        assertThat(fx(() -> text(robot, "#leaderLine"))).startsWith("This process leads as ");
        assertThat(fx(() -> text(robot, "#leaderBadge"))).isEqualTo("Leader");
        await().atMost(TIMEOUT).until(() -> fx(() -> text(robot, "#webhookLine"))
                .startsWith("Eviction webhook: serving at https://"));
        // The embedded cluster's webhook answers only its API server: nothing to warn about.
        assertThat(fx(() -> text(robot, "#webhookLine"))).contains("Authenticated: callers need a TLS client certificate "
                + "from the cluster's client CA (kube-system/extension-apiserver-authentication, client-ca-file).");
        assertThat(fx(() -> robot.lookup("#webhookAuthWarning").query().isVisible())).isFalse();
    }

    private static String text(FxRobot robot, String id) {
        return robot.lookup(id).queryAs(Label.class).getText();
    }
}
