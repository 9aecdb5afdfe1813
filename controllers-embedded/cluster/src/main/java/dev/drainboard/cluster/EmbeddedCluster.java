package dev.drainboard.cluster;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drainboard.cluster.apiserver.ApiServer;
import dev.drainboard.cluster.apiserver.BuiltinResources;
import dev.drainboard.cluster.apiserver.Json;
import dev.drainboard.cluster.apiserver.ResourceRegistry;
import dev.drainboard.cluster.apiserver.ServerOptions;
import dev.drainboard.cluster.apiserver.http.ApiHttpServer;
import dev.drainboard.cluster.apiserver.http.FaultInjection;
import dev.drainboard.cluster.apiserver.store.ObjectStore;
import dev.drainboard.cluster.disruption.DisruptionController;
import dev.drainboard.cluster.gc.GarbageCollector;
import dev.drainboard.cluster.kubelet.SimulatedKubelets;
import dev.drainboard.cluster.namespace.NamespaceController;
import dev.drainboard.pki.CertificateAuthority;
import dev.drainboard.pki.IssuedCertificate;
import dev.drainboard.pki.KubeconfigWriter;
import dev.drainboard.pki.Tokens;
import dev.drainboard.cluster.hypervisor.SimulatedHypervisors;
import dev.drainboard.hypervisor.HypervisorRegistry;
import dev.drainboard.cluster.scheduler.Scheduler;
import dev.drainboard.cluster.workloads.WorkloadApi;
import dev.drainboard.cluster.workloads.WorkloadControllers;
import dev.drainboard.kubevirt.crd.DrainboardCrds;
import dev.drainboard.kubevirt.crd.KubeVirtCrds;
import dev.drainboard.cluster.scenario.ScenarioDocument;
import dev.drainboard.cluster.scenario.ScenarioException;
import dev.drainboard.cluster.scenario.ScenarioLoader;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

/**
 * An in-process Kubernetes cluster: the API server over HTTPS on loopback, the parts of
 * kube-controller-manager a drain depends on, and simulated nodes. Writes a kubeconfig that
 * kubectl and fabric8 use as they are.
 */
public final class EmbeddedCluster implements AutoCloseable {

    /** Where the API server publishes the CA of the client certificate it presents to webhooks. */
    public static final String CLIENT_CA_CONFIG_MAP = "extension-apiserver-authentication";
    public static final String CLIENT_CA_KEY = "client-ca-file";
    /** The common name of that client certificate: the user a webhook that looks sees calling. */
    public static final String WEBHOOK_CLIENT_NAME = "kube-apiserver-webhook-client";

    private final ObjectStore store;
    private final ApiServer api;
    private final List<ClusterComponent> components;
    private final HypervisorRegistry hypervisors;
    private final ApiHttpServer http;
    private final String url;
    private final Path kubeconfig;
    private final String token;
    private final String caPem;
    private final double timeScale;

    private EmbeddedCluster(ObjectStore store, ApiServer api, List<ClusterComponent> components,
                            HypervisorRegistry hypervisors, ApiHttpServer http,
                            String url, Path kubeconfig, String token, String caPem, double timeScale) {
        this.store = store;
        this.api = api;
        this.components = components;
        this.hypervisors = hypervisors;
        this.http = http;
        this.url = url;
        this.kubeconfig = kubeconfig;
        this.token = token;
        this.caPem = caPem;
        this.timeScale = timeScale;
    }

