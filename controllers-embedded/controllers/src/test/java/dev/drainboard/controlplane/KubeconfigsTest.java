package dev.drainboard.controlplane;

import dev.drainboard.controlplane.Kubeconfigs.InvalidKubeconfigException;
import io.fabric8.kubernetes.client.Config;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

@DisplayName("Kubeconfigs: a kubeconfig that cannot be used is refused with what is wrong, never with its contents")
class KubeconfigsTest {

    private static final String CLUSTERS = "clusters: [{name: c, cluster: {server: \"https://10.0.0.1:6443\"}}]\n";
    private static final String USERS = "users: [{name: u, user: {token: s3cr3t-token}}]\n";
    private static final String CONTEXTS = "contexts: [{name: a, context: {cluster: c, user: u}}, {name: b, context: {cluster: c, user: u, namespace: x}}]\n";

    @TempDir
    Path dir;

    static Stream<Arguments> refused() {
        return Stream.of(
                Arguments.of("current-context names no context", CLUSTERS + USERS + CONTEXTS + "current-context: foo\n", null,
                        "current-context \"foo\" in F names no context (contexts: a, b)"),
                Arguments.of("--context names no context", CLUSTERS + USERS + CONTEXTS + "current-context: a\n", "prod",
                        "context \"prod\" not found in F (contexts: a, b)"),
                Arguments.of("no contexts at all", CLUSTERS + USERS + "current-context: a\n", "a",
                        "context \"a\" not found in F (it has no contexts)"),
                Arguments.of("no current-context", CLUSTERS + USERS + CONTEXTS, null,
                        "kubeconfig F sets no current-context: choose one with --context (contexts: a, b)"),
                Arguments.of("no current-context, no contexts", CLUSTERS + USERS, null, "kubeconfig F has no contexts"),
                Arguments.of("context's cluster missing", CLUSTERS + USERS
                                + "contexts: [{name: a, context: {cluster: gone, user: u}}]\ncurrent-context: a\n", null,
                        "context \"a\" in F names cluster \"gone\", which is not in the file (clusters: c)"),
                Arguments.of("context names no cluster", CLUSTERS + USERS
                        + "contexts: [{name: a, context: {user: u}}]\ncurrent-context: a\n", null, "context \"a\" in F names no cluster"),
                Arguments.of("context's user missing", CLUSTERS + USERS
                                + "contexts: [{name: a, context: {cluster: c, user: gone}}]\ncurrent-context: a\n", null,
                        "context \"a\" in F names user \"gone\", which is not in the file (users: u)"),
                Arguments.of("no users at all", CLUSTERS + CONTEXTS + "current-context: a\n", null,
                        "context \"a\" in F names user \"u\", which is not in the file (it has no users)"),
                Arguments.of("cluster without server", "clusters: [{name: c, cluster: {insecure-skip-tls-verify: true}}]\n"
                        + USERS + CONTEXTS + "current-context: a\n", null, "cluster \"c\" in F has no server"),
                Arguments.of("empty file", "", null, "kubeconfig F is empty"),
                Arguments.of("a list, not a mapping", "- a\n- b\n", null,
                        "kubeconfig F is not a kubeconfig: its top level is a array, not a mapping"),
                Arguments.of("contexts not a list", "contexts: {name: a}\ncurrent-context: a\n", null,
                        "kubeconfig F is not a kubeconfig: contexts is not a list"),
                Arguments.of("a context without a name", "contexts: [{context: {cluster: c}}]\n", null,
                        "kubeconfig F is not a kubeconfig: contexts[0] has no name"),
                Arguments.of("client key not base64", CLUSTERS
                                + "users: [{name: u, user: {client-certificate-data: TFMwdA==, client-key-data: '%%%'}}]\n"
                                + CONTEXTS + "current-context: a\n", null,
                        "user \"u\" in F: client-key-data is not base64"),
                Arguments.of("CA not base64", "clusters: [{name: c, cluster: {server: \"https://h\", certificate-authority-data: '!'}}]\n"
                                + USERS + CONTEXTS + "current-context: a\n", null,
                        "cluster \"c\" in F: certificate-authority-data is not base64"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource
    void refused(String name, String yaml, String context, String message) throws Exception {
        Path file = dir.resolve("kubeconfig");
        Files.writeString(file, yaml);
        assertThatThrownBy(() -> Kubeconfigs.load(file, context)).isInstanceOf(InvalidKubeconfigException.class)
                .hasMessage(message.replace(" F", " " + file));
    }

    @Test
    @DisplayName("malformed YAML: the parser's problem with line and column, not the text of the line (it holds a token)")
    void malformedYamlGivesLineAndColumnButNoText() throws Exception {
        Path file = dir.resolve("kubeconfig");
        Files.writeString(file, CLUSTERS + "users:\n- name: u\n  user:\n    token: s3cr3t-token\n   bad: [x\n" + CONTEXTS);
        assertThatThrownBy(() -> Kubeconfigs.load(file, null))
                .hasMessageStartingWith("kubeconfig " + file + " is not valid YAML: ")
                .hasMessageContaining("(line 6, column 4)")
                .hasMessageNotContaining("s3cr3t-token").hasMessageNotContaining("bad:").hasMessageNotContaining("\n");
    }

    @Test
    void aMissingFileAndADirectoryAreNamed() {
        Path missing = dir.resolve("nowhere");
        assertThatThrownBy(() -> Kubeconfigs.load(missing, null)).hasMessage("kubeconfig " + missing + " does not exist");
        assertThatThrownBy(() -> Kubeconfigs.load(dir, null)).hasMessage("kubeconfig " + dir + " is a directory, not a file");
    }

    @Test
    @DisplayName("a usable context loads: its cluster, user and namespace, the current one by default")
    void loadsTheContextAskedFor() throws Exception {
        Path file = dir.resolve("kubeconfig");
        Files.writeString(file, CLUSTERS + USERS + CONTEXTS + "current-context: a\n");
        Config current = Kubeconfigs.load(file, null);
        assertThat(current.getCurrentContext().getName()).isEqualTo("a");
        assertThat(current.getMasterUrl()).isEqualTo("https://10.0.0.1:6443/");
        Config other = Kubeconfigs.load(file, "b");
        assertThat(other.getCurrentContext().getName()).isEqualTo("b");
        assertThat(other.getNamespace()).isEqualTo("x");
        Files.writeString(file, CLUSTERS + "contexts: [{name: anonymous, context: {cluster: c}}]\ncurrent-context: anonymous\n");
        assertThat(Kubeconfigs.load(file, null).getMasterUrl()).isEqualTo("https://10.0.0.1:6443/");
    }
}
