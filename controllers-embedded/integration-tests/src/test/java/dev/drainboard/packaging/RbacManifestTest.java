package dev.drainboard.packaging;

import dev.drainboard.cluster.EmbeddedCluster;
import dev.drainboard.cluster.EmbeddedClusterOptions;
import dev.drainboard.controlplane.ControlPlane;
import dev.drainboard.controlplane.LocalControlPlane;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.ops.DrainOptions;
import dev.drainboard.ops.DrainResult;
import dev.drainboard.ops.Ops;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.authentication.TokenRequestBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBindingBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.Interceptor;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * packaging/rbac.yaml grants what Drainboard's code calls: every request the controllers, the eviction webhook,
 * leader election and the operator actions make during a real drain on the embedded cluster is allowed by
 * drainboard-control and the leader-election Role; drainboard-observe only reads.
 */
class RbacManifestTest {

    private static final Path MANIFEST = Path.of("..", "..", "packaging", "rbac.yaml");
    private static final List<String> CONTROL = List.of("drainboard-control", "drainboard-leader-election");
    private static final Duration WAIT = Duration.ofSeconds(90);

    private static RbacManifest manifest;

    @TempDir
    static Path dir;

    @BeforeAll
    static void read() throws Exception {
        manifest = RbacManifest.read(MANIFEST);
    }

    @ParameterizedTest(name = "{0} {1} -> {2}")
    @CsvSource(delimiter = '|', value = {
            "GET    | /api/v1/nodes                                                          | list core/nodes",
            "GET    | /api/v1/nodes?watch=true&resourceVersion=5                             | watch core/nodes",
            "GET    | /apis/coordination.k8s.io/v1/namespaces/kube-system/leases?fieldSelector=metadata.name%3Dl&watch=true | watch coordination.k8s.io/leases in kube-system named l",
            "GET    | /api/v1/namespaces/demo/pods/web-1                                     | get core/pods in demo named web-1",
            "POST   | /api/v1/namespaces/demo/pods/web-1/eviction                            | create core/pods/eviction in demo named web-1",
            "PATCH  | /api/v1/namespaces/demo/pods/web-1/status                              | patch core/pods/status in demo named web-1",
            "PATCH  | /api/v1/nodes/node01                                                   | patch core/nodes named node01",
            "DELETE | /apis/kubevirt.io/v1/namespaces/demo/virtualmachineinstancemigrations/m | delete kubevirt.io/virtualmachineinstancemigrations in demo named m",
            "DELETE | /api/v1/namespaces/demo/pods                                           | deletecollection core/pods in demo",
            "PUT    | /apis/coordination.k8s.io/v1/namespaces/kube-system/leases/l           | update coordination.k8s.io/leases in kube-system named l",
            "GET    | /api/v1/namespaces/demo                                                | get core/namespaces in demo named demo",
            "GET    | /apis/kubevirt.io/v1                                                   | get (non-resource)",
            "GET    | /version                                                               | get (non-resource)",
            "PUT    | /apis/subresources.kubevirt.io/v1/namespaces/demo/virtualmachines/web/stop | update subresources.kubevirt.io/virtualmachines/stop in demo named web",
    })
    void requestsReadAsTheAuthorizerReadsThem(String method, String uri, String expected) {
        assertThat(RequestAttributes.of(method, URI.create("https://127.0.0.1:6443" + uri))).hasToString(expected);
    }

    @ParameterizedTest(name = "{0}: {1} {2} -> {3}")
    @CsvSource(delimiter = '|', value = {
            "drainboard-control          | POST   | /api/v1/namespaces/demo/pods/web-1/eviction                                          | true",
            "drainboard-control          | DELETE | /api/v1/namespaces/demo/pods                                                         | false",
            "drainboard-control          | PUT    | /api/v1/nodes/node01                                                                 | false",
            "drainboard-control          | PUT    | /apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations/virt-api-validator | true",
            "drainboard-control          | PUT    | /apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations/other          | false",
            "drainboard-control          | GET    | /api/v1/namespaces/demo/secrets/token                                                | false",
            "drainboard-control          | PUT    | /apis/subresources.kubevirt.io/v1/namespaces/demo/virtualmachines/web/start          | true",
            "drainboard-control          | PUT    | /apis/subresources.kubevirt.io/v1/namespaces/demo/virtualmachines/web/restart        | true",
            "drainboard-control          | PUT    | /apis/subresources.kubevirt.io/v1/namespaces/demo/virtualmachines/web/pause          | false",
            "drainboard-observe          | PUT    | /apis/subresources.kubevirt.io/v1/namespaces/demo/virtualmachines/web/stop           | false",
            "drainboard-leader-election  | PATCH  | /apis/coordination.k8s.io/v1/namespaces/kube-system/leases/drainboard-controllers   | true",
            "drainboard-leader-election  | PATCH  | /apis/coordination.k8s.io/v1/namespaces/default/leases/drainboard-controllers       | false",
            "drainboard-leader-election  | PATCH  | /apis/coordination.k8s.io/v1/namespaces/kube-system/leases/kube-scheduler           | false",
            "drainboard-observe          | GET    | /apis/kubevirt.io/v1/virtualmachineinstances?watch=true                              | true",
            "drainboard-observe          | POST   | /api/v1/namespaces/demo/pods/web-1/eviction                                          | false",
            "drainboard-observe          | PATCH  | /api/v1/nodes/node01                                                                 | false",
    })
    void rolesGrantOnlyTheirRules(String role, String method, String uri, boolean allowed) {
        RequestAttributes request = RequestAttributes.of(method, URI.create("https://127.0.0.1:6443" + uri));

        assertThat(manifest.allows(List.of(role), request)).as(request.toString()).isEqualTo(allowed);
    }

