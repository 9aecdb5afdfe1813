package dev.drainboard.ops;

import io.fabric8.kubernetes.api.model.Taint;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import dev.drainboard.testing.KubectlRequirement;
import dev.drainboard.testing.RequiresKubectl;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

@DisplayName("Taint arguments: parsed and validated as kubectl and Kubernetes do")
class TaintsTest {

    private static final String QNAME_REGEX = "must consist of alphanumeric characters, '-', '_' or '.', and must start and "
            + "end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is "
            + "'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
    private static final String LABEL_VALUE_REGEX = "a valid label must be an empty string or consist of alphanumeric "
            + "characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or "
            + "'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
    private static final String SUBDOMAIN_REGEX = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric "
            + "characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used "
            + "for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

    static Stream<Arguments> valid() {
        return Stream.of(
                Arguments.of("dedicated=gpu:NoSchedule", "dedicated", "gpu", "NoSchedule"),
                Arguments.of("kubevirt.io/drain:NoSchedule", "kubevirt.io/drain", null, "NoSchedule"),
                Arguments.of("example.com/MyName=v_1.2-x:PreferNoSchedule", "example.com/MyName", "v_1.2-x", "PreferNoSchedule"),
                Arguments.of("a:NoExecute", "a", null, "NoExecute"),
                Arguments.of("key=:NoSchedule", "key", null, "NoSchedule"),
                Arguments.of("k".repeat(63) + ":NoSchedule", "k".repeat(63), null, "NoSchedule"),
                Arguments.of("a".repeat(253) + "/n:NoSchedule", "a".repeat(253) + "/n", null, "NoSchedule"),
                Arguments.of("key=" + "v".repeat(63) + ":NoSchedule", "key", "v".repeat(63), "NoSchedule"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource
    void valid(String spec, String key, String value, String effect) throws Exception {
        TaintChange change = Taints.parse(List.of(spec));
        assertThat(change.toRemove()).isEmpty();
        Taint taint = change.toAdd().getFirst();
        assertThat(taint.getKey()).isEqualTo(key);
        assertThat(taint.getValue()).isEqualTo(value);
        assertThat(taint.getEffect()).isEqualTo(effect);
    }

    static Stream<Arguments> invalid() {
        return Stream.of(
                Arguments.of(List.of("dedicated=gpu:NoFly"), "invalid taint effect: NoFly, unsupported taint effect"),
                Arguments.of(List.of("dedicated"), "invalid taint spec: dedicated"),
                Arguments.of(List.of("dedicated=gpu"), "invalid taint spec: dedicated=gpu, name part " + QNAME_REGEX),
                Arguments.of(List.of("a:b:NoSchedule"), "invalid taint spec: a:b:NoSchedule"),
                Arguments.of(List.of("a=b=c:NoSchedule"), "invalid taint spec: a=b=c:NoSchedule"),
                Arguments.of(List.of(":NoSchedule"), "invalid taint spec: :NoSchedule, name part must be non-empty; name part " + QNAME_REGEX),
                Arguments.of(List.of("-bad:NoSchedule"), "invalid taint spec: -bad:NoSchedule, name part " + QNAME_REGEX),
                Arguments.of(List.of("k".repeat(64) + ":NoSchedule"),
                        "invalid taint spec: " + "k".repeat(64) + ":NoSchedule, name part must be no more than 63 characters"),
                Arguments.of(List.of("/name:NoSchedule"), "invalid taint spec: /name:NoSchedule, prefix part must be non-empty"),
                Arguments.of(List.of("Example.com/name:NoSchedule"),
                        "invalid taint spec: Example.com/name:NoSchedule, prefix part " + SUBDOMAIN_REGEX),
                Arguments.of(List.of("a".repeat(254) + "/n:NoSchedule"), "invalid taint spec: " + "a".repeat(254)
                        + "/n:NoSchedule, prefix part must be no more than 253 characters"),
                Arguments.of(List.of("a/b/c:NoSchedule"), "invalid taint spec: a/b/c:NoSchedule, a qualified name " + QNAME_REGEX
                        + " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"),
                Arguments.of(List.of("key=bad value:NoSchedule"), "invalid taint spec: key=bad value:NoSchedule, " + LABEL_VALUE_REGEX),
                Arguments.of(List.of("key=" + "v".repeat(64) + ":NoSchedule"), "invalid taint spec: key=" + "v".repeat(64)
                        + ":NoSchedule, must be no more than 63 characters"),
                Arguments.of(List.of("key:NoFly-"), "invalid taint effect: NoFly, unsupported taint effect"),
                Arguments.of(List.of("dedicated=gpu:"), "invalid taint effect: , unsupported taint effect"),
                Arguments.of(List.of("=gpu:NoSchedule"), "invalid taint spec: =gpu:NoSchedule, name part must be non-empty; name part " + QNAME_REGEX),
                // Removals: kubectl parses the spec before the "-" as a taint.
                Arguments.of(List.of("dedicated=gpu-"), "invalid taint spec: dedicated=gpu, name part " + QNAME_REGEX),
                Arguments.of(List.of("key:NoSchedule:x-"), "invalid taint spec: key:NoSchedule:x"),
                Arguments.of(List.of("key:-"), "invalid taint effect: , unsupported taint effect"),
                Arguments.of(List.of("bad key-"), "invalid taint spec: bad key, name part " + QNAME_REGEX),
                Arguments.of(List.of("key=bad value:NoSchedule-"), "invalid taint spec: key=bad value:NoSchedule, " + LABEL_VALUE_REGEX),
                Arguments.of(List.of("a=1:NoSchedule", "a=2:NoSchedule"), "duplicated taints with the same key and effect: {a 2 NoSchedule <nil>}"),
                Arguments.of(List.of("a=1:NoSchedule", "a-"), "can not both modify and remove the following taint(s) in the same command: {\"a\":\"\"}"),
                Arguments.of(List.of("a=1:NoSchedule", "a:NoSchedule-"),
                        "can not both modify and remove the following taint(s) in the same command: {\"a\":\"NoSchedule\"}"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource
    void invalid(List<String> specs, String message) {
        assertThatThrownBy(() -> Taints.parse(specs)).isInstanceOf(InvalidTaintException.class).hasMessage(message);
    }

    @Test
    void removalsTakeAKeyAndOptionallyAnEffect() throws Exception {
        TaintChange change = Taints.parse(List.of("a:NoSchedule-", "b-", "c=ignored:NoExecute-"));
        assertThat(change.toAdd()).isEmpty();
        assertThat(change.toRemove()).extracting(Taint::getKey, Taint::getValue, Taint::getEffect)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("a", null, "NoSchedule"),
                        org.assertj.core.groups.Tuple.tuple("b", null, null), org.assertj.core.groups.Tuple.tuple("c", null, "NoExecute"));
    }

    /** Malformed taint arguments kubectl refuses before it contacts the server (none starts with "-": a flag). */
    static Stream<String> kubectlRefuses() {
        return Stream.of("k1=v", "dedicated=gpu", "k1=v:NoFly", "k1=v:", "a:b:NoSchedule", "a=b=c:NoSchedule", ":NoSchedule",
                "=v:NoSchedule", "bad key=1:NoSchedule", "key=bad value:NoSchedule", "k".repeat(64) + ":NoSchedule",
                "/name:NoSchedule", "Example.com/name:NoSchedule", "a/b/c:NoSchedule", "k1=v-", "k1:NoSchedule:x-",
                "k1:Bogus-", "k1:-", "bad key-");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource
    @RequiresKubectl
    @DisplayName("the same message as kubectl taint (v1.32) for each malformed argument")
    void kubectlRefuses(String spec, @TempDir Path dir) throws Exception {
        // kubectl parses the taints before it reads the node: an unreachable server is never contacted.
        Path kubeconfig = dir.resolve("kubeconfig");
        Files.writeString(kubeconfig, """
                apiVersion: v1
                kind: Config
                clusters: [{name: c, cluster: {server: "https://127.0.0.1:1"}}]
                users: [{name: u, user: {token: x}}]
                contexts: [{name: c, context: {cluster: c, user: u}}]
                current-context: c
                """);
        Process kubectl = new ProcessBuilder(KubectlRequirement.require().toString(), "--kubeconfig=" + kubeconfig,
                "taint", "node", "node01", spec).redirectErrorStream(true).start();
        String output = new String(kubectl.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(kubectl.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(kubectl.exitValue()).as(output).isNotZero();
        String kubectlError = output.lines().findFirst().orElse("");
        assertThatThrownBy(() -> Taints.parse(List.of(spec))).isInstanceOf(InvalidTaintException.class)
                .satisfies(e -> assertThat("error: " + e.getMessage()).isEqualTo(kubectlError));
    }

    static Stream<Arguments> applied() {
        List<Taint> current = List.of(Taints.taint("a", "1", "NoSchedule"), Taints.taint("a", null, "NoExecute"),
                Taints.taint("b", null, "NoSchedule"));
        return Stream.of(
                Arguments.of(current, List.of("c=3:NoSchedule"), false, "a=1:NoSchedule a:NoExecute b:NoSchedule c=3:NoSchedule", "tainted"),
                Arguments.of(current, List.of("a=9:NoSchedule"), true, "a=9:NoSchedule a:NoExecute b:NoSchedule", "tainted"),
                Arguments.of(current, List.of("a-"), false, "b:NoSchedule", "untainted"),
                Arguments.of(current, List.of("a:NoExecute-"), false, "a=1:NoSchedule b:NoSchedule", "untainted"),
                Arguments.of(current, List.of("b-", "c:NoSchedule"), false, "a=1:NoSchedule a:NoExecute c:NoSchedule", "modified"));
    }

    @ParameterizedTest(name = "{1} overwrite={2}")
    @MethodSource
    void applied(List<Taint> current, List<String> specs, boolean overwrite, String expected, String verb) throws Exception {
        TaintChange change = Taints.parse(specs);
        List<Taint> after = Taints.apply("node01", current, change, overwrite);
        assertThat(String.join(" ", after.stream().map(Taints::describe).toList())).isEqualTo(expected);
        assertThat(Taints.verb(change)).isEqualTo(verb);
    }

    @Test
    void addingAnExistingKeyAndEffectNeedsOverwrite() throws Exception {
        TaintChange change = Taints.parse(List.of("a=2:NoSchedule"));
        assertThatThrownBy(() -> Taints.apply("node01", List.of(Taints.taint("a", "1", "NoSchedule")), change, false))
                .hasMessage("Node node01 already has a taint(s) with same effect(s) and --overwrite is false");
    }

    @Test
    void removingATaintThatIsNotThereIsAnError() throws Exception {
        TaintChange change = Taints.parse(List.of("x:NoSchedule-"));
        assertThatThrownBy(() -> Taints.apply("node01", List.of(), change, false)).hasMessage("taint \"x:NoSchedule\" not found");
    }
}
