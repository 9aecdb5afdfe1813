package dev.drainboard.cluster.scheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.drainboard.cluster.fabric8.Fabric8Cluster;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Optional;

/** The embedded cluster's scheduler, through the API as kubectl and controllers see it. */
class SchedulerIntegrationTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    @Test
    void aPendingPodIsBoundRespectingCordonTaintsAntiAffinityAndResources() throws Exception {
        try (Fabric8Cluster cluster = Fabric8Cluster.start()) {
            KubernetesClient client = cluster.client();
            createNode(client, "cordoned", true, null);
            createNode(client, "tainted", false, "dedicated");
            createNode(client, "source", false, null);
            createNode(client, "free", false, null);
            String ns = cluster.newNamespace("sched");
            // The "VM" already running on "source", as a launcher pod bound there.
            client.pods().resource(pod(ns, "launcher", """
                    metadata: {labels: {kubevirt.io: virt-launcher, kubevirt.io/created-by: uid-1}}
                    spec: {nodeName: source}
                    """)).create();

            client.pods().resource(pod(ns, "target", """
                    metadata: {labels: {kubevirt.io: virt-launcher, kubevirt.io/created-by: uid-1}}
                    spec:
                      affinity:
                        podAntiAffinity:
                          requiredDuringSchedulingIgnoredDuringExecution:
                          - labelSelector: {matchLabels: {kubevirt.io/created-by: uid-1}}
                            topologyKey: kubernetes.io/hostname
                    """)).create();

            await().atMost(TIMEOUT).until(() -> nodeOf(client, ns, "target").isPresent());
            assertThat(nodeOf(client, ns, "target")).contains("free");
            Pod bound = client.pods().inNamespace(ns).withName("target").get();
            assertThat(condition(bound, "PodScheduled")).hasValueSatisfying(c -> assertThat(c.getStatus()).isEqualTo("True"));
            await().atMost(TIMEOUT).until(() -> "Running".equals(client.pods().inNamespace(ns).withName("target").get().getStatus().getPhase()));

            // More memory than any node has: the reason per node, as kube-scheduler words it.
            client.pods().resource(pod(ns, "huge", """
                    spec:
                      containers: [{name: main, image: app, resources: {requests: {memory: 100Gi}}}]
                    """)).create();
            await().atMost(TIMEOUT).until(() -> condition(client.pods().inNamespace(ns).withName("huge").get(), "PodScheduled").isPresent());
            PodCondition unschedulable = condition(client.pods().inNamespace(ns).withName("huge").get(), "PodScheduled").orElseThrow();
            assertThat(unschedulable.getStatus()).isEqualTo("False");
            assertThat(unschedulable.getReason()).isEqualTo("Unschedulable");
            assertThat(unschedulable.getMessage()).isEqualTo(
                    "0/4 nodes are available: 1 node(s) had untolerated taint {dedicated: }, 1 node(s) were unschedulable, "
                            + "2 Insufficient memory. preemption: 0/4 nodes are available: "
                            + "2 No preemption victims found for incoming pod, 2 Preemption is not helpful for scheduling.");
            assertThat(client.pods().inNamespace(ns).withName("huge").get().getSpec().getNodeName()).isNull();
        }
    }

    @Test
    void anUnschedulablePodIsRetriedWhenANodeIsUncordoned() throws Exception {
        try (Fabric8Cluster cluster = Fabric8Cluster.start()) {
            KubernetesClient client = cluster.client();
            createNode(client, "only", true, null);
            String ns = cluster.newNamespace("retry");
            client.pods().resource(pod(ns, "waiting", "spec: {}")).create();

            await().atMost(TIMEOUT).until(() -> condition(client.pods().inNamespace(ns).withName("waiting").get(), "PodScheduled")
                    .map(PodCondition::getMessage).orElse("").equals(
                            "0/1 nodes are available: 1 node(s) were unschedulable. "
                                    + "preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling."));

            client.nodes().withName("only").edit(n -> new NodeBuilder(n).editSpec().withUnschedulable(false).endSpec().build());

            await().atMost(TIMEOUT).until(() -> nodeOf(client, ns, "waiting").isPresent());
            assertThat(nodeOf(client, ns, "waiting")).contains("only");
        }
    }

    @Test
    void aPodThatFitsOnlyOnceAnotherFinishesWaitsForIt() throws Exception {
        try (Fabric8Cluster cluster = Fabric8Cluster.start()) {
            KubernetesClient client = cluster.client();
            createNode(client, "small", false, null); // 16 CPUs
            String ns = cluster.newNamespace("room");
            client.pods().resource(pod(ns, "first", "spec: {containers: [{name: main, image: app, resources: {requests: {cpu: \"12\"}}}]}")).create();
            await().atMost(TIMEOUT).until(() -> nodeOf(client, ns, "first").isPresent());
            client.pods().resource(pod(ns, "second", "spec: {containers: [{name: main, image: app, resources: {requests: {cpu: \"8\"}}}]}")).create();
            await().atMost(TIMEOUT).until(() -> condition(client.pods().inNamespace(ns).withName("second").get(), "PodScheduled")
                    .map(PodCondition::getMessage).orElse("").startsWith("0/1 nodes are available: 1 Insufficient cpu."));

            client.pods().inNamespace(ns).withName("first").delete();

            await().atMost(TIMEOUT).until(() -> nodeOf(client, ns, "second").isPresent());
        }
    }

    @Test
    void podsForAnotherSchedulerOrAlreadyBoundAreLeftAlone() throws Exception {
        try (Fabric8Cluster cluster = Fabric8Cluster.start()) {
            KubernetesClient client = cluster.client();
            createNode(client, "n1", false, null);
            String ns = cluster.newNamespace("other");
            client.pods().resource(pod(ns, "custom", "spec: {schedulerName: my-scheduler}")).create();
            client.pods().resource(pod(ns, "marker", "spec: {}")).create();

            await().atMost(TIMEOUT).until(() -> nodeOf(client, ns, "marker").isPresent());
            assertThat(nodeOf(client, ns, "custom")).isEmpty();
            assertThat(condition(client.pods().inNamespace(ns).withName("custom").get(), "PodScheduled")).isEmpty();
        }
    }

    private static void createNode(KubernetesClient client, String name, boolean cordoned, String taintKey) {
        NodeBuilder node = new NodeBuilder().withNewMetadata().withName(name).endMetadata()
                .withNewSpec().withUnschedulable(cordoned).endSpec();
        if (taintKey != null) {
            node.editSpec().addNewTaint().withKey(taintKey).withEffect("NoSchedule").endTaint().endSpec();
        }
        Node created = client.nodes().resource(node.build()).create();
        await().atMost(TIMEOUT).until(() -> client.nodes().withName(created.getMetadata().getName()).get()
                .getStatus().getConditions().stream().anyMatch(c -> c.getType().equals("Ready")));
    }

    private static Pod pod(String ns, String name, String yaml) {
        Pod pod = Serialization.unmarshal(yaml, Pod.class);
        pod.getMetadata();
        var base = new io.fabric8.kubernetes.api.model.PodBuilder(pod)
                .editOrNewMetadata().withNamespace(ns).withName(name).endMetadata()
                .editOrNewSpec().endSpec()
                .build();
        if (base.getSpec().getContainers() == null || base.getSpec().getContainers().isEmpty()) {
            base.getSpec().setContainers(java.util.List.of(new io.fabric8.kubernetes.api.model.ContainerBuilder()
                    .withName("main").withImage("registry.example/app:1").build()));
        }
        return base;
    }

    private static Optional<String> nodeOf(KubernetesClient client, String ns, String name) {
        Pod pod = client.pods().inNamespace(ns).withName(name).get();
        return Optional.ofNullable(pod == null ? null : pod.getSpec().getNodeName());
    }

    private static Optional<PodCondition> condition(Pod pod, String type) {
        if (pod == null || pod.getStatus() == null || pod.getStatus().getConditions() == null) {
            return Optional.empty();
        }
        return pod.getStatus().getConditions().stream().filter(c -> type.equals(c.getType())).findFirst();
    }
}
