package dev.drainboard.ui;

import dev.drainboard.kubevirt.api.Condition;
import dev.drainboard.kubevirt.api.MigrationState;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceMigration;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceMigrationSpec;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceMigrationStatus;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceStatus;
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
import java.util.prefs.Preferences;

import static dev.drainboard.ui.ConsoleUiTest.fx;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Takes a PNG of every screen, light and dark, from the running console on the demo scenario with a drain of
 * node02 staged (until the controllers exist, the test writes the statuses they would write). Writes to
 * {@code -Ddrainboard.screenshots=DIR}, else {@code target/screenshots}.
 */
@ExtendWith(ApplicationExtension.class)
class ScreenshotsTest {

    private Console console;
    private Preferences prefs;

    @Start
    void start(Stage stage) {
        prefs = Preferences.userRoot().node("dev/drainboard/ui-test/" + UUID.randomUUID());
        console = new Console(ConsoleOptions.defaults().withPrefs(prefs).withKubeconfigs(List.of(), false));
        console.show(stage);
    }

    @AfterEach
    void tearDown() throws BackingStoreException {
        console.close();
        prefs.removeNode();
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
        stageDrain(session.client());
        await().atMost(Duration.ofSeconds(30)).until(() -> fx(() -> session.model().migrations().size() == 1
                && session.model().vmis().stream().filter(v -> !v.node().isEmpty()).count() == 8
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
            case MIGRATIONS -> "kubevirt-evacuation-q8w4n";
            default -> null;
        };
        if (ref != null) {
            fx(() -> {
                var shell = console.shellProperty().get();
                var model = shell.session().model();
                model.nodes().stream().filter(n -> n.name().equals(ref)).findFirst().ifPresent(r -> shell.reveal(r.ref()));
                model.vmis().stream().filter(n -> n.name().equals(ref)).findFirst().ifPresent(r -> shell.reveal(r.ref()));
                model.pdbs().stream().filter(n -> n.name().equals(ref)).findFirst().ifPresent(r -> shell.reveal(r.ref()));
                model.migrations().stream().filter(n -> n.name().equals(ref)).findFirst().ifPresent(r -> shell.reveal(r.ref()));
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

    /** node02 is being drained: cordoned and tainted, database migrating to node03, ledger stuck; node04 drained. */
    static void stageDrain(KubernetesClient client) {
        String now = Instant.now().toString();
        for (String node : List.of("node02", "node04")) {
            client.nodes().withName(node).edit(n -> {
                n.getSpec().setUnschedulable(true);
                if (node.equals("node02")) {
                    n.getSpec().setTaints(List.of(new TaintBuilder().withKey("kubevirt.io/drain").withEffect("NoSchedule").build()));
                }
                return n;
            });
        }
        record Placement(String node, boolean migratable, String reason, String message, boolean marked) {
        }
        Map<String, Placement> placements = Map.of(
                "database", new Placement("node02", true, "", "", true),
                "ledger", new Placement("node02", false, "DisksNotLiveMigratable",
                        "cannot migrate VMI: PVC local-disk is not shared, live migration requires that all PVCs must be shared (using ReadWriteMany access mode)", true),
                "scratch-worker", new Placement("node02", true, "", "", false),
                "cache", new Placement("node03", true, "", "", false),
                "appliance", new Placement("node03", true, "", "", false),
                "legacy-erp", new Placement("node03", false, "NotMigratable", "VMI is not migratable", false),
                "ml-trainer", new Placement("node01", false, "HostDeviceNotLiveMigratable",
                        "VMI uses a PCI host devices", false),
                "batch-runner", new Placement("node01", true, "", "", false));
        String databaseUid = client.resources(VirtualMachineInstance.class).inNamespace("demo").withName("database").get()
                .getMetadata().getUid();
        placements.forEach((name, p) -> client.resources(VirtualMachineInstance.class).inNamespace("demo").withName(name).edit(v -> {
            VirtualMachineInstanceStatus s = v.getStatus() == null ? new VirtualMachineInstanceStatus() : v.getStatus();
            s.setPhase("Running");
            s.setNodeName(p.node());
            s.setConditions(List.of(new Condition("Ready", "True", "", ""),
                    new Condition("LiveMigratable", p.migratable() ? "True" : "False",
                            p.reason().isEmpty() ? null : p.reason(), p.message().isEmpty() ? null : p.message())));
            if (p.marked()) {
                s.setEvacuationNodeName("node02");
            }
            v.setStatus(s);
            return v;
        }));
        client.policy().v1().podDisruptionBudget().inNamespace("demo").resource(new PodDisruptionBudgetBuilder()
                .withMetadata(new ObjectMetaBuilder().withName("kubevirt-disruption-budget-x7k2p").withNamespace("demo")
                        .addToLabels(dev.drainboard.kubevirt.KubeVirtNames.Labels.MIGRATION_NAME, "kubevirt-evacuation-q8w4n")
                        .addNewOwnerReference().withApiVersion("kubevirt.io/v1").withKind("VirtualMachineInstance")
                        .withName("database").withUid(databaseUid).withController(true).endOwnerReference().build())
                .withNewSpec().withMinAvailable(new IntOrString(2))
                .withNewSelector().addToMatchLabels("kubevirt.io/created-by", databaseUid).endSelector().endSpec()
                .build()).create();
        VirtualMachineInstanceMigration vmim = new VirtualMachineInstanceMigration();
        vmim.setMetadata(new ObjectMetaBuilder().withName("kubevirt-evacuation-q8w4n").withNamespace("demo")
                .addToAnnotations("kubevirt.io/evacuationMigration", "node02").build());
        vmim.setSpec(new VirtualMachineInstanceMigrationSpec("database"));
        var created = client.resources(VirtualMachineInstanceMigration.class).inNamespace("demo").resource(vmim).create();
        VirtualMachineInstanceMigrationStatus status = new VirtualMachineInstanceMigrationStatus();
        status.setPhase("Running");
        MigrationState state = new MigrationState();
        state.setSourceNode("node02");
        state.setTargetNode("node03");
        state.setStartTimestamp(now);
        status.setMigrationState(state);
        created.setStatus(status);
        client.resources(VirtualMachineInstanceMigration.class).inNamespace("demo").resource(created).updateStatus();
        event(client, "node02", "Node", "", "Normal", "NodeNotSchedulable", "Node node02 status is now: NodeNotSchedulable", "kubelet");
        event(client, "database", "VirtualMachineInstance", "demo", "Normal", "EvictionRequested", "Eviction requested: VMI marked for evacuation from node02", "drainboard-admission");
        event(client, "kubevirt-evacuation-q8w4n", "VirtualMachineInstanceMigration", "demo", "Normal", "SuccessfulCreate", "Created migration target pod demo/virt-launcher-database-x2v9d", "drainboard-migration-controller");
        event(client, "ledger", "VirtualMachineInstance", "demo", "Warning", "FailedMigration", "Cannot migrate VMI, Reason: DisksNotLiveMigratable, Message: PVC local-disk is not shared", "drainboard-evacuation-controller");
        event(client, "web-6b9d8f7c5-r8vzq", "Pod", "demo", "Warning", "EvictionBlocked", "Cannot evict pod as it would violate the pod's disruption budget.", "drainboard");
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
