package dev.drainboard.cluster.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.drainboard.cluster.EmbeddedClusterOptions;
import dev.drainboard.cluster.apiserver.BuiltinResources;

import java.nio.file.Path;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where kube-apiserver refuses, the embedded cluster refuses with the same words, as the real kubectl prints them:
 * bad label keys, oversized annotations, webhooks over plain HTTP, watches from a compacted resourceVersion; and
 * {@code kubectl auth whoami} and {@code kubectl auth can-i --list} answer as for a cluster admin. The cluster keeps a
 * change log of 50 changes, so that compaction is reached quickly.
 */
@DisplayName("kubectl against the embedded cluster: refusals and answers as kube-apiserver's")
class KubectlTwinFidelityTest {

    private static final String NAME_PART = "name part must consist of alphanumeric characters, '-', '_' or '.', and must"
            + " start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for"
            + " validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

    @TempDir
    static Path workDir;

    private static E2eCluster e2e;
    private static Kubectl kubectl;

    @BeforeAll
    static void startCluster() throws Exception {
        e2e = E2eCluster.start("drain-scenario.yaml", EmbeddedClusterOptions.defaults().withWatchLogCapacity(50), workDir);
        kubectl = e2e.kubectl();
    }

    @AfterAll
    static void stopCluster() {
        if (e2e != null) {
            e2e.close();
        }
    }

    @Test
    @DisplayName("kubectl label with a bad key: kube's 422 text, the node unchanged")
    void badLabelKey() {
        var result = kubectl.run("label", "node", "node01", "bad key!=x");

        assertThat(result.exitCode()).as(result.describe()).isEqualTo(1);
        assertThat(result.stderr()).isEqualTo("The Node \"node01\" is invalid: metadata.labels: Invalid value: \"bad key!\": "
                + NAME_PART + "\n");
        assertThat(kubectl.succeed("get", "node", "node01", "-o", "jsonpath={.metadata.labels}").stdout()).doesNotContain("bad key");
    }

    @Test
    @DisplayName("kubectl annotate past 256 KiB of annotations: 422 Too long")
    void oversizedAnnotations() {
        kubectl.succeed("create", "configmap", "annotated");
        String value = "x".repeat(90_000); // one argument may be 128 KiB at most; three make more than 256 KiB

        var result = kubectl.run("annotate", "configmap", "annotated", "a=" + value, "b=" + value, "c=" + value);

        assertThat(result.exitCode()).as(result.describe()).isEqualTo(1);
        assertThat(result.stderr()).isEqualTo("The ConfigMap \"annotated\" is invalid: metadata.annotations: Too long: may not"
                + " be more than 262144 bytes\n");
        assertThat(kubectl.succeed("get", "configmap", "annotated", "-o", "jsonpath={.metadata.annotations}").stdout()).isEmpty();
    }

    @Test
    @DisplayName("kubectl apply of a webhook with an http:// URL is refused, nothing stored")
    void plainHttpWebhook() {
        var result = kubectl.runWithInput("""
                apiVersion: admissionregistration.k8s.io/v1
                kind: ValidatingWebhookConfiguration
                metadata:
                  name: plain-guard
                webhooks:
                - name: plain-guard.drainboard.dev
                  admissionReviewVersions: ["v1"]
                  sideEffects: None
                  clientConfig:
                    url: http://127.0.0.1:8080/validate
                  rules:
                  - operations: ["CREATE"]
                    apiGroups: [""]
                    apiVersions: ["v1"]
                    resources: ["pods/eviction"]
                """, "apply", "-f", "-");

        assertThat(result.exitCode()).as(result.describe()).isEqualTo(1);
        // kubectl prints an Invalid Status from its details: the kind without its group, then each cause
        assertThat(result.stderr()).isEqualTo("The ValidatingWebhookConfiguration \"plain-guard\" is invalid:"
                + " webhooks[0].clientConfig.url: Invalid value: \"http\": 'https' is the only allowed URL scheme; desired"
                + " format: https://host[/path]\n");
        assertThat(kubectl.run("get", "validatingwebhookconfiguration", "plain-guard").stderr()).contains("NotFound");
    }

    @Test
    @DisplayName("a watch from a compacted resourceVersion ends with an ERROR event: 410 Expired")
    void watchFromACompactedResourceVersion() {
        kubectl.succeed("create", "configmap", "churn");
        for (int i = 0; i < 60; i++) {
            int n = i;
            e2e.cluster().store().update(BuiltinResources.CONFIG_MAPS, "default", "churn", cm -> {
                cm.with("data").put("n", Integer.toString(n));
                return cm;
            }, false);
        }
        long compacted = e2e.cluster().store().compactedResourceVersion();

        var result = kubectl.run("get", "--raw", "/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=1");

        assertThat(result.exitCode()).as(result.describe()).isZero();
        assertThat(result.stdout()).isEqualTo("{\"type\":\"ERROR\",\"object\":{\"kind\":\"Status\",\"apiVersion\":\"v1\","
                + "\"metadata\":{},\"status\":\"Failure\",\"message\":\"too old resource version: 1 (" + compacted + ")\","
                + "\"reason\":\"Expired\",\"code\":410}}\n");
    }

    @Test
    @DisplayName("kubectl auth whoami names the token holder and its groups")
    void whoami() {
        var result = kubectl.succeed("auth", "whoami");

        assertThat(result.stdout()).isEqualTo("""
                ATTRIBUTE   VALUE
                Username    drainboard-admin
                Groups      [system:masters system:authenticated]
                """);
    }

    @Test
    @DisplayName("kubectl auth can-i --list shows a cluster admin's rules")
    void canIList() {
        var result = kubectl.succeed("auth", "can-i", "--list");

        assertThat(result.stdout().lines().toList()).startsWith(
                "Resources                                       Non-Resource URLs   Resource Names   Verbs",
                "*.*                                             []                  []               [*]",
                "                                                [*]                 []               [*]",
                "selfsubjectreviews.authentication.k8s.io        []                  []               [create]",
                "selfsubjectaccessreviews.authorization.k8s.io   []                  []               [create]",
                "selfsubjectrulesreviews.authorization.k8s.io    []                  []               [create]");
        assertThat(result.stdout()).contains("[/api/*]", "[/version/]");
        assertThat(kubectl.succeed("auth", "can-i", "create", "pods/eviction").stdout()).isEqualTo("yes\n");
    }
}