    @Test
    void observeIsReadOnly() {
        assertThat(manifest.role("drainboard-observe").rules())
                .allSatisfy(r -> assertThat(r.verbs()).isSubsetOf("get", "list", "watch"));
    }

    @Test
    void everyRequestOfTheControllersAndOpsDuringADrainIsGranted() throws Exception {
        Set<String> denied = new TreeSet<>();
        Set<String> seen = ConcurrentHashMap.newKeySet();
        Interceptor recorder = new Interceptor() {
            @Override
            public void before(BasicBuilder builder, HttpRequest request, RequestTags tags) {
                RequestAttributes attributes = RequestAttributes.of(request.method(), request.uri());
                seen.add(attributes.toString());
                if (!attributes.nonResource() && !manifest.allows(CONTROL, attributes)) {
                    synchronized (denied) {
                        denied.add(attributes.toString());
                    }
                }
            }
        };
        try (EmbeddedCluster cluster = EmbeddedCluster.start(EmbeddedClusterOptions.defaults().withScenario("demo")
                .withPort(0).withKubeconfigOut(dir.resolve("kubeconfig")))) {
            Config config = Config.fromKubeconfig(Files.readString(cluster.kubeconfig()));
            // The simulated nodes' handler runs on the embedded cluster only: its requests are not recorded.
            try (LocalControlPlane nodes = LocalControlPlane.start(config, cluster.hypervisors(), false);
                 KubernetesClient recorded = new KubernetesClientBuilder().withConfig(config)
                         .withHttpClientBuilderConsumer(b -> b.addOrReplaceInterceptor("rbac-recorder", recorder)).build();
                 // Ops wants a client without request retries (it would make its own, unrecorded, otherwise).
                 KubernetesClient recordedNoRetries = new KubernetesClientBuilder()
                         .withConfig(new ConfigBuilder(config).withRequestRetryBackoffLimit(0).build())
                         .withHttpClientBuilderConsumer(b -> b.addOrReplaceInterceptor("rbac-recorder", recorder)).build();
                 KubernetesClient plain = new KubernetesClientBuilder().withConfig(config).build()) {
                ControlPlane plane = ControlPlane.builder(recorded).build();
                try {
                    plane.start();
                    await().atMost(WAIT).until(plane::isLeader);
                    await().atMost(WAIT).until(() -> runningVmi(plain, "database") != null);
                    VirtualMachineInstance database = runningVmi(plain, "database");
                    String node = database.getStatus().getNodeName();
                    Ops ops = new Ops(recordedNoRetries);

                    ops.taint(node, List.of("maintenance=planned:NoSchedule"), false);
                    // Only the database VM's launcher: it live-migrates (other VMIs of the demo may refuse to).
                    DrainResult drained = ops.drain(node, DrainOptions.defaults().withIgnoreDaemonSets(true)
                            .withDeleteEmptyDirData(true).withTimeout(WAIT)
                            .withPodSelector("kubevirt.io/created-by=" + database.getMetadata().getUid())).await();
                    ops.uncordon(node);
                    ops.taint(node, List.of("maintenance:NoSchedule-"), false);

                    assertThat(drained.status()).as(drained.why()).isEqualTo(DrainResult.Status.DRAINED);
                } finally {
                    plane.close(); // releases the Lease and removes the webhook registration: recorded too
                }
            }
        }
        assertThat(seen).as("requests recorded").anyMatch(s -> s.startsWith("create core/pods/eviction"))
                .anyMatch(s -> s.startsWith("create kubevirt.io/virtualmachineinstancemigrations"))
                .anyMatch(s -> s.contains("coordination.k8s.io/leases"));
        assertThat(denied).as("requests packaging/rbac.yaml does not grant").isEmpty();
    }