    /**
     * Starts a cluster. The scenario is loaded completely before anything is served: a bad scenario
     * throws and leaves nothing running.
     */
    public static EmbeddedCluster start(EmbeddedClusterOptions options) throws ScenarioException, IOException {
        List<ScenarioDocument> documents = options.scenario() == null ? List.of() : ScenarioLoader.read(options.scenario());
        ObjectStore store = new ObjectStore(options.watchLogCapacity(), options.watchLogMaxBytes(), Clock.systemUTC());
        ResourceRegistry registry = new ResourceRegistry();
        ApiServer api = new ApiServer(store, registry, ServerOptions.defaults());
        List<ClusterComponent> components = new ArrayList<>();
        HypervisorRegistry hypervisors = new HypervisorRegistry();
        ApiHttpServer http = null;
        try {
            createSystemNamespaces(api);
            // One CA serves the API and signs its client certificates, as kubeadm's cluster CA does.
            CertificateAuthority ca = CertificateAuthority.generate("drainboard-embedded-ca");
            api.presentWebhookClientCertificate(ca.issueClientCertificate(WEBHOOK_CLIENT_NAME, List.of()));
            publishClientCa(api, ca.certificatePem());
            KubeVirtValidators.install(api);
            dev.drainboard.cluster.virtapi.VirtApi.install(api);
            WorkloadControllers.installValidation(api);
            if (options.kubeVirtCrds()) {
                installKubeVirtCrds(api, documents);
            }
            ScenarioLoader.load(api, documents);
            if (options.kubeVirtCrds()) {
                dev.drainboard.cluster.virtapi.KubeVirtTimeScale.set(api, options.timeScale());
            } else if (options.timeScale() != 1.0) {
                throw new IllegalArgumentException("a time scale needs KubeVirt's CRDs (it is written on the KubeVirt CR)");
            }
            installVirtControllerAccount(api);
            components.add(new NamespaceController(store, registry));
            components.add(new GarbageCollector(store, registry));
            components.add(new DisruptionController(store));
            components.add(new Scheduler(store));
            components.addAll(WorkloadControllers.all(new WorkloadApi(api)));
            components.add(new SimulatedHypervisors(store, hypervisors, options.hypervisorTiming(), options.timeScale()));
            components.add(new SimulatedKubelets(store, hypervisors, options.podStartDelay(), options.timeScale()));
            components.forEach(ClusterComponent::start);

            IssuedCertificate serving = ca.issueServerCertificate("drainboard-apiserver",
                    List.of("localhost", "kubernetes", "kubernetes.default", "kubernetes.default.svc"), List.of("127.0.0.1"));
            String token = Tokens.newBearerToken();
            http = new ApiHttpServer(api, token);
            int port = http.start(options.port(), serving);
            String url = "https://127.0.0.1:" + port;
            Path kubeconfig = options.kubeconfigOut() != null ? options.kubeconfigOut()
                    : Files.createTempDirectory("drainboard-").resolve("kubeconfig");
            KubeconfigWriter.write(kubeconfig, options.contextName(), url, ca.certificatePem(), token);
            return new EmbeddedCluster(store, api, components, hypervisors, http, url, kubeconfig, token, ca.certificatePem(), options.timeScale());
        } catch (ScenarioException | IOException | RuntimeException e) {
            components.forEach(ClusterComponent::close);
            if (http != null) {
                http.close();
            }
            api.close();
            throw e;
        }
    }

    /**
     * KubeVirt's CRDs, and Drainboard's own (its drain history), are served from the start; a scenario may bring its
     * own copy of them, which then wins.
     */
    private static void installKubeVirtCrds(ApiServer api, List<ScenarioDocument> documents) {
        var fromScenario = documents.stream()
                .filter(d -> d.object().path("kind").asText().equals("CustomResourceDefinition"))
                .map(d -> Json.name(d.object()))
                .collect(java.util.stream.Collectors.toSet());
        List<ObjectNode> crds = new ArrayList<>(KubeVirtCrds.manifests());
        crds.addAll(DrainboardCrds.manifests());
        for (ObjectNode crd : crds) {
            if (!fromScenario.contains(Json.name(crd))) {
                api.load(crd);
            }
        }
    }

    /**
     * The ConfigMap in which kube-apiserver publishes its client CA for servers it calls and that authenticate it
     * ({@code kube-system/extension-apiserver-authentication}, key {@code client-ca-file}; kube-apiserver's
     * {@code pkg/controlplane/controller/clusterauthenticationtrust}). Drainboard's eviction webhook reads it through
     * the API to know whom to trust.
     */
    private static void publishClientCa(ApiServer api, String caPem) {
        ObjectNode configMap = Json.object();
        configMap.put("apiVersion", "v1");
        configMap.put("kind", "ConfigMap");
        configMap.putObject("metadata").put("name", CLIENT_CA_CONFIG_MAP).put("namespace", "kube-system");
        configMap.putObject("data").put(CLIENT_CA_KEY, caPem);
        if (api.store().get(BuiltinResources.CONFIG_MAPS, "kube-system", CLIENT_CA_CONFIG_MAP) == null) {
            api.load(configMap);
        }
    }

