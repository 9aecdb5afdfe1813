package dev.drainboard.ui;

import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceMigration;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceMigrationSpec;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceMigrationStatus;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceStatus;
import dev.drainboard.simulation.SimulationKnobs;
import dev.drainboard.ui.connect.Session;
import dev.drainboard.ui.model.ObjectRef;
import dev.drainboard.ui.shell.ViewId;
import io.fabric8.kubernetes.api.model.TaintBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import javafx.scene.input.KeyCode;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.prefs.BackingStoreException;

import static dev.drainboard.ui.ConsoleUiTest.fx;
import static org.awaitility.Awaitility.await;

/**
 * Takes a PNG of every screen, light and dark, from the running console on the demo scenario in the middle of
 * a real drain (the controllers run: the drain taint makes the evacuation controller migrate VMIs). The Controllers
 * screen's pictures are {@link ControllersScreenshotsTest}'s, the History screen's {@link HistoryScreenshotsTest}'s. Each picture is checked for what it must show
 * ({@link ScreenshotRun}); written to {@code -Ddrainboard.screenshots=DIR}, else {@code target/screenshots}.
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
    void everyScreenLightAndDark(FxRobot robot) {
        ScreenshotRun shots = ScreenshotRun.of(names());
        String[] start = {"Drainboard", "Kubernetes contexts", "Embedded cluster", "Start embedded cluster", "Mode"};
        shots.take(console, "start-light", start);

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
        String drained = startDrain(session.client());
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
                List<String> shows = new ArrayList<>(List.of(view.title(), view.subtitle()));
                shows.addAll(selectSomething(robot, view, session, drained));
                if (view != ViewId.CONTROLLERS && view != ViewId.HISTORY && view != ViewId.MAINTENANCE) { // ControllersScreenshotsTest's, HistoryScreenshotsTest's, MaintenanceScreenshotsTest's pictures
                    shots.take(console, fileName(view) + "-" + theme, shows.toArray(String[]::new));
                }
            }
            robot.press(KeyCode.CONTROL, KeyCode.K).release(KeyCode.K, KeyCode.CONTROL);
            robot.write("node");
            // Over the last view: the palette's field and what it found for "node".
            shots.take(console, "palette-" + theme, "node", "Nodes", "View · Ctrl+2", "node01", "node02", "node03",
                    "node04", "Node · Ready");
            robot.press(KeyCode.ESCAPE).release(KeyCode.ESCAPE);
        }
        fx(() -> {
            console.disconnect();
            return null;
        });
        shots.take(console, "start-dark", start);
        shots.assertAllTaken();
    }

    /** The pictures this test takes: every view but the Controllers screen, light and dark, the palette, the start. */
    private static String[] names() {
        List<String> names = new ArrayList<>();
        for (String theme : List.of("light", "dark")) {
            for (ViewId view : ViewId.values()) {
                if (view != ViewId.CONTROLLERS && view != ViewId.HISTORY && view != ViewId.MAINTENANCE) {
                    names.add(fileName(view) + "-" + theme);
                }
            }
            names.add("palette-" + theme);
            names.add("start-" + theme);
        }
        return names.toArray(String[]::new);
    }

    private static String fileName(ViewId view) {
        return view.name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
    }

    /**
     * Selects an object on {@code view} (its details pane open) and says what the picture must show then: the
     * objects the view is about and, with a selection, the object's name and YAML in the details pane.
     */
    private List<String> selectSomething(FxRobot robot, ViewId view, Session session, String drained) {
        var model = session.model();
        return switch (view) {
            // The drained node's tile says it is not yet safe to reboot.
            case OVERVIEW -> List.of("node01", "node02", "node03", "node04", "Cordoned", "in flight", "Not yet safe: ");
            case NODES -> {
                reveal(ObjectRef.node("node02"));
                yield List.of("node01", "node03", "node04", "node02", "kind: \"Node\"", "name: \"node02\"");
            }
            case VMIS -> {
                reveal(new ObjectRef(ObjectRef.Kind.VMI, "demo", "ledger"));
                yield List.of("database", "cache", "demo/ledger", "kind: \"VirtualMachineInstance\"");
            }
            case MIGRATIONS -> {
                robot.clickOn("#timelineWindow5");
                var migration = fx(() -> model.migrations().stream().filter(m -> m.vmi().equals("database"))
                        .findFirst().orElseThrow());
                reveal(migration.ref());
                // The drain's migration of "database" in the details pane; the timeline's lane of the drained node.
                yield List.of("database", "cache", "web-frontend", "Running", "Succeeded", migration.ref().key(),
                        "kind: \"VirtualMachineInstanceMigration\"", "Timeline", drained);
            }
            case PDBS -> {
                // The "database" VMI's PDB, expanded to cover its migration's target pod.
                var pdb = fx(() -> model.pdbs().stream().filter(p -> p.owner().equals("VirtualMachineInstance/database"))
                        .findFirst().orElseThrow());
                reveal(pdb.ref());
                yield List.of("web", "app=web", pdb.ref().key(), "kind: \"PodDisruptionBudget\"",
                        "VirtualMachineInstance/database");
            }
            case REPLICA_SETS -> {
                reveal(new ObjectRef(ObjectRef.Kind.VMIRS, "demo", "workers"));
                yield List.of("workers", "demo/workers", "kind: \"VirtualMachineInstanceReplicaSet\"");
            }
            case EVENTS -> List.of("Normal", "SuccessfulCreate", "VirtualMachineInstance/");
            case CONTROLLERS -> List.of("vmi-controller", "evacuation");
            case HISTORY -> List.of(); // not pictured here: HistoryScreenshotsTest
            case VMS -> {
                reveal(new ObjectRef(ObjectRef.Kind.VM, "demo", "web-frontend"));
                yield List.of("web-frontend", "Always", "demo/web-frontend", "kind: \"VirtualMachine\"");
            }
            // The other pods a drain touches, with what it does with each.
            case PODS -> List.of("node-exporter-node01", "DaemonSet", "Needs Ignore DaemonSets", "ReplicaSet");
            case MAINTENANCE -> List.of(); // not pictured here: MaintenanceScreenshotsTest
        };
    }

    private void reveal(ObjectRef ref) {
        fx(() -> {
            console.shellProperty().get().reveal(ref);
            return null;
        });
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
}
