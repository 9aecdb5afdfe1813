package dev.drainboard.ui;

import dev.drainboard.ui.connect.Session;
import dev.drainboard.ui.model.NodeRow;
import dev.drainboard.ui.model.VmiRow;
import dev.drainboard.ui.shell.ViewId;
import javafx.application.Application;
import javafx.scene.control.Label;
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

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.prefs.BackingStoreException;
import java.util.prefs.Preferences;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The console as an operator uses it, headless (Monocle), on the embedded demo cluster and on broken kubeconfigs. */
@ExtendWith(ApplicationExtension.class)
class ConsoleUiTest {

    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(60);

    @TempDir
    static Path tmp;

    private Console console;
    private Preferences prefs;

    @Start
    void start(Stage stage) throws IOException {
        prefs = Preferences.userRoot().node("dev/drainboard/ui-test/" + UUID.randomUUID());
        Path garbage = tmp.resolve("broken-kubeconfig.yaml");
        Files.writeString(garbage, "apiVersion: v1\nclusters: [ this is: not: yaml\n");
        Path unreachable = tmp.resolve("unreachable-kubeconfig.yaml");
        Files.writeString(unreachable, kubeconfigFor("https://127.0.0.1:" + closedPort()));
        console = new Console(ConsoleOptions.defaults().withPrefs(prefs)
                .withKubeconfigs(List.of(garbage, unreachable), false));
        console.show(stage);
    }

    @AfterEach
    void tearDown() throws BackingStoreException {
        console.close();
        prefs.removeNode();
    }

    @Test
    void connectingToTheEmbeddedDemoClusterFillsTheNodesAndVmisTables(FxRobot robot) {
        Session session = connectEmbedded(robot);

        robot.press(KeyCode.CONTROL, KeyCode.DIGIT2).release(KeyCode.DIGIT2, KeyCode.CONTROL);
        TableView<NodeRow> nodes = robot.lookup("#nodesTable").queryTableView();
        await().atMost(CONNECT_TIMEOUT).until(() -> fx(() -> nodes.getItems().size()) == 4);
        assertThat(fx(() -> nodes.getItems().stream().map(NodeRow::name).sorted().toList()))
                .containsExactly("node01", "node02", "node03", "node04");
        await().atMost(CONNECT_TIMEOUT).until(() -> fx(() -> nodes.getItems().stream()
                .allMatch(n -> n.readiness() == NodeRow.Readiness.READY)));

        robot.press(KeyCode.CONTROL, KeyCode.DIGIT3).release(KeyCode.DIGIT3, KeyCode.CONTROL);
        TableView<VmiRow> vmis = robot.lookup("#vmisTable").queryTableView();
        await().atMost(CONNECT_TIMEOUT).until(() -> fx(() -> vmis.getItems().size()) >= 8);
        VmiRow batch = fx(() -> vmis.getItems().stream().filter(v -> v.name().equals("batch-runner")).findFirst().orElseThrow());
        assertThat(batch.evictionStrategy()).isEqualTo("None");
        // virt-api wrote the cluster default into its spec when it was created, as KubeVirt does since v1.1
        assertThat(batch.strategySource()).isEqualTo("VMI");
        VmiRow database = fx(() -> vmis.getItems().stream().filter(v -> v.name().equals("database")).findFirst().orElseThrow());
        assertThat(database.evictionStrategy()).isEqualTo("LiveMigrate");
        assertThat(database.strategySource()).isEqualTo("VMI");
        assertThat(session.info().mode().label()).isEqualTo("Control");
        assertThat(robot.lookup("#modeLabel").queryAs(Label.class).getText()).isEqualTo("Mode: Control");
    }

