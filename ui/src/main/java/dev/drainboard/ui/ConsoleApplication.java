package dev.drainboard.ui;

import dev.drainboard.cluster.EmbeddedCluster;
import dev.drainboard.cluster.EmbeddedClusterOptions;
import dev.drainboard.ui.model.NodeListModel;
import dev.drainboard.ui.model.NodeRow;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import javafx.application.Application;
import javafx.application.Platform;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.concurrent.Task;
import javafx.geometry.Insets;
import javafx.scene.Scene;
import javafx.scene.control.Label;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.layout.BorderPane;
import javafx.stage.Stage;

import java.nio.file.Files;

/**
 * The console window. For now: the embedded cluster's nodes, live; the full console
 * (connect screen, views, actions) grows on this shell.
 */
public final class ConsoleApplication extends Application {

    private static volatile String scenario = "demo";

    private final Label status = new Label("Starting the embedded cluster…");
    private final TableView<NodeRow> nodes = new TableView<>();
    private EmbeddedCluster cluster;
    private KubernetesClient client;
    private NodeListModel nodeModel;

    /** Launches the window (blocking until it closes) on an embedded cluster with this scenario. */
    public static void launchWith(String scenarioName) {
        scenario = scenarioName;
        Application.launch(ConsoleApplication.class);
    }

    @Override
    public void start(Stage stage) {
        nodes.getColumns().add(column("Name", NodeRow::name));
        nodes.getColumns().add(column("Status", NodeRow::status));
        nodes.getColumns().add(column("Roles", NodeRow::roles));
        nodes.getColumns().add(column("Version", NodeRow::version));
        nodes.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        nodes.setPlaceholder(new Label("No nodes yet"));
        status.setPadding(new Insets(4, 8, 4, 8));
        BorderPane root = new BorderPane(nodes);
        root.setBottom(status);
        stage.setTitle("Drainboard");
        stage.setScene(new Scene(root, 960, 600));
        stage.show();
        connect();
    }

    private static TableColumn<NodeRow, String> column(String title, java.util.function.Function<NodeRow, String> value) {
        TableColumn<NodeRow, String> c = new TableColumn<>(title);
        c.setCellValueFactory(cell -> new ReadOnlyStringWrapper(value.apply(cell.getValue())));
        return c;
    }

    /** Starts the cluster and the client off the FX thread. */
    private void connect() {
        Task<EmbeddedCluster> start = new Task<>() {
            @Override
            protected EmbeddedCluster call() throws Exception {
                return EmbeddedCluster.start(EmbeddedClusterOptions.defaults().withScenario(scenario));
            }
        };
        start.setOnSucceeded(e -> {
            cluster = start.getValue();
            try {
                Config config = Config.fromKubeconfig(Files.readString(cluster.kubeconfig()));
                client = new KubernetesClientBuilder().withConfig(config).build();
                nodeModel = new NodeListModel(client);
                nodes.setItems(nodeModel.rows());
                status.setText("Embedded cluster (" + scenario + ") at " + cluster.url() + " — kubeconfig " + cluster.kubeconfig());
                System.out.println("drainboard: first frame shown, connected to " + cluster.url());
            } catch (Exception ex) {
                status.setText("Cannot connect: " + ex.getMessage());
            }
        });
        start.setOnFailed(e -> status.setText("Cannot start the embedded cluster: " + start.getException().getMessage()));
        Thread.ofPlatform().daemon().name("embedded-cluster-start").start(start);
    }

    @Override
    public void stop() {
        if (nodeModel != null) {
            nodeModel.close();
        }
        if (client != null) {
            client.close();
        }
        if (cluster != null) {
            cluster.close();
        }
        Platform.exit();
    }
}