    /**
     * virt-controller's service account, as KubeVirt's operator installs it: {@code kubevirt-controller} in the
     * install namespace ({@code kubevirt}, created when the scenario has not), bound here to {@code cluster-admin}.
     * Drainboard's controllers run as it (a TokenRequest token, see LocalControlPlane), so virt-api's checks of "is this
     * virt-controller" (a migration's {@code spec.priority}) see them as KubeVirt's own controller and a user as a user.
     */
    private static void installVirtControllerAccount(ApiServer api) {
        String ns = dev.drainboard.kubevirt.KubeVirtValues.DEFAULT_INSTALL_NAMESPACE;
        String name = dev.drainboard.kubevirt.KubeVirtValues.CONTROLLER_SERVICE_ACCOUNT;
        if (api.store().get(BuiltinResources.NAMESPACES, null, ns) == null) {
            ObjectNode namespace = Json.object().put("apiVersion", "v1").put("kind", "Namespace");
            namespace.putObject("metadata").put("name", ns);
            api.load(namespace);
        }
        if (api.store().get(BuiltinResources.SERVICE_ACCOUNTS, ns, name) == null) {
            ObjectNode account = Json.object().put("apiVersion", "v1").put("kind", "ServiceAccount");
            account.putObject("metadata").put("name", name).put("namespace", ns)
                    .putObject("labels").put("kubevirt.io", "");
            api.load(account);
        }
        if (api.store().get(BuiltinResources.CLUSTER_ROLE_BINDINGS, null, name) == null) {
            ObjectNode binding = Json.object().put("apiVersion", "rbac.authorization.k8s.io/v1").put("kind", "ClusterRoleBinding");
            binding.putObject("metadata").put("name", name).putObject("labels").put("kubevirt.io", "");
            binding.putObject("roleRef").put("apiGroup", "rbac.authorization.k8s.io").put("kind", "ClusterRole").put("name", "cluster-admin");
            binding.putArray("subjects").addObject().put("kind", "ServiceAccount").put("name", name).put("namespace", ns);
            api.load(binding);
        }
    }

    private static void createSystemNamespaces(ApiServer api) {
        for (String name : List.of("default", "kube-system", "kube-public", "kube-node-lease")) {
            ObjectNode ns = Json.object();
            ns.put("apiVersion", "v1");
            ns.put("kind", "Namespace");
            ns.putObject("metadata").put("name", name);
            if (api.store().get(BuiltinResources.NAMESPACES, null, name) == null) {
                api.load(ns);
            }
        }
    }

    public String url() {
        return url;
    }

    public Path kubeconfig() {
        return kubeconfig;
    }

    public String token() {
        return token;
    }

    public String caPem() {
        return caPem;
    }

    /** The storage, for the embedded cluster's own parts, tests and benchmarks. */
    public ObjectStore store() {
        return store;
    }

    public ApiServer api() {
        return api;
    }

    /** How many times faster than real time this cluster runs ({@link EmbeddedClusterOptions#timeScale()}). */
    public double timeScale() {
        return timeScale;
    }

    /**
     * Says the cluster runs this KubeVirt release ({@code v1.6.0}): the KubeVirt CR's
     * {@code status.observedKubeVirtVersion}, from which the profile follows (docs/kubevirt-versions.md).
     */
    public void setKubeVirtVersion(String version) {
        dev.drainboard.cluster.virtapi.KubeVirtVersion.set(api, version);
    }

    /**
     * The simulated nodes' hypervisors, one per Node (registered when the Node appears): what a
     * node handler (dev.drainboard.handler.NodeHandler, in the controllers) serves in this process.
     */
    public HypervisorRegistry hypervisors() {
        return hypervisors;
    }

    /**
     * Faults injected into the API writes that come over HTTPS (chaos tests; docs/reliability.md): off unless a share
     * is set.
     */
    public FaultInjection faults() {
        return http.faults();
    }

    /**
     * Cuts every open watch connection, as a restarting API server or a flaky network would; clients
     * must reconnect and resume. Returns how many were cut. A test hook.
     */
    public int dropWatchConnections() {
        return http.dropWatchConnections();
    }

    @Override
    public void close() {
        http.close();
        components.forEach(ClusterComponent::close);
        api.close();
    }
}