    /**
     * The same drain with RBAC enforced by the embedded cluster: packaging/rbac.yaml applied, the controllers and the
     * operator's actions running with a token of drainboard/drainboard-controllers (bound to drainboard-control and the
     * leader-election Role by the manifest itself); an account bound to drainboard-observe may not cordon.
     */
    @Test
    void aDrainWithTheControlRolesTokenWorksEndToEndAndTheObserveRoleMayNotCordon() throws Exception {
        try (EmbeddedCluster cluster = EmbeddedCluster.start(EmbeddedClusterOptions.defaults().withScenario("demo")
                .withPort(0).withKubeconfigOut(dir.resolve("enforced-kubeconfig")))) {
            Config adminConfig = Config.fromKubeconfig(Files.readString(cluster.kubeconfig()));
            try (KubernetesClient admin = new KubernetesClientBuilder().withConfig(adminConfig).build();
                 LocalControlPlane nodes = LocalControlPlane.start(adminConfig, cluster.hypervisors(), false)) {
                try (var in = Files.newInputStream(MANIFEST)) {
                    admin.load(in).items().forEach(o -> admin.resource(o).create());
                }
                admin.serviceAccounts().inNamespace("drainboard").resource(new ServiceAccountBuilder().withNewMetadata()
                        .withName("observer").endMetadata().build()).create();
                admin.rbac().clusterRoleBindings().resource(new ClusterRoleBindingBuilder().withNewMetadata()
                        .withName("observer").endMetadata()
                        .withNewRoleRef("rbac.authorization.k8s.io", "ClusterRole", "drainboard-observe")
                        .addNewSubject().withKind("ServiceAccount").withName("observer").withNamespace("drainboard").endSubject()
                        .build()).create();
                Config control = withToken(adminConfig, token(admin, "drainboard-controllers"));
                Config observe = withToken(adminConfig, token(admin, "observer"));

                try (KubernetesClient observer = new KubernetesClientBuilder().withConfig(observe).build();
                     Ops observerOps = new Ops(observer)) {
                    assertThat(observer.nodes().list().getItems()).isNotEmpty();
                    assertThatThrownBy(() -> observerOps.cordon("node01"))
                            .hasMessageContaining("nodes \"node01\" is forbidden: User \"system:serviceaccount:drainboard:observer\" "
                                    + "cannot patch resource \"nodes\" in API group \"\" at the cluster scope");
                }
                try (KubernetesClient controller = new KubernetesClientBuilder().withConfig(control).build();
                     KubernetesClient noRetries = new KubernetesClientBuilder()
                             .withConfig(new ConfigBuilder(control).withRequestRetryBackoffLimit(0).build()).build()) {
                    ControlPlane plane = ControlPlane.builder(controller).build();
                    try {
                        plane.start();
                        await().atMost(WAIT).until(plane::isLeader);
                        await().atMost(WAIT).until(() -> runningVmi(admin, "database") != null);
                        VirtualMachineInstance database = runningVmi(admin, "database");
                        String node = database.getStatus().getNodeName();
                        Ops ops = new Ops(noRetries);

                        DrainResult drained = ops.drain(node, DrainOptions.defaults().withIgnoreDaemonSets(true)
                                .withDeleteEmptyDirData(true).withTimeout(WAIT)
                                .withPodSelector("kubevirt.io/created-by=" + database.getMetadata().getUid())).await();

                        assertThat(drained.status()).as(drained.why()).isEqualTo(DrainResult.Status.DRAINED);
                        assertThat(admin.nodes().withName(node).get().getSpec().getUnschedulable()).isTrue();
                        assertThat(runningVmi(admin, "database").getStatus().getNodeName()).isNotEqualTo(node);
                        ops.uncordon(node);
                    } finally {
                        plane.close();
                    }
                }
            }
        }
    }

    private static String token(KubernetesClient admin, String account) {
        return admin.serviceAccounts().inNamespace("drainboard").withName(account)
                .tokenRequest(new TokenRequestBuilder().withNewSpec().withExpirationSeconds(3600L).endSpec().build())
                .getStatus().getToken();
    }

    private static Config withToken(Config config, String token) {
        return new ConfigBuilder(config).withOauthToken(token).build();
    }

    private static VirtualMachineInstance runningVmi(KubernetesClient client, String name) {
        VirtualMachineInstance vmi = client.resources(VirtualMachineInstance.class).inNamespace("demo").withName(name).get();
        return vmi != null && vmi.getStatus() != null && "Running".equals(vmi.getStatus().getPhase())
                && vmi.getStatus().getConditions() != null
                && vmi.getStatus().getConditions().stream().anyMatch(c -> "LiveMigratable".equals(c.getType())) ? vmi : null;
    }
}
