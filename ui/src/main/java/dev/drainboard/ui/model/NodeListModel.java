package dev.drainboard.ui.model;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeCondition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import javafx.application.Platform;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The cluster's nodes as an FX list, fed by an informer. Changes are collected and applied on the
 * FX thread in one go, so a burst of node updates costs one pulse.
 */
public final class NodeListModel implements AutoCloseable {

    private final ObservableList<NodeRow> rows = FXCollections.observableArrayList();
    private final SharedIndexInformer<Node> informer;
    private volatile boolean refreshQueued;

    public NodeListModel(KubernetesClient client) {
        informer = client.nodes().inform(new ResourceEventHandler<>() {
            @Override
            public void onAdd(Node node) {
                queueRefresh();
            }

            @Override
            public void onUpdate(Node oldNode, Node newNode) {
                queueRefresh();
            }

            @Override
            public void onDelete(Node node, boolean deletedFinalStateUnknown) {
                queueRefresh();
            }
        });
    }

    public ObservableList<NodeRow> rows() {
        return rows;
    }

    private void queueRefresh() {
        if (refreshQueued) {
            return;
        }
        refreshQueued = true;
        Platform.runLater(() -> {
            refreshQueued = false;
            List<NodeRow> current = informer.getStore().list().stream()
                    .map(NodeListModel::toRow)
                    .sorted(Comparator.comparing(NodeRow::name))
                    .toList();
            rows.setAll(current);
        });
    }

    static NodeRow toRow(Node node) {
        String ready = node.getStatus() == null || node.getStatus().getConditions() == null ? "Unknown"
                : node.getStatus().getConditions().stream()
                .filter(c -> "Ready".equals(c.getType()))
                .map(NodeCondition::getStatus)
                .map(s -> s.equals("True") ? "Ready" : s.equals("False") ? "NotReady" : "Unknown")
                .findFirst().orElse("Unknown");
        boolean schedulable = node.getSpec() == null || !Boolean.TRUE.equals(node.getSpec().getUnschedulable());
        Map<String, String> labels = node.getMetadata().getLabels() == null ? Map.of() : node.getMetadata().getLabels();
        String roles = labels.keySet().stream()
                .filter(k -> k.startsWith("node-role.kubernetes.io/"))
                .map(k -> k.substring("node-role.kubernetes.io/".length()))
                .sorted().collect(Collectors.joining(","));
        String version = node.getStatus() == null || node.getStatus().getNodeInfo() == null ? ""
                : node.getStatus().getNodeInfo().getKubeletVersion();
        return new NodeRow(node.getMetadata().getName(), schedulable ? ready : ready + ",SchedulingDisabled",
                roles.isEmpty() ? "<none>" : roles, schedulable, version);
    }

    @Override
    public void close() {
        informer.close();
    }
}
