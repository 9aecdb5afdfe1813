package dev.drainboard.cluster.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.drainboard.controlplane.LocalControlPlane;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.ops.DrainOptions;
import dev.drainboard.ops.DrainPreview;
import dev.drainboard.ops.Ops;
import dev.drainboard.ops.PodOutcome;
import dev.drainboard.ops.PodPreview;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * The drain a real cluster with KubeVirt gives, rehearsed on the twin with the real kubectl: a node holding a
 * migratable VMI (masquerade on the pod network), a LiveMigrate VMI that declares no interface (virt-api gives it the
 * pod network bound by bridge, which cannot migrate) and a Deployment's pod. The preview says so; {@code kubectl drain}
 * moves the migratable VMI and the app pod (whose replacement runs elsewhere), is refused for the other VMI with
 * KubeVirt's message until its timeout, and leaves that VMI running on the cordoned node.
 */
@DisplayName("kubectl drain on the twin: one VMI migrates, one cannot, the Deployment's pod is replaced")
class KubectlTwinDrainTest {

    private static final Duration WAIT = Duration.ofSeconds(60);

    @TempDir
    Path workDir;

    @Test
    void drainAsARealClusterWouldRunIt() throws Exception {
        try (E2eCluster e2e = E2eCluster.startWithKubectl(null, workDir)) {
            Kubectl kubectl = e2e.kubectl();
            Config config = Config.fromKubeconfig(Files.readString(e2e.cluster().kubeconfig()));
            try (LocalControlPlane plane = LocalControlPlane.start(config, e2e.cluster().hypervisors(), true);
                 KubernetesClient client = new KubernetesClientBuilder().withConfig(config).build();
                 Ops ops = Ops.connect(config)) {
                awaitWebhookServing(plane, client);
                kubectl.apply("""
                        apiVersion: v1
                        kind: Node
                        metadata: {name: node01}
                        ---
                        apiVersion: v1
                        kind: Node
                        metadata: {name: node02}
                        spec: {unschedulable: true}
                        ---
                        apiVersion: v1
                        kind: Namespace
                        metadata: {name: shop}
                        ---
                        apiVersion: apps/v1
                        kind: Deployment
                        metadata: {name: web, namespace: shop}
                        spec:
                          replicas: 1
                          selector: {matchLabels: {app: web}}
                          template:
                            metadata: {labels: {app: web}}
                            spec: {containers: [{name: nginx, image: nginx}]}
                        ---
                        apiVersion: kubevirt.io/v1
                        kind: VirtualMachineInstance
                        metadata: {name: mobile, namespace: shop}
                        spec:
                          evictionStrategy: LiveMigrate
                          domain:
                            memory: {guest: 256Mi}
                            devices:
                              interfaces: [{name: default, masquerade: {}}]
                          networks: [{name: default, pod: {}}]
                        ---
                        apiVersion: kubevirt.io/v1
                        kind: VirtualMachineInstance
                        metadata: {name: stuck, namespace: shop}
                        spec:
                          evictionStrategy: LiveMigrate
                          domain:
                            memory: {guest: 256Mi}
                            devices: {}
                        """);
                await().atMost(WAIT).until(() -> runningOn(client, "mobile", "node01") && runningOn(client, "stuck", "node01")
                        && readyWebPod(client).filter(p -> "node01".equals(p.getSpec().getNodeName())).isPresent());
                await().atMost(WAIT).until(() -> condition(client, "stuck") != null && condition(client, "mobile") != null);
                assertThat(condition(client, "mobile")).isEqualTo("True");
                assertThat(condition(client, "stuck")).isEqualTo("False");
                kubectl.run("uncordon", "node02");
                String webPod = readyWebPod(client).orElseThrow().getMetadata().getName();

                DrainPreview preview = ops.preview("node01", DrainOptions.defaults().withIgnoreDaemonSets(true).withDeleteEmptyDirData(true));
                assertThat(outcomeOf(preview, launcherOf(client, "mobile"))).isEqualTo(PodOutcome.LIVE_MIGRATION);
                PodPreview stuck = preview.pod("shop", launcherOf(client, "stuck")).orElseThrow();
                assertThat(stuck.outcome()).isEqualTo(PodOutcome.BLOCKED_NOT_MIGRATABLE);
                assertThat(stuck.reason()).contains("cannot migrate VMI which does not use masquerade");
                assertThat(outcomeOf(preview, webPod)).isEqualTo(PodOutcome.EVICTED);

                var drain = kubectl.run("drain", "node01", "--ignore-daemonsets", "--delete-emptydir-data", "--timeout=30s");

                assertThat(drain.exitCode()).as(drain.describe()).isEqualTo(1);
                assertThat(drain.output()).contains("evicting pod shop/" + webPod)
                        .contains("admission webhook \"virt-launcher-eviction-interceptor.kubevirt.io\" denied the request: "
                                + "VMI stuck is configured with an eviction strategy but is not live-migratable")
                        .contains("error: unable to drain node \"node01\"");
                await().atMost(WAIT).until(() -> runningOn(client, "mobile", "node02"));
                assertThat(runningOn(client, "stuck", "node01")).as("left running on the cordoned node").isTrue();
                assertThat(client.nodes().withName("node01").get().getSpec().getUnschedulable()).isTrue();
                await().atMost(WAIT).until(() -> readyWebPod(client).filter(p -> "node02".equals(p.getSpec().getNodeName())).isPresent());
                Deployment web = client.apps().deployments().inNamespace("shop").withName("web").get();
                assertThat(web.getStatus().getReadyReplicas()).isEqualTo(1);
                assertThat(readyWebPod(client).orElseThrow().getMetadata().getName()).isNotEqualTo(webPod);
            }
        }
    }

