package dev.drainboard.ui;

import dev.drainboard.cluster.EmbeddedCluster;
import dev.drainboard.cluster.EmbeddedClusterOptions;
import dev.drainboard.ui.connect.ConnectTarget;
import dev.drainboard.ui.connect.Connector;
import dev.drainboard.ui.connect.ModeChoice;
import dev.drainboard.ui.connect.Session;
import dev.drainboard.ui.dialogs.ActionButton;
import dev.drainboard.ui.model.NodeRow;
import dev.drainboard.ui.model.ObjectRef;
import dev.drainboard.ui.shell.ViewId;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.authentication.TokenRequestBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBindingBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
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

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.prefs.BackingStoreException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static dev.drainboard.ui.ConsoleUiTest.fx;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The console connected to the embedded cluster with a token of a service account bound to packaging/rbac.yaml's
 * drainboard-observe: the cluster's RBAC denies node patches and evictions, and the console disables cordon and drain
 * with the reason on hover.
 */
@ExtendWith(ApplicationExtension.class)
class ObserveTokenUiTest {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final Path MANIFEST = Path.of("..", "packaging", "rbac.yaml");

    private static EmbeddedCluster cluster;
    private static Path observeKubeconfig;

    private TestConsole window;
    private Console console;

    @BeforeAll
    static void startCluster() throws Exception {
        cluster = EmbeddedCluster.start(EmbeddedClusterOptions.defaults().withScenario("demo"));
        String adminKubeconfig = Files.readString(cluster.kubeconfig());
        try (KubernetesClient admin = new KubernetesClientBuilder().withConfig(Config.fromKubeconfig(adminKubeconfig)).build();
             InputStream manifest = Files.newInputStream(MANIFEST)) {
            admin.load(manifest).items().forEach(o -> admin.resource(o).create());
            admin.serviceAccounts().inNamespace("drainboard").resource(new ServiceAccountBuilder().withNewMetadata()
                    .withName("observer").endMetadata().build()).create();
            admin.rbac().clusterRoleBindings().resource(new ClusterRoleBindingBuilder().withNewMetadata()
                    .withName("observer").endMetadata()
                    .withNewRoleRef("rbac.authorization.k8s.io", "ClusterRole", "drainboard-observe")
                    .addNewSubject().withKind("ServiceAccount").withName("observer").withNamespace("drainboard").endSubject()
                    .build()).create();
            String token = admin.serviceAccounts().inNamespace("drainboard").withName("observer")
                    .tokenRequest(new TokenRequestBuilder().withNewSpec().withExpirationSeconds(3600L).endSpec().build())
                    .getStatus().getToken();
            Matcher line = Pattern.compile("(?m)^(\\s*token:\\s*).*$").matcher(adminKubeconfig);
            assertThat(line.find()).as("the kubeconfig has a token").isTrue();
            observeKubeconfig = Files.createTempFile("observe-", ".kubeconfig");
            Files.writeString(observeKubeconfig, line.replaceFirst("$1" + Matcher.quoteReplacement(token)));
        }
    }

    @AfterAll
    static void stopCluster() throws Exception {
        cluster.close();
        Files.deleteIfExists(observeKubeconfig);
    }

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
    void cordonAndDrainAreDisabledWithTheReason(FxRobot robot) {
        fx(() -> {
            console.connect(new ConnectTarget.Kubeconfig(Optional.of(observeKubeconfig), "drainboard-embedded"),
                    ModeChoice.OBSERVE, Connector.MissingCrds.FAIL);
            return null;
        });
        await().atMost(WAIT).until(() -> fx(() -> console.sessionProperty().get() != null));
        Session session = fx(() -> console.sessionProperty().get());
        await().atMost(WAIT).until(() -> fx(() -> session.model().synced().get() && !session.model().nodes().isEmpty()));
        fx(() -> {
            console.shellProperty().get().show(ViewId.NODES);
            console.shellProperty().get().reveal(ObjectRef.node("node01"));
            return null;
        });
        WaitForAsyncUtils.waitForFxEvents();
        fx(() -> {
            robot.lookup("#nodesTable").query().requestFocus();
            return null;
        });
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(fx(() -> robot.lookup("#nodesTable").queryTableView().getSelectionModel().getSelectedItems()
                .stream().map(r -> ((NodeRow) r).name()).toList())).isEqualTo(List.of("node01"));

        await().atMost(WAIT).until(() -> fx(() -> robot.lookup("#action-cordon").queryButton().isDisabled()));
        assertThat(fx(() -> robot.lookup("#action-cordon-wrap").queryAs(ActionButton.class).tooltipText()))
                .isEqualTo("Not allowed: your credentials may not patch nodes");
        await().atMost(WAIT).until(() -> fx(() -> robot.lookup("#action-drain").queryButton().isDisabled()));
        assertThat(fx(() -> robot.lookup("#action-drain-wrap").queryAs(ActionButton.class).tooltipText()))
                .startsWith("Not allowed: your credentials may not ");
    }
}
