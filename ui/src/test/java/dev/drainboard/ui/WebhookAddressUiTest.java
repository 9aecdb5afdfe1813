package dev.drainboard.ui;

import dev.drainboard.cluster.EmbeddedCluster;
import dev.drainboard.cluster.EmbeddedClusterOptions;
import dev.drainboard.controlplane.LocalControlPlane;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.ui.connect.ConnectTarget;
import dev.drainboard.ui.connect.Connector;
import dev.drainboard.ui.connect.Mode;
import dev.drainboard.ui.connect.ModeChoice;
import dev.drainboard.ui.connect.Session;
import dev.drainboard.ui.model.ObjectRef;
import dev.drainboard.ui.shell.ViewId;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfiguration;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import javafx.scene.control.CheckBox;
import javafx.scene.control.Label;
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
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.prefs.BackingStoreException;

import static dev.drainboard.ui.ConsoleUiTest.fx;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The start screen's webhook address, as an operator connecting to a cluster in Control mode uses it: a bad address
 * is refused before anything starts, a good one is where the cluster is told to call the webhook, and it is
 * remembered. The "cluster" is an embedded API server reached through its kubeconfig, without controllers of its own.
 */
@ExtendWith(ApplicationExtension.class)
class WebhookAddressUiTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    private static EmbeddedCluster cluster;

    private TestConsole window;
    private Console console;

    @BeforeAll
    static void startCluster() throws Exception {
        cluster = EmbeddedCluster.start(EmbeddedClusterOptions.defaults());
    }

    @AfterAll
    static void stopCluster() {
        cluster.close();
    }

    @Start
    void start(Stage stage) {
        window = TestConsole.show(stage, o -> o.withKubeconfigs(List.of(cluster.kubeconfig()), false));
        console = window.console();
    }

    @AfterEach
    void tearDown() throws BackingStoreException {
        window.close();
    }

    @Test
    void aBadAddressIsRefusedAndAGoodOneIsWhereTheClusterCallsTheWebhook(FxRobot robot) throws Exception {
        await().atMost(TIMEOUT).until(() -> fx(() -> console.startScreen().selectContext("drainboard-embedded")));
        robot.clickOn("#modeControl");
        TextField field = robot.lookup("#webhookHost").queryAs(TextField.class);
        assertThat(fx(() -> field.getParent().isVisible())).isTrue();

        robot.clickOn(field).write("https://10.0.0.7");
        assertThat(fx(() -> robot.lookup("#webhookHelp").queryAs(Label.class).getText()))
                .startsWith("Not usable: \"https://10.0.0.7\" is a URL");
        robot.clickOn("#connectContext");
        await().atMost(TIMEOUT).until(() -> fx(() -> robot.lookup("#errorBox").query().isVisible()));
        assertThat(fx(() -> robot.lookup("#errorHeadline").queryAs(Label.class).getText()))
                .startsWith("The webhook address cannot be used");
        assertThat(fx(() -> console.sessionProperty().get())).isNull();
        ScreenshotRun.of("start-webhook-refused-light").take(console, "start-webhook-refused-light",
                "The webhook address cannot be used", "https://10.0.0.7");

        fx(() -> {
            field.setText("localhost");
            return null;
        });
        robot.clickOn("#connectContext");
        await().atMost(TIMEOUT).until(() -> fx(() -> console.sessionProperty().get() != null));
        Session session = fx(() -> console.sessionProperty().get());
        assertThat(session.info().mode()).isEqualTo(Mode.CONTROL);
        assertThat(session.info().webhook().host()).isEqualTo("localhost");
        assertThat(session.info().webhook().how()).isEqualTo("given with --webhook-host");

        try (KubernetesClient client = new KubernetesClientBuilder()
                .withConfig(Config.fromKubeconfig(Files.readString(cluster.kubeconfig()))).build()) {
            await().atMost(TIMEOUT).untilAsserted(() -> {
                ValidatingWebhookConfiguration registration = client.admissionRegistration().v1()
                        .validatingWebhookConfigurations().withName("virt-api-validator").get();
                assertThat(registration).isNotNull();
                assertThat(registration.getWebhooks().getFirst().getClientConfig().getUrl()).startsWith("https://localhost:");
            });
        }
        assertThat(window.prefs().get("webhookHost", "")).isEqualTo("localhost");
    }

    /**
     * A webhook address the cluster cannot reach (an address of no machine): evictions of LiveMigrate VMIs' pods go
     * to their PDBs and nothing marks the VMIs; the drain dialog says why and what to do. A demo cluster whose
     * simulated nodes' handler runs beside it stands in for a remote cluster.
     */
    @Test
    void aDrainTellsWhenTheClusterCannotReachTheWebhook(FxRobot robot) throws Exception {
        try (EmbeddedCluster demo = EmbeddedCluster.start(EmbeddedClusterOptions.defaults().withScenario("demo"));
             LocalControlPlane nodes = LocalControlPlane.start(Config.fromKubeconfig(Files.readString(demo.kubeconfig())),
                     demo.hypervisors(), false);
             KubernetesClient client = new KubernetesClientBuilder()
                     .withConfig(Config.fromKubeconfig(Files.readString(demo.kubeconfig()))).build()) {
            fx(() -> {
                console.startScreen().setWebhookHost("198.51.100.7"); // TEST-NET-2: no machine has it
                return null;
            });
            robot.clickOn("#modeControl");
            fx(() -> {
                console.connect(new ConnectTarget.Kubeconfig(Optional.of(demo.kubeconfig()), "drainboard-embedded"),
                        ModeChoice.CONTROL, Connector.MissingCrds.FAIL);
                return null;
            });
            await().atMost(TIMEOUT).until(() -> fx(() -> console.sessionProperty().get() != null));
            await().atMost(TIMEOUT).until(() -> {
                VirtualMachineInstance cache = client.resources(VirtualMachineInstance.class).inNamespace("demo").withName("cache").get();
                return cache != null && cache.isMigratable() && !client.policy().v1().podDisruptionBudget().inNamespace("demo")
                        .list().getItems().isEmpty();
            });
            String node = client.resources(VirtualMachineInstance.class).inNamespace("demo").withName("cache").get()
                    .getStatus().getNodeName();

            fx(() -> {
                console.shellProperty().get().show(ViewId.NODES);
                console.shellProperty().get().reveal(ObjectRef.node(node));
                return null;
            });
            WaitForAsyncUtils.waitForFxEvents();
            fx(() -> {
                robot.lookup("#nodesTable").query().requestFocus();
                return null;
            });
            robot.press(KeyCode.D).release(KeyCode.D);
            await().atMost(TIMEOUT).until(() -> fx(() -> robot.lookup("#drainDialog").tryQuery().map(n -> n.isVisible()).orElse(false)));
            // "Allow stranded VMs" too: cache's node may run the External VMI or the replica set pinned to node03.
            for (String box : List.of("#drainIgnoreDaemonSets", "#drainDeleteEmptyDir", "#drainForce", "#drainAllowStranded")) {
                fx(() -> {
                    robot.lookup(box).queryAs(CheckBox.class).setSelected(true);
                    return null;
                });
            }
            await().atMost(TIMEOUT).until(() -> !fx(() -> robot.lookup("#drainStart").queryButton().isDisabled()));
            robot.clickOn("#drainStart");

            await().atMost(TIMEOUT).until(() -> fx(() -> robot.lookup("#drainWebhookHint").query().isVisible()));
            assertThat(fx(() -> robot.lookup("#drainWebhookHint").queryAs(Label.class).getText()))
                    .contains("https://198.51.100.7:", "has answered no eviction", "--webhook-host");
            ScreenshotRun.of("drain-webhook-unreachable-light").take(console, "drain-webhook-unreachable-light",
                    "Drain " + node, "has answered no eviction", "--webhook-host");
            robot.clickOn("#drainCancelRun");
            await().atMost(TIMEOUT).until(() -> fx(() -> robot.lookup("#drainEndState").query().isVisible()));
            // Still there under "Drain cancelled": it says why the drain did not get on.
            assertThat(fx(() -> robot.lookup("#drainWebhookHint").query().isVisible())).isTrue();
            assertThat(client.resources(VirtualMachineInstance.class).inNamespace("demo").withName("cache").get()
                    .getStatus().getEvacuationNodeName()).as("nothing marked the VMI").isNull();
        }
    }

    @Test
    void observeModeHasNoWebhookToPlace(FxRobot robot) {
        // The field's row is what shows or hides.
        robot.clickOn("#modeObserve");
        assertThat(fx(() -> robot.lookup("#webhookHost").query().getParent().isVisible())).isFalse();
        robot.clickOn("#modeAuto");
        assertThat(fx(() -> robot.lookup("#webhookHost").query().getParent().isVisible())).isTrue();
    }
}
