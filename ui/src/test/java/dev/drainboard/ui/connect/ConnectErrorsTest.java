package dev.drainboard.ui.connect;

import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import org.junit.jupiter.api.Test;

import javax.net.ssl.SSLHandshakeException;
import java.net.ConnectException;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class ConnectErrorsTest {

    private static final String URL = "https://10.0.0.1:6443";

    @Test
    void refusedConnectionNamesTheServerAndTheCause() {
        ConnectError e = ConnectErrors.classify(new KubernetesClientException("Operation failed",
                new ConnectException("Connection refused: /10.0.0.1:6443")), URL, "admin");
        assertThat(e.kind()).isEqualTo(ConnectError.Kind.UNREACHABLE);
        assertThat(e.headline()).contains(URL);
        assertThat(e.detail()).contains("Connection refused");
    }

    @Test
    void unknownHost() {
        ConnectError e = ConnectErrors.classify(new KubernetesClientException("x", new UnknownHostException("api.example")), URL, "");
        assertThat(e.kind()).isEqualTo(ConnectError.Kind.UNREACHABLE);
        assertThat(e.detail()).contains("api.example");
    }

    @Test
    void expiredCredentials() {
        ConnectError e = ConnectErrors.classify(new KubernetesClientException(
                new StatusBuilder().withCode(401).withMessage("Unauthorized").build()), URL, "alice");
        assertThat(e.kind()).isEqualTo(ConnectError.Kind.UNAUTHORIZED);
        assertThat(e.headline()).contains("401");
        assertThat(e.detail()).contains("alice").contains("expired");
    }

    @Test
    void forbiddenQuotesTheServer() {
        ConnectError e = ConnectErrors.classify(new KubernetesClientException(new StatusBuilder().withCode(403)
                .withMessage("nodes is forbidden: User \"bob\" cannot list resource \"nodes\"").build()), URL, "bob");
        assertThat(e.kind()).isEqualTo(ConnectError.Kind.FORBIDDEN);
        assertThat(e.detail()).contains("cannot list resource \"nodes\"");
    }

    @Test
    void tls() {
        ConnectError e = ConnectErrors.classify(new KubernetesClientException("x", new SSLHandshakeException("PKIX path building failed")), URL, "");
        assertThat(e.kind()).isEqualTo(ConnectError.Kind.TLS);
        assertThat(e.detail()).contains("PKIX");
    }

    @Test
    void kubeconfigCatalogReportsMissingAndMalformedFilesWithoutThrowing() throws Exception {
        Path dir = Files.createTempDirectory("kubeconfigs");
        KubeconfigSource missing = KubeconfigCatalog.readFile(dir.resolve("nope.yaml"));
        assertThat(missing.problem()).hasValueSatisfying(p -> assertThat(p).contains("does not exist"));
        Path bad = Files.writeString(dir.resolve("bad.yaml"), "clusters: [ : : \n");
        assertThat(KubeconfigCatalog.readFile(bad).problem()).hasValueSatisfying(p -> assertThat(p).contains("not valid YAML"));
        // What is wrong and where, in one line: an operator fixes the file from it.
        Path unclosed = Files.writeString(dir.resolve("unclosed.yaml"), "apiVersion: v1\nkind: Config\nclusters:\n- name: c1\n  cluster: {server: https://x\n");
        assertThat(KubeconfigCatalog.readFile(unclosed).problem()).hasValueSatisfying(p -> assertThat(p)
                .contains("not valid YAML").containsPattern("\\(line \\d+, column \\d+\\)$").doesNotContain("\n"));
        Path good = Files.writeString(dir.resolve("good.yaml"), """
                apiVersion: v1
                kind: Config
                clusters:
                - name: c1
                  cluster: {server: "https://a:6443"}
                contexts:
                - name: one
                  context: {cluster: c1, user: u1, namespace: ns1}
                - name: two
                  context: {cluster: c1, user: u2}
                current-context: two
                users: []
                """);
        KubeconfigSource source = KubeconfigCatalog.readFile(good);
        assertThat(source.problem()).isEmpty();
        assertThat(source.contexts()).extracting(KubeContext::name).containsExactly("one", "two");
        assertThat(source.contexts().get(0).server()).isEqualTo("https://a:6443");
        assertThat(source.contexts().get(1).current()).isTrue();
    }
}
