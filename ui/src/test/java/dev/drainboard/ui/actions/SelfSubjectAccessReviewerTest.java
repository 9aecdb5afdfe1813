package dev.drainboard.ui.actions;

import dev.drainboard.cluster.EmbeddedCluster;
import dev.drainboard.cluster.EmbeddedClusterOptions;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.authentication.TokenRequestBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBindingBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The console's permission checks against the embedded cluster's RBAC: connected with a token of a service account
 * bound to packaging/rbac.yaml's drainboard-observe, cordon and drain are denied with the reason the tooltip shows;
 * with drainboard-control they are allowed.
 */
class SelfSubjectAccessReviewerTest {

    private static final Path MANIFEST = Path.of("..", "packaging", "rbac.yaml");

    @TempDir
    static Path dir;

    private static EmbeddedCluster cluster;
    private static KubernetesClient admin;

    @BeforeAll
    static void start() throws Exception {
        cluster = EmbeddedCluster.start(EmbeddedClusterOptions.defaults().withScenario("demo").withPort(0)
                .withKubeconfigOut(dir.resolve("kubeconfig")));
        admin = new KubernetesClientBuilder().withConfig(config(null)).build();
        try (InputStream manifest = Files.newInputStream(MANIFEST)) {
            admin.load(manifest).items().forEach(o -> admin.resource(o).create());
        }
        for (String role : new String[] {"observe", "control"}) {
            admin.serviceAccounts().inNamespace("drainboard").resource(new ServiceAccountBuilder().withNewMetadata()
                    .withName(role + "r").endMetadata().build()).create();
            admin.rbac().clusterRoleBindings().resource(new ClusterRoleBindingBuilder().withNewMetadata()
                    .withName("test-" + role).endMetadata()
                    .withNewRoleRef("rbac.authorization.k8s.io", "ClusterRole", "drainboard-" + role)
                    .addNewSubject().withKind("ServiceAccount").withName(role + "r").withNamespace("drainboard").endSubject()
                    .build()).create();
        }
    }

    private static Config config(String token) throws Exception {
        Config base = Config.fromKubeconfig(Files.readString(cluster.kubeconfig()));
        return token == null ? base : new ConfigBuilder(base).withOauthToken(token).build();
    }

    private static KubernetesClient as(String account) throws Exception {
        String token = admin.serviceAccounts().inNamespace("drainboard").withName(account)
                .tokenRequest(new TokenRequestBuilder().withNewSpec().withExpirationSeconds(600L).endSpec().build())
                .getStatus().getToken();
        return new KubernetesClientBuilder().withConfig(config(token)).build();
    }

    @AfterAll
    static void stop() {
        if (admin != null) {
            admin.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void anObserveTokenMayNeitherCordonNorDrainAndSaysWhy() throws Exception {
        try (KubernetesClient observer = as("observer")) {
            SelfSubjectAccessReviewer reviewer = new SelfSubjectAccessReviewer(observer);

            AccessDecision cordon = reviewer.review(AccessCheck.patchNodes());
            AccessDecision drain = reviewer.review(AccessCheck.evictPods(""));

            assertThat(cordon.state()).isEqualTo(AccessDecision.State.DENIED);
            assertThat(cordon.reason()).isEqualTo("Not allowed: your credentials may not patch nodes");
            assertThat(drain.reason()).isEqualTo("Not allowed: your credentials may not create pods/eviction");
            assertThat(reviewer.review(AccessCheck.listPods())).isEqualTo(AccessDecision.ALLOWED);
        }
    }

    @Test
    void aControlTokenMayCordonDrainAndMigrate() throws Exception {
        try (KubernetesClient operator = as("controlr")) {
            SelfSubjectAccessReviewer reviewer = new SelfSubjectAccessReviewer(operator);

            assertThat(reviewer.review(AccessCheck.patchNodes())).isEqualTo(AccessDecision.ALLOWED);
            assertThat(reviewer.review(AccessCheck.evictPods(""))).isEqualTo(AccessDecision.ALLOWED);
            assertThat(reviewer.review(AccessCheck.createMigrations("demo"))).isEqualTo(AccessDecision.ALLOWED);
            assertThat(reviewer.review(AccessCheck.patchVmis("demo"))).isEqualTo(AccessDecision.ALLOWED);
        }
    }
}
