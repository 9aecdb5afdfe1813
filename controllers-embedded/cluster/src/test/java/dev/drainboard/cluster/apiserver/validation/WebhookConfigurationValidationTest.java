package dev.drainboard.cluster.apiserver.validation;

import static dev.drainboard.cluster.apiserver.validation.ObjectMetaValidationTest.texts;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.stream.Stream;

/**
 * Webhook configuration validation against the texts of kube-apiserver v1.32 (pkg/apis/admissionregistration/validation
 * and apiserver's pkg/util/webhook/validation.go). Each row changes one part of a valid webhook.
 */
class WebhookConfigurationValidationTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String FORM = "; desired format: https://host[/path]";

    private static final String VALID = """
            {"apiVersion": "admissionregistration.k8s.io/v1", "kind": "ValidatingWebhookConfiguration",
             "metadata": {"name": "guard"},
             "webhooks": [{"name": "guard.drainboard.dev", "admissionReviewVersions": ["v1"], "sideEffects": "None",
                           "failurePolicy": "Fail", "timeoutSeconds": 5,
                           "clientConfig": {"url": "https://127.0.0.1:8443/validate"},
                           "rules": [{"operations": ["CREATE"], "apiGroups": [""], "apiVersions": ["v1"],
                                      "resources": ["pods/eviction"]}]}]}""";

    static Stream<Arguments> urls() {
        return Stream.of(
                arguments("https://127.0.0.1:8443/validate", List.of()),
                arguments("https://webhook.example.com", List.of()),
                arguments("http://127.0.0.1:8443/validate", List.of(
                        "webhooks[0].clientConfig.url: Invalid value: \"http\": 'https' is the only allowed URL scheme" + FORM)),
                arguments("HTTPS://Example.com/x", List.of()),
                arguments("https://user:secret@example.com/x", List.of(
                        "webhooks[0].clientConfig.url: Invalid value: \"user:secret\": user information is not permitted in the URL")),
                arguments("https://example.com/x#part", List.of(
                        "webhooks[0].clientConfig.url: Invalid value: \"part\": fragments are not permitted in the URL")),
                arguments("https://example.com/x?a=b", List.of(
                        "webhooks[0].clientConfig.url: Invalid value: \"a=b\": query parameters are not permitted in the URL")),
                arguments("https:///x", List.of(
                        "webhooks[0].clientConfig.url: Invalid value: \"\": host must be specified" + FORM)),
                arguments("example.com/validate", List.of(
                        "webhooks[0].clientConfig.url: Invalid value: \"\": 'https' is the only allowed URL scheme" + FORM,
                        "webhooks[0].clientConfig.url: Invalid value: \"\": host must be specified" + FORM)),
                arguments("://example.com", List.of("webhooks[0].clientConfig.url: Required value: url must be a valid URL:"
                        + " parse \"://example.com\": missing protocol scheme" + FORM)),
                arguments("https://[::1/x", List.of("webhooks[0].clientConfig.url: Required value: url must be a valid URL:"
                        + " parse \"https://[::1/x\": missing ']' in host" + FORM)),
                arguments("https://example.com:port/x", List.of("webhooks[0].clientConfig.url: Required value: url must be"
                        + " a valid URL: parse \"https://example.com:port/x\": invalid port \":port\" after host" + FORM)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource
    void urls(String url, List<String> expected) throws Exception {
        ObjectNode configuration = valid();
        clientConfig(configuration).put("url", url);

        assertThat(texts(WebhookConfigurationValidation.validate(configuration, null, false))).containsExactlyElementsOf(expected);
    }

    static Stream<Arguments> webhooks() {
        return Stream.of(
                arguments("clientConfig", "{}", List.of("webhooks[0].clientConfig: Required value: exactly one of url or service is required")),
                arguments("clientConfig", "{'url': 'https://a.example.com', 'service': {'namespace': 'ns', 'name': 'svc'}}",
                        List.of("webhooks[0].clientConfig: Required value: exactly one of url or service is required")),
                arguments("clientConfig", "{'service': {'namespace': 'ns', 'name': 'svc', 'path': '/validate/pods'}}", List.of()),
                arguments("clientConfig", "{'service': {'port': 0, 'path': 'x//Y'}}", List.of(
                        "webhooks[0].clientConfig.service.name: Required value: service name is required",
                        "webhooks[0].clientConfig.service.namespace: Required value: service namespace is required",
                        "webhooks[0].clientConfig.service.port: Invalid value: 0: port is not valid: must be between 1 and 65535, inclusive",
                        "webhooks[0].clientConfig.service.path: Invalid value: \"x//Y\": must start with a '/'",
                        // kube drops the first character whatever it is, so "x//Y" is checked as "//Y"
                        "webhooks[0].clientConfig.service.path: Invalid value: \"x//Y\": segment[0] may not be empty",
                        "webhooks[0].clientConfig.service.path: Invalid value: \"x//Y\": segment[1] may not be empty",
                        "webhooks[0].clientConfig.service.path: Invalid value: \"x//Y\": segment[2]: a lowercase RFC 1123"
                                + " subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and"
                                + " end with an alphanumeric character (e.g. 'example.com', regex used for validation is"
                                + " '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')")),
                arguments("name", "'guard'", List.of(
                        "webhooks[0].name: Invalid value: \"guard\": should be a domain with at least three segments separated by dots")),
                arguments("sideEffects", "null", List.of("webhooks[0].sideEffects: Required value: must specify one of None, NoneOnDryRun")),
                arguments("sideEffects", "'Some'", List.of(
                        "webhooks[0].sideEffects: Unsupported value: \"Some\": supported values: \"None\", \"NoneOnDryRun\"")),
                arguments("failurePolicy", "'Never'", List.of(
                        "webhooks[0].failurePolicy: Unsupported value: \"Never\": supported values: \"Fail\", \"Ignore\"")),
                arguments("timeoutSeconds", "31", List.of(
                        "webhooks[0].timeoutSeconds: Invalid value: 31: the timeout value must be between 1 and 30 seconds")),
                arguments("admissionReviewVersions", "[]", List.of(
                        "webhooks[0].admissionReviewVersions: Required value: must specify one of v1, v1beta1")),
                arguments("admissionReviewVersions", "['v2', 'v2']", List.of(
                        "webhooks[0].admissionReviewVersions[1]: Invalid value: \"v2\": duplicate version",
                        "webhooks[0].admissionReviewVersions: Invalid value: []string{\"v2\", \"v2\"}: must include at least one of v1, v1beta1")),
                arguments("rules", "[{'operations': ['*', 'PATCH'], 'apiGroups': [], 'apiVersions': ['v1'], 'resources': ['*', 'pods'], 'scope': 'Everywhere'}]", List.of(
                        "webhooks[0].rules[0].operations: Invalid value: []admissionregistration.OperationType{\"*\", \"PATCH\"}:"
                                + " if '*' is present, must not specify other operations",
                        "webhooks[0].rules[0].operations[1]: Unsupported value: \"PATCH\": supported values: \"*\", \"CONNECT\","
                                + " \"CREATE\", \"DELETE\", \"UPDATE\"",
                        "webhooks[0].rules[0].apiGroups: Required value",
                        "webhooks[0].rules[0].resources: Invalid value: []string{\"*\", \"pods\"}: if '*' is present, must not"
                                + " specify other resources without subresources",
                        "webhooks[0].rules[0].scope: Unsupported value: \"Everywhere\": supported values: \"*\", \"Cluster\", \"Namespaced\"")),
                arguments("namespaceSelector", "{'matchExpressions': [{'key': 'bad key', 'operator': 'In'}, {'key': 'a', 'operator': 'Near', 'values': ['x y']}]}", List.of(
                        "webhooks[0].namespaceSelector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
                        "webhooks[0].namespaceSelector.matchExpressions[0].key: Invalid value: \"bad key\": name part must"
                                + " consist of alphanumeric characters, '-', '_' or '.', and must start and end with an"
                                + " alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for"
                                + " validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
                        "webhooks[0].namespaceSelector.matchExpressions[1].operator: Invalid value: \"Near\": not a valid selector operator",
                        "webhooks[0].namespaceSelector.matchExpressions[1].values[0]: Invalid value: \"x y\": a valid label"
                                + " must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must"
                                + " start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345',"
                                + " regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')")));
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource
    void webhooks(String field, String value, List<String> expected) throws Exception {
        ObjectNode configuration = valid();
        ((ObjectNode) configuration.path("webhooks").get(0)).set(field, JSON.readTree(value.replace('\'', '"')));

        assertThat(texts(WebhookConfigurationValidation.validate(configuration, null, false))).containsExactlyElementsOf(expected);
    }

    @Test
    void matchConditionsMustCompileToABoolAndBeNamedOnce() throws Exception {
        ObjectNode configuration = valid();
        ((ObjectNode) configuration.path("webhooks").get(0)).set("matchConditions", JSON.readTree("""
                [{"name": "only-vms", "expression": "object.metadata.name.startsWith('virt-launcher')"},
                 {"name": "only-vms", "expression": "object.metadata.name"},
                 {"name": "broken", "expression": "object.metadata.name.startsWith("},
                 {"name": "", "expression": " "}]"""));

        List<String> errors = texts(WebhookConfigurationValidation.validate(configuration, null, false));

        assertThat(errors).hasSize(5);
        assertThat(errors.get(0)).isEqualTo("webhooks[0].matchConditions[1].expression: Invalid value: \"object.metadata.name\": must evaluate to bool");
        assertThat(errors.get(1)).isEqualTo("webhooks[0].matchConditions[1].name: Duplicate value: \"only-vms\"");
        assertThat(errors.get(2)).startsWith("webhooks[0].matchConditions[2].expression: Invalid value: "
                + "\"object.metadata.name.startsWith(\": compilation failed: ERROR: <input>:1:");
        assertThat(errors.subList(3, 5)).containsExactly("webhooks[0].matchConditions[3].expression: Required value",
                "webhooks[0].matchConditions[3].name: Required value");
    }

    @Test
    void webhookNamesAreUniqueWithinAConfiguration() throws Exception {
        ObjectNode configuration = valid();
        configuration.withArray("webhooks").add(configuration.path("webhooks").get(0).deepCopy());

        assertThat(texts(WebhookConfigurationValidation.validate(configuration, null, false)))
                .containsExactly("webhooks[1].name: Duplicate value: \"guard.drainboard.dev\"");
    }

    @Test
    void anUpdateMayKeepWhatTheStoredConfigurationAlreadyHad() throws Exception {
        ObjectNode old = valid();
        ((ObjectNode) old.path("webhooks").get(0)).put("sideEffects", "Some");
        ObjectNode desired = old.deepCopy();
        ((ObjectNode) desired.path("webhooks").get(0)).put("timeoutSeconds", 7);

        assertThat(WebhookConfigurationValidation.validate(desired, old, false)).isEmpty();
        assertThat(texts(WebhookConfigurationValidation.validate(desired, null, false))).containsExactly(
                "webhooks[0].sideEffects: Unsupported value: \"Some\": supported values: \"None\", \"NoneOnDryRun\"");
    }

    @Test
    void mutatingWebhooksHaveAReinvocationPolicy() throws Exception {
        ObjectNode configuration = valid();
        ((ObjectNode) configuration.path("webhooks").get(0)).put("reinvocationPolicy", "Always");

        assertThat(texts(WebhookConfigurationValidation.validate(configuration, null, true))).containsExactly(
                "webhooks[0].reinvocationPolicy: Unsupported value: \"Always\": supported values: \"IfNeeded\", \"Never\"");
        assertThat(WebhookConfigurationValidation.validate(configuration, null, false)).isEmpty();
    }

    private static ObjectNode valid() throws Exception {
        return (ObjectNode) JSON.readTree(VALID);
    }

    private static ObjectNode clientConfig(JsonNode configuration) {
        return (ObjectNode) configuration.path("webhooks").get(0).path("clientConfig");
    }
}
