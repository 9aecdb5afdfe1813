package dev.drainboard.ui;

import dev.drainboard.ui.common.Notifier;
import dev.drainboard.ui.connect.Session;
import javafx.scene.control.Label;
import org.testfx.api.FxRobot;
import org.testfx.util.WaitForAsyncUtils;

import java.time.Duration;
import java.util.List;

import static dev.drainboard.ui.ConsoleUiTest.fx;
import static org.awaitility.Awaitility.await;

/** What the console UI tests do again and again: connect to the embedded demo cluster, look at what is shown. */
final class UiSteps {

    static final Duration WAIT = Duration.ofSeconds(60);

    private UiSteps() {
    }

    /**
     * Takes off a demo node what a drain of it would strand (so the drain preview has no blockers): the replica set
     * pinned to node03 when its VMIs run there, the External VMI, and the LiveMigrate VMIs that cannot migrate
     * (ledger, legacy-erp: KubeVirt's webhook would refuse their evictions for ever).
     */
    static void removeStranding(io.fabric8.kubernetes.client.KubernetesClient client, String node) {
        var vmis = client.resources(dev.drainboard.kubevirt.api.VirtualMachineInstance.class).inNamespace("demo");
        if (vmis.withLabel("app", "workers").list().getItems().stream()
                .anyMatch(v -> v.getStatus() != null && node.equals(v.getStatus().getNodeName()))) {
            client.genericKubernetesResources("kubevirt.io/v1", "VirtualMachineInstanceReplicaSet").inNamespace("demo")
                    .withName("workers").delete();
        }
        List<String> blocking = List.of("appliance", "ledger", "legacy-erp");
        for (String name : blocking) {
            var vmi = vmis.withName(name).get();
            if (vmi != null && vmi.getStatus() != null && node.equals(vmi.getStatus().getNodeName())) {
                vmis.withName(name).delete();
            }
        }
        await().atMost(WAIT).until(() -> client.pods().inNamespace("demo").withField("spec.nodeName", node).list().getItems().stream()
                .noneMatch(p -> p.getMetadata().getName().startsWith("virt-launcher-workers")
                        || blocking.stream().anyMatch(b -> p.getMetadata().getName().startsWith("virt-launcher-" + b + "-"))));
    }

    /** Connects to the embedded demo cluster and waits until the model has synced its four nodes. */
    static Session connect(FxRobot robot, Console console) {
        robot.clickOn("#connectEmbedded");
        await().atMost(WAIT).until(() -> fx(() -> console.sessionProperty().get() != null));
        Session session = fx(() -> console.sessionProperty().get());
        await().atMost(WAIT).until(() -> fx(() -> session.model().synced().get() && session.model().nodes().size() == 4));
        return session;
    }

    /**
     * Waits until every action the console has started has been answered and its outcome handed on (a toast).
     * After a cancel or a refused input has been handled, a check that nothing was written, made then, cannot run
     * ahead of a write still on its way: the console starts its writes from the FX event that asks for them.
     */
    static void awaitActionsAnswered(Console console) {
        WaitForAsyncUtils.waitForFxEvents();
        await().atMost(WAIT).until(() -> fx(() -> console.actionsProperty().get().pendingActions() == 0));
    }

    static List<Notifier.Toast> toasts(Console console) {
        return fx(() -> List.copyOf(console.actionsProperty().get().notifier().history()));
    }

    /** Present, in a scene, and neither it nor any parent hidden. */
    static boolean visible(FxRobot robot, String query) {
        return fx(() -> robot.lookup(query).tryQuery().map(n -> n.getScene() != null && showing(n)).orElse(false));
    }

    static boolean showing(javafx.scene.Node node) {
        for (javafx.scene.Node n = node; n != null; n = n.getParent()) {
            if (!n.isVisible()) {
                return false;
            }
        }
        return true;
    }

    static String text(FxRobot robot, String query) {
        return fx(() -> robot.lookup(query).queryAs(Label.class).getText());
    }
}
