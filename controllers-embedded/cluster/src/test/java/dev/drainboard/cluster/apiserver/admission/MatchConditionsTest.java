package dev.drainboard.cluster.apiserver.admission;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drainboard.cluster.apiserver.BuiltinResources;
import dev.drainboard.cluster.apiserver.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** kube-apiserver's matchConditions semantics, evaluated with cel-java (matcher.go's table: false, true, error × policy). */
class MatchConditionsTest {

    /** KubeVirt's launcher eviction webhook condition (pkg/virt-operator/resource/generate/components/webhooks.go). */
    private static final String ONLY_VMS = "object.metadata.name.startsWith(\"virt-launcher\")";

    private static AdmissionAttributes eviction(String podName) {
        ObjectNode eviction = Json.object();
        eviction.put("apiVersion", "policy/v1").put("kind", "Eviction");
        eviction.putObject("metadata").put("name", podName).put("namespace", "default");
        return new AdmissionAttributes("CREATE", BuiltinResources.PODS, "eviction", "default", podName, eviction, null,
                "policy", "v1", "Eviction", false);
    }

    private static JsonNode webhook(String failurePolicy, String... nameExpression) {
        ObjectNode hook = Json.object();
        hook.put("name", "w.example.com").put("failurePolicy", failurePolicy);
        var conditions = hook.putArray("matchConditions");
        for (int i = 0; i < nameExpression.length; i += 2) {
            conditions.addObject().put("name", nameExpression[i]).put("expression", nameExpression[i + 1]);
        }
        return hook;
    }

    private static MatchConditions.Result match(JsonNode hook, AdmissionAttributes a) {
        return MatchConditions.match(hook, a, MatchConditions.request(a, "uid-1", "admin", List.of("system:masters")));
    }

    @ParameterizedTest(name = "{0} under {1}: {2}")
    @CsvSource(delimiter = '|', value = {
            "virt-launcher-vm1-abcde | Fail   | call",
            "virt-launcher-vm1-abcde | Ignore | call",
            "web-7d9f                | Fail   | skip",
            "web-7d9f                | Ignore | skip",
    })
    void launcherPodsOnly(String pod, String policy, String expected) {
        MatchConditions.Result r = match(webhook(policy, "only-vms", ONLY_VMS), eviction(pod));
        assertThat(r).isInstanceOf(expected.equals("call") ? MatchConditions.Result.Matches.class : MatchConditions.Result.Skip.class);
    }

    @Test
    void noConditionsMatchEverything() {
        assertThat(match(webhook("Fail"), eviction("web"))).isInstanceOf(MatchConditions.Result.Matches.class);
    }

    @Test
    void requestVariableHasTheAdmissionRequestFields() {
        String expr = "request.operation == 'CREATE' && request.subResource == 'eviction' && request.resource.resource == 'pods'"
                + " && request.userInfo.username == 'admin' && oldObject == null";
        assertThat(match(webhook("Fail", "r", expr), eviction("x"))).isInstanceOf(MatchConditions.Result.Matches.class);
    }

    @Test
    void anyFalseSkipsEvenWithAnErrorBeside() {
        MatchConditions.Result r = match(webhook("Fail", "broken", "object.spec.missing == 'x'", "no", "false"), eviction("x"));
        assertThat(r).isEqualTo(new MatchConditions.Result.Skip("no"));
    }

    @Test
    void anErrorFailsClosedUnderFailAndSkipsUnderIgnore() {
        String broken = "object.spec.missing == 'x'";
        MatchConditions.Result fail = match(webhook("Fail", "broken", broken), eviction("x"));
        assertThat(fail).isInstanceOf(MatchConditions.Result.Error.class);
        assertThat(((MatchConditions.Result.Error) fail).message()).startsWith("expression '" + broken + "' resulted in error: ");
        assertThat(match(webhook("Ignore", "broken", broken), eviction("x"))).isEqualTo(new MatchConditions.Result.Skip(""));
    }

    @Test
    void compileErrorsAreWordedAsKubeApiserverStoresThem() {
        assertThat(MatchConditions.compileError(ONLY_VMS)).isEmpty();
        assertThat(MatchConditions.compileError("object.metadata.name.startsWith(")).get(org.assertj.core.api.InstanceOfAssertFactories.STRING)
                .startsWith("compilation failed: ERROR: <input>:1:");
        assertThat(MatchConditions.compileError("'text'")).contains("must evaluate to bool");
        assertThat(MatchConditions.compileError("authorizer.group('') != null")).get(org.assertj.core.api.InstanceOfAssertFactories.STRING)
                .contains("undeclared reference to 'authorizer'");
    }
}
