package dev.drainboard.ui;

import dev.drainboard.kubevirt.api.Condition;
import dev.drainboard.kubevirt.api.MigrationState;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceMigration;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceMigrationSpec;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceMigrationStatus;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceStatus;
import dev.drainboard.simulation.SimulationKnobs;
import dev.drainboard.ui.connect.Session;
import dev.drainboard.ui.shell.ViewId;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.TaintBuilder;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudgetBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import javafx.scene.image.PixelReader;
import javafx.scene.image.WritableImage;
import javafx.scene.input.KeyCode;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.prefs.BackingStoreException;

import static dev.drainboard.ui.ConsoleUiTest.fx;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Takes a PNG of every screen, light and dark, from the running console on the demo scenario in the middle of
 * a real drain (the controllers run: the drain taint makes the evacuation controller migrate VMIs). Writes to
 * {@code -Ddrainboard.screenshots=DIR}, else {@code target/screenshots}.
 */
@ExtendWith(ApplicationExtension.class)
class ScreenshotsTest {

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
    void everyScreenLightAndDark(FxRobot robot) throws IOException {
        Path dir = Path.of(System.getProperty("drainboard.screenshots", "target/screenshots"));
        Files.createDirectories(dir);
        snap(dir.resolve("start-light.png"));

        robot.clickOn("#connectEmbedded");
        await().atMost(Duration.ofSeconds(60)).until(() -> fx(() -> console.sessionProperty().get() != null));
        Session session = fx(() -> console.sessionProperty().get());
        await().atMost(Duration.ofSeconds(60)).until(() -> fx(() -> session.model().synced().get()));
        await().atMost(Duration.ofSeconds(60)).until(() -> fx(() -> session.model().vmis().size() == 12 // 9 + the 3 of the replica set "workers"
                && session.model().vmis().stream().allMatch(v -> !v.node().isEmpty())));
        await().atMost(Duration.ofSeconds(60)).until(() -> fx(() -> session.model().vmis().stream()
                .allMatch(v -> v.phase().equals("Running"))));
        migrateAndWait(session.client(), "web-frontend");
        slowLinks(session.client());
        // Before the drain: a drain that evacuated cache's node first would leave no room for this migration.
        migrateWhileDirtying(session.client(), "cache", "6Mi");
        startDrain(session.client());
        await().atMost(Duration.ofSeconds(60)).until(() -> fx(() -> session.model().migrations().stream()
                .filter(m -> m.progress() != null && !m.finished()).count() >= 2));
        await().atMost(Duration.ofSeconds(60)).until(() -> fx(() -> !session.model().migrations().isEmpty()
                && session.model().nodes().stream().filter(n -> n.cordoned()).count() == 2));

        for (String theme : List.of("light", "dark")) {
            if (theme.equals("dark")) {
                robot.clickOn("#themeToggle");
            }
            for (ViewId view : ViewId.values()) {
                fx(() -> {
                    console.shellProperty().get().show(view);
                    return null;
                });
                selectSomething(robot, view);
                snap(dir.resolve(view.name().toLowerCase().replace('_', '-') + "-" + theme + ".png"));
            }
            robot.press(KeyCode.CONTROL, KeyCode.K).release(KeyCode.K, KeyCode.CONTROL);
            robot.write("node");
            snap(dir.resolve("palette-" + theme + ".png"));
            robot.press(KeyCode.ESCAPE).release(KeyCode.ESCAPE);
        }
        fx(() -> {
            console.disconnect();
            return null;
        });
        snap(dir.resolve("start-dark.png"));
        assertThat(Files.list(dir).filter(p -> p.toString().endsWith(".png")).count()).isGreaterThanOrEqualTo(20);
    }

    private void selectSomething(FxRobot robot, ViewId view) {
        String ref = switch (view) {
            case NODES -> "node02";
            case VMIS -> "ledger";
            case PDBS -> "kubevirt-disruption-budget-x7k2p";
            case REPLICA_SETS -> "workers";
            default -> null;
        };
        if (view == ViewId.MIGRATIONS) {
            robot.clickOn("#timelineWindow5");
            fx(() -> {
                var shell = console.shellProperty().get();
                shell.session().model().migrations().stream().filter(m -> m.vmi().equals("database")).findFirst()
                        .ifPresent(m -> shell.reveal(m.ref()));
                return null;
            });
        }
        if (ref != null) {
            fx(() -> {
                var shell = console.shellProperty().get();
                var model = shell.session().model();
                model.nodes().stream().filter(n -> n.name().equals(ref)).findFirst().ifPresent(r -> shell.reveal(r.ref()));
                model.vmis().stream().filter(n -> n.name().equals(ref)).findFirst().ifPresent(r -> shell.reveal(r.ref()));
                model.pdbs().stream().filter(n -> n.name().equals(ref)).findFirst().ifPresent(r -> shell.reveal(r.ref()));
                model.migrations().stream().filter(n -> n.name().equals(ref)).findFirst().ifPresent(r -> shell.reveal(r.ref()));
                model.replicaSets().stream().filter(n -> n.name().equals(ref)).findFirst().ifPresent(r -> shell.reveal(r.ref()));
                return null;
            });
        }
    }

