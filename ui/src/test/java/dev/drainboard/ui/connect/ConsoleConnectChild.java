package dev.drainboard.ui.connect;

import dev.drainboard.ui.model.ClusterModel;
import javafx.application.Platform;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The console's connection code in a JVM of its own, so that {@link ConnectLogsNoSecretsTest} can start it with every
 * logger at TRACE: connects to a kubeconfig's context in Control mode, then to a fresh embedded cluster (the console's
 * default), each until its live model has synced and shows the nodes, as the console does before it shows them.
 * No window is opened; the FX toolkit runs headless (Monocle) because the model hands its rows to the FX thread.
 *
 * <p>Arguments: the home folder, the kubeconfig to connect to (context "embedded"), and where to copy the embedded
 * cluster's kubeconfig so that the test knows its token. Exit 0 when both connections worked.
 */
public final class ConsoleConnectChild {

    private ConsoleConnectChild() {
    }

    public static void main(String[] args) {
        try {
            connectTwice(args);
        } catch (Exception | AssertionError e) {
            e.printStackTrace();
            System.exit(1);
        }
        Platform.exit();
        System.exit(0);
    }

    private static void connectTwice(String[] args) throws Exception {
        Path home = Path.of(args[0]);
        Path kubeconfig = Path.of(args[1]);
        Path embeddedKubeconfigCopy = Path.of(args[2]);
        CountDownLatch toolkit = new CountDownLatch(1);
        Platform.startup(toolkit::countDown);
        toolkit.await();
        Connector connector = new Connector(Map.of(), home);

        try (Session remote = connector.connect(new ConnectTarget.Kubeconfig(Optional.of(kubeconfig), "embedded"),
                ModeChoice.CONTROL, Connector.MissingCrds.FAIL, message -> { })) {
            awaitNodes(remote.model(), "the kubeconfig's cluster");
        }
        try (Session embedded = connector.connect(new ConnectTarget.Embedded("demo"), ModeChoice.AUTO,
                Connector.MissingCrds.FAIL, message -> { })) {
            Files.copy(embedded.embeddedCluster().orElseThrow().kubeconfig(), embeddedKubeconfigCopy,
                    StandardCopyOption.REPLACE_EXISTING);
            awaitNodes(embedded.model(), "the embedded cluster");
        }
    }

    /** Until the model has synced and shows a node, as the console's first screen needs. */
    private static void awaitNodes(ClusterModel model, String what) throws InterruptedException {
        CountDownLatch shown = new CountDownLatch(1);
        Platform.runLater(() -> {
            Runnable check = () -> {
                if (model.synced().get() && !model.nodes().isEmpty()) {
                    shown.countDown();
                }
            };
            model.synced().addListener((o, was, is) -> check.run());
            model.nodes().addListener((javafx.collections.ListChangeListener<Object>) c -> check.run());
            check.run();
        });
        if (!shown.await(120, TimeUnit.SECONDS)) {
            throw new IllegalStateException("the live model of " + what + " showed no node within 120 s");
        }
    }
}
