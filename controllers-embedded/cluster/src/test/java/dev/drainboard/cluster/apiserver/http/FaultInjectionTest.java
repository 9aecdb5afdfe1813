package dev.drainboard.cluster.apiserver.http;

import dev.drainboard.cluster.EmbeddedCluster;
import dev.drainboard.cluster.EmbeddedClusterOptions;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.util.EnumMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

@DisplayName("fault injection answers writes as a loaded kube-apiserver would, and a 504 may hide a done write")
class FaultInjectionTest {

    @Test
    void everyWriteFaultedWhenTheShareIsOneAndNoneWhenZero() throws Exception {
        try (EmbeddedCluster cluster = EmbeddedCluster.start(EmbeddedClusterOptions.defaults());
             KubernetesClient client = new KubernetesClientBuilder().withConfig(noRetries(cluster)).build()) {
            client.configMaps().inNamespace("default").resource(configMap(0)).create();
            cluster.faults().setShare(1);
            Map<FaultInjection.Fault, Integer> seen = new EnumMap<>(FaultInjection.Fault.class);
            for (int i = 1; i <= 40; i++) {
                String value = "v" + i;
                KubernetesClientException e = catchWrite(() -> client.configMaps().inNamespace("default").withName("cm")
                        .edit(cm -> new ConfigMapBuilder(cm).addToData("k", value).build()));
                // Reads are never faulted: what the write did is there to see.
                String stored = client.configMaps().inNamespace("default").withName("cm").get().getData().get("k");
                switch (e.getCode()) {
                    case 409 -> {
                        assertThat(e.getStatus().getReason()).isEqualTo("Conflict");
                        assertThat(stored).as("a conflict writes nothing").isNotEqualTo(value);
                        seen.merge(FaultInjection.Fault.CONFLICT, 1, Integer::sum);
                    }
                    case 500 -> {
                        assertThat(e.getStatus().getMessage()).startsWith("Internal error occurred: ");
                        assertThat(stored).as("an internal error writes nothing").isNotEqualTo(value);
                        seen.merge(FaultInjection.Fault.INTERNAL, 1, Integer::sum);
                    }
                    case 504 -> {
                        assertThat(e.getStatus().getMessage()).isEqualTo(
                                "Timeout: request did not complete within requested timeout - context deadline exceeded");
                        assertThat(stored).as("the timeout came after the write").isEqualTo(value);
                        seen.merge(FaultInjection.Fault.TIMEOUT_AFTER_WRITE, 1, Integer::sum);
                    }
                    default -> throw new AssertionError("unexpected answer " + e.getCode() + ": " + e.getMessage());
                }
            }
            assertThat(seen).containsOnlyKeys(FaultInjection.Fault.values());
            // Counted (other clients of the cluster's API over HTTPS may have been faulted as well).
            seen.forEach((fault, count) -> assertThat(cluster.faults().injected(fault)).isGreaterThanOrEqualTo(count));
            // A create never gets a conflict: it gets a 500 or a 504.
            assertThatThrownBy(() -> client.configMaps().inNamespace("default").resource(configMap(1)).create())
                    .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getCode()).isIn(500, 504));

            cluster.faults().setShare(0);
            client.configMaps().inNamespace("default").withName("cm").edit(cm -> new ConfigMapBuilder(cm).addToData("k", "clean").build());
            assertThat(client.configMaps().inNamespace("default").withName("cm").get().getData()).containsEntry("k", "clean");
        }
    }

    @Test
    void aShareOutsideZeroToOneIsRefused() {
        FaultInjection faults = new FaultInjection(1);
        assertThatThrownBy(() -> faults.setShare(1.5)).hasMessage("the share of faulted writes must be between 0 and 1, got 1.5");
        assertThatThrownBy(() -> faults.setShare(Double.NaN)).isInstanceOf(IllegalArgumentException.class);
    }

    /** fabric8 retries 5xx answers by itself: one request, one answer here. */
    private static Config noRetries(EmbeddedCluster cluster) throws java.io.IOException {
        Config config = Config.fromKubeconfig(Files.readString(cluster.kubeconfig()));
        config.setRequestRetryBackoffLimit(0);
        return config;
    }

    private static ConfigMap configMap(int n) {
        return new ConfigMapBuilder().withNewMetadata().withName(n == 0 ? "cm" : "cm" + n).endMetadata().addToData("k", "v0").build();
    }

    private static KubernetesClientException catchWrite(Runnable write) {
        try {
            write.run();
        } catch (KubernetesClientException e) {
            return e;
        }
        throw new AssertionError("the write was not faulted");
    }
}
