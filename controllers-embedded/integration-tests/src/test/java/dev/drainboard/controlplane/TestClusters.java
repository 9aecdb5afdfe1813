package dev.drainboard.controlplane;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpResponse;

import java.util.concurrent.TimeUnit;

/** Small helpers for control-plane tests on the embedded cluster. */
final class TestClusters {

    private TestClusters() {
    }

    static void namespace(KubernetesClient client, String name) {
        client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(name).endMetadata().build()).create();
    }

    static void node(KubernetesClient client, String name) {
        if (client.nodes().withName(name).get() == null) {
            client.nodes().resource(new NodeBuilder().withNewMetadata().withName(name).endMetadata().build()).create();
        }
    }

    /**
     * Binds a pod to a node through pods/binding, as a scheduler does, unless something (the simulated scheduler)
     * bound it already.
     */
    static void bind(KubernetesClient client, Pod pod, String node) throws Exception {
        Pod now = client.pods().inNamespace(pod.getMetadata().getNamespace()).withName(pod.getMetadata().getName()).get();
        if (now == null || now.getSpec().getNodeName() != null && !now.getSpec().getNodeName().isEmpty()) {
            return;
        }
        String body = """
                {"apiVersion":"v1","kind":"Binding","metadata":{"name":"%s"},"target":{"apiVersion":"v1","kind":"Node","name":"%s"}}"""
                .formatted(pod.getMetadata().getName(), node);
        HttpClient http = client.getHttpClient();
        HttpResponse<String> response = http.sendAsync(http.newHttpRequestBuilder()
                .uri(client.getMasterUrl() + "api/v1/namespaces/" + pod.getMetadata().getNamespace() + "/pods/"
                        + pod.getMetadata().getName() + "/binding")
                .post("application/json", body).build(), String.class).get(10, TimeUnit.SECONDS);
        if (response.code() != 201 && response.code() != 200 && response.code() != 409) {
            throw new AssertionError("binding failed: " + response.code() + " " + response.body());
        }
    }
}