    /**
     * A launcher pod that has ended (its VM stopped or crashed) holds nothing: KubeVirt's webhook lets its eviction
     * go even when its VMI is LiveMigrate and not migratable, so {@code kubectl drain} finishes.
     */
    @Test
    void aCompletedLauncherPodDoesNotHoldTheDrain() throws Exception {
        try (E2eCluster e2e = E2eCluster.startWithKubectl(null, workDir)) {
            Kubectl kubectl = e2e.kubectl();
            Config config = Config.fromKubeconfig(Files.readString(e2e.cluster().kubeconfig()));
            try (LocalControlPlane plane = LocalControlPlane.start(config, e2e.cluster().hypervisors(), true);
                 KubernetesClient client = new KubernetesClientBuilder().withConfig(config).build()) {
                awaitWebhookServing(plane, client);
                kubectl.apply("""
                        apiVersion: v1
                        kind: Node
                        metadata: {name: node01}
                        ---
                        apiVersion: v1
                        kind: Namespace
                        metadata: {name: shop}
                        ---
                        apiVersion: kubevirt.io/v1
                        kind: VirtualMachineInstance
                        metadata: {name: ended, namespace: shop}
                        spec:
                          evictionStrategy: LiveMigrate
                          domain:
                            memory: {guest: 256Mi}
                            devices: {}
                        """);
                await().atMost(WAIT).until(() -> runningOn(client, "ended", "node01") && "False".equals(condition(client, "ended")));
                String launcher = launcherOf(client, "ended");
                var refused = kubectl.run("drain", "node01", "--ignore-daemonsets", "--timeout=3s");
                assertThat(refused.output()).as("refused while the VM runs in it")
                        .contains("VMI ended is configured with an eviction strategy but is not live-migratable");

                kubectl.succeed("patch", "pod", launcher, "-n", "shop", "--subresource=status", "--type=merge",
                        "-p", "{\"status\":{\"phase\":\"Failed\"}}");
                var drain = kubectl.run("drain", "node01", "--ignore-daemonsets", "--timeout=30s");

                assertThat(drain.exitCode()).as(drain.describe()).isZero();
                assertThat(drain.output()).contains("pod/" + launcher + " evicted").contains("node/node01 drained");
            }
        }
    }

    /** The controllers lead and their eviction webhook is registered. */
    private static void awaitWebhookServing(LocalControlPlane plane, KubernetesClient client) {
        await().atMost(WAIT).until(() -> plane.controllers().orElseThrow().isLeader()
                && client.admissionRegistration().v1().validatingWebhookConfigurations().withName("virt-api-validator").get() != null);
    }

    private static boolean runningOn(KubernetesClient client, String vmi, String node) {
        VirtualMachineInstance found = client.resources(VirtualMachineInstance.class).inNamespace("shop").withName(vmi).get();
        return found != null && found.getStatus() != null && "Running".equals(found.getStatus().getPhase())
                && node.equals(found.getStatus().getNodeName());
    }

    private static String condition(KubernetesClient client, String vmi) {
        VirtualMachineInstance found = client.resources(VirtualMachineInstance.class).inNamespace("shop").withName(vmi).get();
        return found == null || found.getStatus() == null || found.getStatus().getConditions() == null ? null
                : found.getStatus().getConditions().stream().filter(c -> "LiveMigratable".equals(c.getType()))
                .map(c -> c.getStatus()).findFirst().orElse(null);
    }

    private static java.util.Optional<Pod> readyWebPod(KubernetesClient client) {
        return client.pods().inNamespace("shop").withLabel("app", "web").list().getItems().stream()
                .filter(p -> p.getMetadata().getDeletionTimestamp() == null && p.getStatus() != null
                        && p.getStatus().getConditions() != null
                        && p.getStatus().getConditions().stream().anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus())))
                .findFirst();
    }

    private static String launcherOf(KubernetesClient client, String vmi) {
        List<Pod> pods = client.pods().inNamespace("shop").withLabel("kubevirt.io", "virt-launcher").list().getItems();
        return pods.stream().filter(p -> vmi.equals(p.getMetadata().getAnnotations().get("kubevirt.io/domain")))
                .filter(p -> "node01".equals(p.getSpec().getNodeName()))
                .findFirst().orElseThrow().getMetadata().getName();
    }

    private static PodOutcome outcomeOf(DrainPreview preview, String pod) {
        return preview.pod("shop", pod).orElseThrow().outcome();
    }
}
