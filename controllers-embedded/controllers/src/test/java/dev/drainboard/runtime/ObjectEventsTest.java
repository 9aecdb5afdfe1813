package dev.drainboard.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

@DisplayName("controller wiring: event handlers that name only their events, one informer per type")
class ObjectEventsTest {

    private static Node node(String name) {
        return new NodeBuilder().withNewMetadata().withName(name).endMetadata().build();
    }

    @Test
    @DisplayName("each named event reaches its action; unnamed events are ignored")
    void namedEventsOnly() {
        List<String> heard = new ArrayList<>();
        ObjectEvents<Node> handler = ObjectEvents.<Node>handler()
                .added(n -> heard.add("added " + n.getMetadata().getName()))
                .deleted(n -> heard.add("deleted " + n.getMetadata().getName()));

        handler.onAdd(node("a"));
        handler.onUpdate(node("a"), node("a"));
        handler.onDelete(node("b"), true);
        handler.onDelete(node("c"), false);

        assertThat(heard).containsExactly("added a", "deleted b", "deleted c");
        ObjectEvents.<Node>handler().updated((before, after) -> heard.add("updated")).onUpdate(node("a"), node("a"));
        assertThat(heard).last().isEqualTo("updated");
    }

    @Test
    @DisplayName("controllers asking for the same type share one informer")
    void oneInformerPerType() {
        var client = new KubernetesClientBuilder().withConfig(new ConfigBuilder().withMasterUrl("https://127.0.0.1:1").build()).build();
        try (ControllerManager manager = new ControllerManager(client, null)) {
            assertThat(manager.informer(Node.class)).isSameAs(manager.informer(Node.class));
            assertThat(manager.informer(PodDisruptionBudget.class)).isNotSameAs(manager.informer(Node.class));
        }
    }
}
