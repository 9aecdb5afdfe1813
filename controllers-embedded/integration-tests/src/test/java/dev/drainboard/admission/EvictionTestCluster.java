package dev.drainboard.admission;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.awaitility.Awaitility.await;

import dev.drainboard.cluster.EmbeddedCluster;
import dev.drainboard.cluster.EmbeddedClusterOptions;
import dev.drainboard.controller.disruptionbudget.DisruptionBudgetController;
import dev.drainboard.kubevirt.KubeVirtAnnotations;
import dev.drainboard.kubevirt.KubeVirtLabels;
import dev.drainboard.kubevirt.api.DomainSpec;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceMigration;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceSpec;
import dev.drainboard.kubevirt.config.ClusterConfigSource;
import dev.drainboard.runtime.ControllerLoops;
import dev.drainboard.runtime.ControllerManager;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An embedded cluster with three nodes, the PDB controller and the eviction webhook running on it as Drainboard
 * runs them, and helpers to put VMIs with launcher pods on nodes by hand (as the VMI controller and the node
 * handler would) and to evict pods through the real eviction API.
 */
public final class EvictionTestCluster implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String NODES = """
            apiVersion: v1
            kind: Node
            metadata: {name: node01}
            ---
            apiVersion: v1
            kind: Node
            metadata: {name: node02}
            ---
            apiVersion: v1
            kind: Node
            metadata: {name: node03}
            """;

    private final EmbeddedCluster cluster;
    private final KubernetesClient client;
    private final ControllerManager manager;
    private final DisruptionBudgetController budgets;
    private final AtomicInteger markers = new AtomicInteger();
    private final ClusterConfigSource config;
    private final EvictionWebhookServer webhook;

    /** What the evicting client got back. */
    public record EvictionResult(int code, String message) {
    }

    private EvictionTestCluster(Path workDir, WebhookCallers callers) throws Exception {
        Path scenario = workDir.resolve("nodes.yaml");
        Files.writeString(scenario, NODES);
        cluster = EmbeddedCluster.start(EmbeddedClusterOptions.defaults().withScenario(scenario.toString()).withPort(0)
                .withKubeconfigOut(workDir.resolve("kubeconfig")));
        // The evicting client must see each 429 as kubectl does, not retry it (fabric8 retries 429s by default).
        Config noRetries = Config.fromKubeconfig(Files.readString(cluster.kubeconfig()));
        noRetries.setRequestRetryBackoffLimit(0);
        client = new KubernetesClientBuilder().withConfig(noRetries).build();
        manager = new ControllerManager(newClient(), null);
        SharedIndexInformer<VirtualMachineInstance> vmis = manager.informers().sharedIndexInformerFor(VirtualMachineInstance.class, 0);
        SharedIndexInformer<Pod> pods = manager.informers().sharedIndexInformerFor(Pod.class, 0);
        SharedIndexInformer<VirtualMachineInstanceMigration> migrations =
                manager.informers().sharedIndexInformerFor(VirtualMachineInstanceMigration.class, 0);
        config = ClusterConfigSource.start(manager.client());
        budgets = DisruptionBudgetController.register(manager, vmis, pods, migrations, config);
        manager.start();
        webhook = EvictionWebhookServer.builder(manager.client())
                .clusterConfig(config::current)
                .vmiCache(vmis)
                .podCache(pods)
                .callers(callers)
                .build();
        webhook.start();
    }

    /** With the webhook answering only the cluster's API server (its client CA), as Drainboard serves it. */
    public static EvictionTestCluster start(Path workDir) throws Exception {
        return new EvictionTestCluster(workDir, WebhookCallers.clusterClientCa());
    }

    /** With the webhook answering {@code callers} (e.g. anyone, to speak HTTP to it directly). */
    public static EvictionTestCluster start(Path workDir, WebhookCallers callers) throws Exception {
        return new EvictionTestCluster(workDir, callers);
    }

    public KubernetesClient newClient() throws Exception {
        return new KubernetesClientBuilder().withConfig(Config.fromKubeconfig(Files.readString(cluster.kubeconfig()))).build();
    }

    public KubernetesClient client() {
        return client;
    }

    public EvictionWebhookServer webhook() {
        return webhook;
    }

    public EmbeddedCluster cluster() {
        return cluster;
    }

    /**
     * A running VMI on {@code node} with its Ready launcher pod, as KubeVirt would have it: VMI status
     * {@code nodeName} and {@code LiveMigratable}; pod labelled {@code kubevirt.io=virt-launcher},
     * {@code kubevirt.io/created-by=<uid>}, annotated {@code kubevirt.io/domain}, owned by the VMI.
     *
     * @param strategy null to leave it to the cluster default
     */
    public Pod runVmi(String name, String strategy, boolean migratable, String node) throws Exception {
        VirtualMachineInstance vmi = new VirtualMachineInstance();
        vmi.setMetadata(new ObjectMetaBuilder().withNamespace("default").withName(name).build());
        VirtualMachineInstanceSpec spec = new VirtualMachineInstanceSpec();
        spec.setEvictionStrategy(strategy);
        // KubeVirt's schema requires spec.domain.devices; virt-api refuses a VMI that asks for no memory.
        DomainSpec domain = new DomainSpec();
        domain.setDevices(new DomainSpec.Devices());
        DomainSpec.Memory memory = new DomainSpec.Memory();
        memory.setGuest(new io.fabric8.kubernetes.api.model.Quantity("1Gi"));
        domain.setMemory(memory);
        spec.setDomain(domain);
        vmi.setSpec(spec);
        VirtualMachineInstance created = vmis().resource(vmi).create();
        // No VMI controller runs here to release the finalizer virt-api adds: dropped, so a delete removes the VMI.
        String status = JSON.writeValueAsString(Map.of("metadata", Map.of("finalizers", List.of()), "status", Map.of(
                "phase", "Running",
                "nodeName", node,
                "conditions", List.of(Map.of("type", "LiveMigratable", "status", migratable ? "True" : "False",
                        "reason", migratable ? "" : "NotMigratable")))));
        vmis().withName(name).patch(PatchContext.of(PatchType.JSON_MERGE), status);
        Pod pod = client.pods().inNamespace("default").resource(new PodBuilder()
                .withNewMetadata()
                    .withName("virt-launcher-" + name + "-x7k2p")
                    .withNamespace("default")
                    .addToLabels(KubeVirtLabels.APP, KubeVirtLabels.APP_VIRT_LAUNCHER)
                    .addToLabels(KubeVirtLabels.CREATED_BY, created.getMetadata().getUid())
                    .addToAnnotations(KubeVirtAnnotations.DOMAIN, name)
                    .addNewOwnerReference()
                        .withApiVersion("kubevirt.io/v1").withKind("VirtualMachineInstance").withName(name)
                        .withUid(created.getMetadata().getUid()).withController(true).withBlockOwnerDeletion(true)
                    .endOwnerReference()
                .endMetadata()
                .withNewSpec()
                    .withNodeName(node)
                    .addNewContainer().withName("compute").withImage("quay.io/kubevirt/virt-launcher:v1.4.0").endContainer()
                .endSpec()
                .build()).create();
        await().atMost(30, SECONDS).until(() -> isReady(client.pods().inNamespace("default").withName(pod.getMetadata().getName()).get()));
        return pod;
    }

    /**
     * Waits until the VMI has a settled PDB (status observed, nothing to disrupt) or, as {@code protectedByPdb}
     * says, has none. "None" holds before the PDB controller has even looked at a new VMI, so it is checked once
     * more after the controller has caught up with every change made so far ({@link #awaitBudgetControllerCaughtUp}).
     */
    public Optional<PodDisruptionBudget> awaitBudget(String vmiName, boolean protectedByPdb) throws Exception {
        if (!protectedByPdb) {
            await().atMost(30, SECONDS).until(() -> budgetsOf(vmiName).isEmpty());
            awaitBudgetControllerCaughtUp();
            List<PodDisruptionBudget> decided = budgetsOf(vmiName);
            if (!decided.isEmpty()) {
                throw new AssertionError("the PDB controller gave " + vmiName + " a PDB after all: " + decided);
            }
            return Optional.empty();
        }
        await().atMost(30, SECONDS).until(() -> {
            List<PodDisruptionBudget> owned = budgetsOf(vmiName);
            if (owned.size() != 1 || owned.getFirst().getStatus() == null) {
                return false;
            }
            PodDisruptionBudget pdb = owned.getFirst();
            return pdb.getStatus().getObservedGeneration() != null
                    && pdb.getStatus().getObservedGeneration().equals(pdb.getMetadata().getGeneration())
                    && pdb.getStatus().getCurrentHealthy() == 1;
        });
        return Optional.of(budgetsOf(vmiName).getFirst());
    }

    /**
     * Waits until the PDB controller has decided on every VMI change made so far: runs a marker (a new migratable
     * LiveMigrate VMI) and waits for its settled PDB, which takes a pass the controller queued after every earlier
     * VMI change, then for the controller to have no pass left (see {@link ControllerLoops#awaitIdle}).
     */
    public void awaitBudgetControllerCaughtUp() throws Exception {
        String marker = "budget-marker-" + markers.incrementAndGet();
        runVmi(marker, "LiveMigrate", true, "node03");
        awaitBudget(marker, true);
        ControllerLoops.awaitIdle(() -> budgets.loop().figures(), Duration.ofSeconds(30));
    }

    public List<PodDisruptionBudget> budgetsOf(String vmiName) {
        return client.policy().v1().podDisruptionBudget().inNamespace("default").list().getItems().stream()
                .filter(pdb -> pdb.getMetadata().getOwnerReferences().stream().anyMatch(ref -> vmiName.equals(ref.getName())))
                .toList();
    }

    public VirtualMachineInstance vmi(String name) {
        return vmis().withName(name).get();
    }

    public io.fabric8.kubernetes.client.dsl.MixedOperation<VirtualMachineInstance,
            io.fabric8.kubernetes.api.model.KubernetesResourceList<VirtualMachineInstance>,
            io.fabric8.kubernetes.client.dsl.Resource<VirtualMachineInstance>> vmisAll() {
        return client.resources(VirtualMachineInstance.class);
    }

    private io.fabric8.kubernetes.client.dsl.NonNamespaceOperation<VirtualMachineInstance,
            io.fabric8.kubernetes.api.model.KubernetesResourceList<VirtualMachineInstance>,
            io.fabric8.kubernetes.client.dsl.Resource<VirtualMachineInstance>> vmis() {
        return client.resources(VirtualMachineInstance.class).inNamespace("default");
    }

    /** POSTs an Eviction for the pod, as kubectl drain does, and returns the HTTP code and the Status message. */
    public EvictionResult evict(String podName) throws Exception {
        String body = JSON.writeValueAsString(Map.of("apiVersion", "policy/v1", "kind", "Eviction",
                "metadata", Map.of("name", podName, "namespace", "default")));
        HttpRequest request = client.getHttpClient().newHttpRequestBuilder()
                .uri(client.getMasterUrl() + "api/v1/namespaces/default/pods/" + podName + "/eviction")
                .post("application/json", body)
                .build();
        HttpResponse<String> response = client.getHttpClient().sendAsync(request, String.class).get(30, SECONDS);
        JsonNode status = JSON.readTree(response.body());
        return new EvictionResult(response.code(), status.path("message").asText(""));
    }

    static boolean isReady(Pod pod) {
        return pod != null && pod.getStatus() != null && pod.getStatus().getConditions() != null
                && pod.getStatus().getConditions().stream().anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
    }

    @Override
    public void close() {
        webhook.close();
        config.close();
        manager.close();
        client.close();
        cluster.close();
    }
}
