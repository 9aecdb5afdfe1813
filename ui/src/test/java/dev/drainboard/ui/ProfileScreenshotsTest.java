package dev.drainboard.ui;

import dev.drainboard.kubevirt.KubeVirtProfile;
import dev.drainboard.kubevirt.ProfileChoice;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.ui.connect.Session;
import dev.drainboard.ui.model.ObjectRef;
import dev.drainboard.ui.shell.ViewId;
import io.fabric8.kubernetes.client.KubernetesClient;
import javafx.scene.control.CheckBox;
import javafx.scene.control.TableView;
import javafx.scene.input.KeyCode;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.prefs.BackingStoreException;

import static dev.drainboard.ui.ConsoleUiTest.fx;
import static org.awaitility.Awaitility.await;

/**
 * The drain dialog's preview on the demo scenario as each KubeVirt release runs it (docs/kubevirt-versions.md), light
 * and dark: the embedded cluster's release set as the Controllers screen's choice sets it, the status bar naming it,
 * the database VMI's pod a live migration held by its PDB (≤ 1.4) or by the webhook's refusals (1.5 on).
 */
@ExtendWith(ApplicationExtension.class)
class ProfileScreenshotsTest {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final List<String> VERSIONS = List.of("v1.4.0", "v1.5.0", "v1.6.0", "v1.8.0", "v1.9.0");

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

    private static String name(String version) {
        return "drain-preview-kubevirt-" + version.substring(1).replace('.', '-');
    }

    @Test
    void drainPreviewPerReleaseLightAndDark(FxRobot robot) {
        List<String> names = new ArrayList<>();
        VERSIONS.forEach(v -> names.addAll(List.of(name(v) + "-light", name(v) + "-dark")));
        ScreenshotRun shots = ScreenshotRun.of(names.toArray(String[]::new));
        robot.clickOn("#connectEmbedded");
        await().atMost(WAIT).until(() -> fx(() -> console.sessionProperty().get() != null));
        Session session = fx(() -> console.sessionProperty().get());
        KubernetesClient client = session.client();
        await().atMost(WAIT).until(() -> {
            int vmis = client.resources(VirtualMachineInstance.class).inAnyNamespace().list().getItems().size();
            return fx(() -> session.model().synced().get() && session.model().vmis().size() == vmis
                    && session.model().vmis().stream().allMatch(v -> "Running".equals(v.phase())));
        });
        String node = client.resources(VirtualMachineInstance.class).inNamespace("demo").withName("database").get()
                .getStatus().getNodeName();
        UiSteps.removeStranding(client, node);

        for (String version : VERSIONS) {
            KubeVirtProfile profile = ProfileChoice.override(version).orElseThrow().profile();
            session.embeddedCluster().orElseThrow().setKubeVirtVersion(version);
            await().atMost(WAIT).until(() -> fx(() -> session.model().kubeVirtSettings().get().profile().startsWith(profile.label())));
            select(robot, node);
            robot.press(KeyCode.D).release(KeyCode.D);
            TableView<?> preview = robot.lookup("#drainPreviewTable").queryTableView();
            await().atMost(WAIT).until(() -> fx(() -> !preview.getItems().isEmpty()));
            fx(() -> {
                robot.lookup("#drainIgnoreDaemonSets").queryAs(CheckBox.class).setSelected(true);
                return null;
            });
            // The preview read again with the box ticked (the DaemonSet's pod stays); who holds the database VMI's pod.
            String holds = profile.webhookDeniesRepeats() ? "the eviction webhook refuses its"
                    : "PodDisruptionBudget demo/kubevirt-disruption-budget-";
            String[] shows = {"Drain " + node, "virt-launcher-database-", "Live migration", "Stays (DaemonSet)", holds, profile.label()};
            shots.take(console, name(version) + "-light", shows);
            fx(() -> {
                console.theme().toggle();
                return null;
            });
            shots.take(console, name(version) + "-dark", shows);
            fx(() -> {
                console.theme().toggle();
                return null;
            });
            robot.clickOn("#drainCancel");
            WaitForAsyncUtils.waitForFxEvents();
        }
        shots.assertAllTaken();
    }

    private void select(FxRobot robot, String node) {
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
        WaitForAsyncUtils.waitForFxEvents();
    }
}