    private void snap(Path file) throws IOException {
        snap(console, file);
    }

    /** The console's scene as a PNG, once pending FX work and a pulse or two have passed. */
    static void snap(Console console, Path file) throws IOException {
        WaitForAsyncUtils.waitForFxEvents(5);
        // Let the YAML arrive and a pulse or two pass.
        await().pollDelay(Duration.ofMillis(400)).atMost(Duration.ofSeconds(2)).until(() -> true);
        WaitForAsyncUtils.waitForFxEvents(5);
        WritableImage image = fx(() -> console.scene().snapshot(null));
        int w = (int) image.getWidth();
        int h = (int) image.getHeight();
        BufferedImage out = new BufferedImage(w, h, BufferedImage.TYPE_INT_RGB);
        PixelReader pixels = image.getPixelReader();
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                out.setRGB(x, y, pixels.getArgb(x, y));
            }
        }
        ImageIO.write(out, "png", file.toFile());
    }

    /** Every node's link slowed to 4 MiB/s, so migrations started from now on stay in flight for the screenshots. */
    static void slowLinks(KubernetesClient client) {
        for (var node : client.nodes().list().getItems()) {
            client.nodes().withName(node.getMetadata().getName()).edit(n -> {
                n.getMetadata().getAnnotations().put(SimulationKnobs.LINK_SPEED, "4Mi");
                return n;
            });
        }
    }

    /**
     * A real drain in progress (after {@link #slowLinks}, so its migrations stay in flight while the pictures are
     * taken): the node running the "database" VMI gets the drain taint (the evacuation controller migrates its VMIs)
     * and is cordoned, and node04 is cordoned as a second maintenance candidate.
     */
    static String startDrain(KubernetesClient client) {
        String drained = client.resources(VirtualMachineInstance.class).inNamespace("demo").withName("database").get()
                .getStatus().getNodeName();
        client.nodes().withName(drained).edit(n -> {
            n.getSpec().setUnschedulable(true);
            n.getSpec().setTaints(List.of(new TaintBuilder().withKey("kubevirt.io/drain").withEffect("NoSchedule").build()));
            return n;
        });
        String other = drained.equals("node04") ? "node01" : "node04";
        client.nodes().withName(other).edit(n -> {
            n.getSpec().setUnschedulable(true);
            return n;
        });
        return drained;
    }

    /** A user-requested migration on the default fast link, finished before the drain starts: a green bar. */
    static void migrateAndWait(KubernetesClient client, String vmi) {
        String name = new dev.drainboard.ops.VmiOps(client).migrate("demo", vmi).name();
        await().atMost(Duration.ofSeconds(60)).until(() -> {
            var m = client.resources(VirtualMachineInstanceMigration.class).inNamespace("demo").withName(name).get();
            return m != null && m.getStatus() != null && "Succeeded".equals(m.getStatus().getPhase());
        });
    }

    /**
     * A migration whose guest dirties memory faster than the (slowed) link sends it: its remaining data grows, the
     * console must say it is not converging.
     */
    static void migrateWhileDirtying(KubernetesClient client, String vmi, String dirtyRate) {
        client.resources(VirtualMachineInstance.class).inNamespace("demo").withName(vmi).edit(v -> {
            if (v.getMetadata().getAnnotations() == null) {
                v.getMetadata().setAnnotations(new java.util.HashMap<>());
            }
            v.getMetadata().getAnnotations().put(SimulationKnobs.MEMORY_DIRTY_RATE, dirtyRate);
            return v;
        });
        new dev.drainboard.ops.VmiOps(client).migrate("demo", vmi);
    }

    private static void event(KubernetesClient client, String object, String kind, String ns, String type, String reason,
                              String message, String component) {
        String namespace = ns.isEmpty() ? "default" : ns;
        String now = Instant.now().toString();
        client.v1().events().inNamespace(namespace).resource(new EventBuilder()
                .withNewMetadata().withName(object + "." + UUID.randomUUID().toString().substring(0, 8)).withNamespace(namespace).endMetadata()
                .withNewInvolvedObject().withKind(kind).withName(object).withNamespace(ns.isEmpty() ? null : ns).endInvolvedObject()
                .withType(type).withReason(reason).withMessage(message).withCount(1)
                .withFirstTimestamp(now).withLastTimestamp(now)
                .withNewSource().withComponent(component).endSource()
                .build()).create();
    }
}
