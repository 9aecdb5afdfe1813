package dev.drainboard.cluster.fabric8;

import dev.drainboard.cluster.EmbeddedCluster;
import dev.drainboard.cluster.EmbeddedClusterOptions;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;

import java.nio.file.Files;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * An embedded cluster and fabric8 clients configured from its kubeconfig, exactly as an application
 * would configure them. Each test takes a fresh namespace, so tests of a class can share a cluster.
 */
public final class Fabric8Cluster implements AutoCloseable {

    private static final AtomicInteger NAMESPACES = new AtomicInteger();

    private final EmbeddedCluster cluster;
    private final KubernetesClient client;

    private Fabric8Cluster(EmbeddedCluster cluster) throws Exception {
        this.cluster = cluster;
        this.client = newClient(config -> { });
    }

    public static Fabric8Cluster start() throws Exception {
        return start(EmbeddedClusterOptions.defaults());
    }

    public static Fabric8Cluster start(EmbeddedClusterOptions options) throws Exception {
        return new Fabric8Cluster(EmbeddedCluster.start(options.withPort(0)));
    }

    public EmbeddedCluster cluster() {
        return cluster;
    }

    /** The shared client, closed with the cluster. */
    public KubernetesClient client() {
        return client;
    }

    /** Another client from the same kubeconfig; the caller closes it. */
    public KubernetesClient newClient(Consumer<Config> tuning) throws Exception {
        Config config = Config.fromKubeconfig(Files.readString(cluster.kubeconfig()));
        tuning.accept(config);
        return new KubernetesClientBuilder().withConfig(config).build();
    }

    public String newNamespace(String prefix) {
        String name = prefix + "-" + NAMESPACES.incrementAndGet();
        Namespace ns = new NamespaceBuilder().withNewMetadata().withName(name).endMetadata().build();
        client.namespaces().resource(ns).create();
        return name;
    }

    public Node createNode(String name) {
        return client.nodes().resource(new NodeBuilder().withNewMetadata().withName(name).endMetadata().build()).create();
    }

    /** A pod not bound to any node: no kubelet runs it, so it only changes when a test changes it. */
    /**
     * A pod for a scheduler nobody runs: the embedded scheduler leaves it alone, so it stays exactly as the test
     * wrote it (no PodScheduled condition appearing under a watch or an edit).
     */
    public static Pod pod(String namespace, String name, Map<String, String> labels) {
        return new PodBuilder()
                .withNewMetadata().withNamespace(namespace).withName(name).withLabels(labels).endMetadata()
                .withNewSpec().withSchedulerName(UNSCHEDULED).addNewContainer().withName("main").withImage("registry.example/app:1").endContainer().endSpec()
                .build();
    }

    /** The scheduler name of {@link #pod}: no scheduler serves it. */
    public static final String UNSCHEDULED = "no-scheduler";

    /** A pod bound to a simulated node, which runs it (Running, Ready) and completes its deletion. */
    public static Pod podOnNode(String namespace, String name, String node, Map<String, String> labels) {
        return new PodBuilder(pod(namespace, name, labels)).editSpec().withNodeName(node).endSpec().build();
    }

    @Override
    public void close() {
        client.close();
        cluster.close();
    }
}
