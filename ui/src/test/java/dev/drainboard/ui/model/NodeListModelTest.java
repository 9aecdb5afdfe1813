package dev.drainboard.ui.model;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class NodeListModelTest {

    @Test
    void readyWorkerNode() {
        Node node = new NodeBuilder()
                .withNewMetadata().withName("node02").addToLabels("node-role.kubernetes.io/worker", "").endMetadata()
                .withNewStatus().addNewCondition().withType("Ready").withStatus("True").endCondition()
                .withNewNodeInfo().withKubeletVersion("v1.32.0").endNodeInfo().endStatus()
                .build();

        assertThat(NodeListModel.toRow(node)).isEqualTo(new NodeRow("node02", "Ready", "worker", true, "v1.32.0"));
    }

    @Test
    void cordonedNodeShowsSchedulingDisabledAsKubectlDoes() {
        Node node = new NodeBuilder()
                .withNewMetadata().withName("node01").endMetadata()
                .withNewSpec().withUnschedulable(true).endSpec()
                .withNewStatus().addNewCondition().withType("Ready").withStatus("False").endCondition().endStatus()
                .build();

        NodeRow row = NodeListModel.toRow(node);
        assertThat(row.status()).isEqualTo("NotReady,SchedulingDisabled");
        assertThat(row.schedulable()).isFalse();
        assertThat(row.roles()).isEqualTo("<none>");
    }

    @Test
    void nodeWithoutStatusIsUnknown() {
        Node node = new NodeBuilder().withNewMetadata().withName("fresh").endMetadata().build();

        assertThat(NodeListModel.toRow(node).status()).isEqualTo("Unknown");
    }
}