    @Test
    void theThemeToggleSwitchesToDarkAndIsRemembered(FxRobot robot) {
        connectEmbedded(robot);
        assertThat(Application.getUserAgentStylesheet()).contains("primer-light");

        robot.clickOn("#themeToggle");
        WaitForAsyncUtils.waitForFxEvents();

        assertThat(Application.getUserAgentStylesheet()).contains("primer-dark");
        assertThat(prefs.getBoolean("theme.dark", false)).isTrue();
        assertThat(robot.lookup("#themeToggle").queryButton().getText()).isEqualTo("Light theme");

        robot.clickOn("#themeToggle");
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(Application.getUserAgentStylesheet()).contains("primer-light");
        assertThat(prefs.getBoolean("theme.dark", true)).isFalse();
    }

    @Test
    void theCommandPaletteJumpsToANode(FxRobot robot) {
        Session session = connectEmbedded(robot);
        await().atMost(CONNECT_TIMEOUT).until(() -> fx(() -> session.model().nodes().size()) == 4);

        robot.press(KeyCode.CONTROL, KeyCode.K).release(KeyCode.K, KeyCode.CONTROL);
        await().atMost(Duration.ofSeconds(10)).until(() -> fx(() -> console.shellProperty().get().paletteOpen()));
        robot.clickOn("#paletteField").write("node03");
        WaitForAsyncUtils.waitForFxEvents();
        robot.press(KeyCode.ENTER).release(KeyCode.ENTER);
        WaitForAsyncUtils.waitForFxEvents();

        assertThat(fx(() -> console.shellProperty().get().current())).isEqualTo(ViewId.NODES);
        TableView<NodeRow> nodes = robot.lookup("#nodesTable").queryTableView();
        assertThat(fx(() -> nodes.getSelectionModel().getSelectedItem().name())).isEqualTo("node03");
    }

    @Test
    void anUnreadableKubeconfigIsShownPlainly(FxRobot robot) {
        await().atMost(Duration.ofSeconds(20)).until(() -> fx(() ->
                robot.lookup("#sourceProblems .label").tryQuery().isPresent()));
        String problem = fx(() -> robot.lookup("#sourceProblems .label").queryAs(Label.class).getText());
        assertThat(problem).contains("broken-kubeconfig.yaml").contains("is not valid YAML");
        // The good file's context is still listed and the app keeps running.
        assertThat(fx(() -> console.startScreen().selectContext("unreachable"))).isTrue();
    }

    @Test
    void anUnreachableServerIsShownWithItsUrlAndCause(FxRobot robot) {
        await().atMost(Duration.ofSeconds(20)).until(() -> fx(() -> console.startScreen().selectContext("unreachable")));
        robot.clickOn("#connectContext");

        await().atMost(CONNECT_TIMEOUT).until(() -> fx(() -> robot.lookup("#errorBox").query().isVisible()));
        String headline = fx(() -> robot.lookup("#errorHeadline").queryAs(Label.class).getText());
        String detail = fx(() -> robot.lookup("#errorDetail").queryAs(Label.class).getText());
        assertThat(headline).startsWith("Cannot reach the API server at https://127.0.0.1:");
        assertThat(detail).containsIgnoringCase("connection refused");
        assertThat(console.sessionProperty().get()).isNull();
        // Still usable: the embedded cluster starts from the same screen.
        connectEmbedded(robot);
    }

    private Session connectEmbedded(FxRobot robot) {
        robot.clickOn("#connectEmbedded");
        await().atMost(CONNECT_TIMEOUT).until(() -> fx(() -> console.sessionProperty().get() != null));
        Session session = fx(() -> console.sessionProperty().get());
        await().atMost(CONNECT_TIMEOUT).until(() -> fx(() -> session.model().synced().get()));
        return session;
    }

    static <T> T fx(Callable<T> read) {
        try {
            return WaitForAsyncUtils.asyncFx(read).get(30, java.util.concurrent.TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    static int closedPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    static String kubeconfigFor(String server) {
        return """
                apiVersion: v1
                kind: Config
                clusters:
                - name: nowhere
                  cluster:
                    server: %s
                    insecure-skip-tls-verify: true
                contexts:
                - name: unreachable
                  context:
                    cluster: nowhere
                    user: someone
                current-context: unreachable
                users:
                - name: someone
                  user:
                    token: not-a-real-token
                """.formatted(server);
    }
}
