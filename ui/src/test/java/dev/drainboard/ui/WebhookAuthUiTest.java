package dev.drainboard.ui;

import dev.drainboard.admission.WebhookCallers;
import dev.drainboard.cluster.EmbeddedCluster;
import dev.drainboard.cluster.EmbeddedClusterOptions;
import dev.drainboard.ui.connect.ConnectTarget;
import dev.drainboard.ui.connect.Connector;
import dev.drainboard.ui.connect.Mode;
import dev.drainboard.ui.connect.ModeChoice;
import dev.drainboard.ui.connect.Session;
import dev.drainboard.ui.shell.ViewId;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import javafx.scene.control.Label;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.prefs.BackingStoreException;

import static dev.drainboard.ui.ConsoleUiTest.fx;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The Controllers screen says whether the eviction webhook this process serves authenticates its callers. The
 * "cluster" is an embedded API server reached through its kubeconfig (as any other cluster would be), so nothing
 * trusts its client CA unless the console was started with {@code --webhook-client-ca}.
 */
@ExtendWith(ApplicationExtension.class)
class WebhookAuthUiTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    @TempDir
    static Path dir;
    private static EmbeddedCluster cluster;
    private static Path clientCa;

    private TestConsole window;
    private Console console;

    @BeforeAll
    static void startCluster() throws Exception {
        cluster = EmbeddedCluster.start(EmbeddedClusterOptions.defaults());
        try (KubernetesClient client = new KubernetesClientBuilder()
                .withConfig(Config.fromKubeconfig(Files.readString(cluster.kubeconfig()))).build()) {
            clientCa = Files.writeString(dir.resolve("client-ca.crt"), client.configMaps().inNamespace("kube-system")
                    .withName("extension-apiserver-authentication").get().getData().get("client-ca-file"));
        }
    }

    @AfterAll
    static void stopCluster() {
        cluster.close();
    }

    @AfterEach
    void tearDown() throws BackingStoreException {
        if (window != null) {
            window.close();
        }
    }

    @Start
    void start(Stage stage) {
        this.stage = stage;
    }

    private Stage stage;

    private void open(WebhookCallers callers) {
        fx(() -> {
            window = TestConsole.show(stage, o -> o.withKubeconfigs(List.of(cluster.kubeconfig()), false).withWebhookCallers(callers));
            console = window.console();
            return null;
        });
    }

    private Session connectInControlMode() {
        fx(() -> {
            console.connect(new ConnectTarget.Kubeconfig(Optional.of(cluster.kubeconfig()), "drainboard-embedded"),
                    ModeChoice.CONTROL, Connector.MissingCrds.FAIL);
            return null;
        });
        await().atMost(TIMEOUT).until(() -> fx(() -> console.sessionProperty().get() != null));
        Session session = fx(() -> console.sessionProperty().get());
        assertThat(session.info().mode()).isEqualTo(Mode.CONTROL);
        fx(() -> {
            console.shellProperty().get().show(ViewId.CONTROLLERS);
            return null;
        });
        await().atMost(TIMEOUT).until(() -> fx(() -> session.controlPlaneStatus().webhook().get().serving()));
        return session;
    }

    @Test
    void anUnauthenticatedWebhookIsSaidPlainlyWithWhoCanReachIt(FxRobot robot) {
        open(WebhookCallers.anyone());
        connectInControlMode();

        Label warning = robot.lookup("#webhookAuthWarning").queryAs(Label.class);
        await().atMost(TIMEOUT).until(() -> fx(warning::isVisible));
        assertThat(fx(warning::getText)).isEqualTo("The eviction webhook is unauthenticated: it answers any caller that "
                + "can connect to it, which is any program or user on this machine (it listens on 127.0.0.1, loopback). "
                + "Such a caller can mark VMIs for evacuation and make them live-migrate. Give --webhook-client-ca FILE "
                + "(the CA of the client certificate the cluster's API server presents to webhooks) to refuse everyone else.");
        ScreenshotRun.of("controllers-webhook-unauthenticated-light").take(console, "controllers-webhook-unauthenticated-light",
                "Eviction webhook: serving at https://", "The eviction webhook is unauthenticated", "--webhook-client-ca FILE");
    }

    @Test
    void withAClientCaTheScreenSaysWhomTheWebhookAnswers(FxRobot robot) throws Exception {
        open(WebhookCallers.fromFile(clientCa));
        connectInControlMode();

        await().atMost(TIMEOUT).until(() -> fx(() -> robot.lookup("#webhookLine").queryAs(Label.class).getText())
                .contains("Authenticated: callers need a TLS client certificate from " + clientCa + "."));
        assertThat(fx(() -> robot.lookup("#webhookAuthWarning").query().isVisible())).isFalse();
    }
}
