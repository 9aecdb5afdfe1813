package dev.drainboard.cluster.apiserver.validation;

import dev.drainboard.validation.FieldError;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.stream.Stream;

/**
 * ObjectMeta validation, row by row against the texts of apimachinery v1.32 (util/validation/validation.go,
 * api/validation/objectmeta.go, util/validation/field/errors.go): each row is a metadata and the errors
 * kube-apiserver reports for it, as {@code field: body}.
 */
class ObjectMetaValidationTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static final String NAME_PART = "name part must consist of alphanumeric characters, '-', '_' or '.', and must"
            + " start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for"
            + " validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
    private static final String LABEL_VALUE = "a valid label must be an empty string or consist of alphanumeric characters,"
            + " '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value', "
            + " or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
    private static final String SUBDOMAIN = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric"
            + " characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex"
            + " used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
    private static final String LABEL = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or"
            + " '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for"
            + " validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
    private static final String DNS1035 = "a DNS-1035 label must consist of lower case alphanumeric characters or '-',"
            + " start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or"
            + " 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";
    private static final String QUALIFIED = "a qualified name must consist of alphanumeric characters, '-', '_' or '.',"
            + " and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex"
            + " used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix"
            + " and '/' (e.g. 'example.com/MyName')";

    static Stream<Arguments> labels() {
        String long64 = "a".repeat(64);
        return Stream.of(
                arguments("{'ok': 'yes', 'example.com/ok': '', 'a_b.c-d': 'X_y.z-1'}", List.of()),
                arguments("{'bad key!': 'x'}", List.of("metadata.labels: Invalid value: \"bad key!\": " + NAME_PART)),
                arguments("{'-start': 'x'}", List.of("metadata.labels: Invalid value: \"-start\": " + NAME_PART)),
                arguments("{'" + long64 + "': 'x'}", List.of(
                        "metadata.labels: Invalid value: \"" + long64 + "\": name part must be no more than 63 characters")),
                arguments("{'/x': 'v'}", List.of("metadata.labels: Invalid value: \"/x\": prefix part must be non-empty")),
                arguments("{'Example.com/x': 'v'}", List.of("metadata.labels: Invalid value: \"Example.com/x\": prefix part " + SUBDOMAIN)),
                arguments("{'example.com/': 'v'}", List.of(
                        "metadata.labels: Invalid value: \"example.com/\": name part must be non-empty",
                        "metadata.labels: Invalid value: \"example.com/\": " + NAME_PART)),
                arguments("{'a/b/c': 'v'}", List.of("metadata.labels: Invalid value: \"a/b/c\": " + QUALIFIED)),
                arguments("{'k': 'bad value'}", List.of("metadata.labels: Invalid value: \"bad value\": " + LABEL_VALUE)),
                arguments("{'k': '" + long64 + "'}", List.of(
                        "metadata.labels: Invalid value: \"" + long64 + "\": must be no more than 63 characters")),
                arguments("{'k': 'quote\\u0022d'}", List.of("metadata.labels: Invalid value: \"quote\\\"d\": " + LABEL_VALUE)));
    }

    @ParameterizedTest(name = "labels {0}")
    @MethodSource
    void labels(String labels, List<String> expected) throws Exception {
        assertThat(texts(ObjectMetaValidation.labels(JSON.readTree(labels.replace('\'', '"')), "metadata.labels")))
                .containsExactlyElementsOf(expected);
    }

    static Stream<Arguments> annotations() {
        return Stream.of(
                arguments("{'Example.COM/Mixed-Case': 'any text at all: !'}", List.of()),
                arguments("{'bad key!': 'x'}", List.of("metadata.annotations: Invalid value: \"bad key!\": " + NAME_PART)),
                arguments("{'a/b/c': 'x'}", List.of("metadata.annotations: Invalid value: \"a/b/c\": " + QUALIFIED)));
    }

    @ParameterizedTest(name = "annotations {0}")
    @MethodSource
    void annotations(String annotations, List<String> expected) throws Exception {
        assertThat(texts(ObjectMetaValidation.annotations(JSON.readTree(annotations.replace('\'', '"')), "metadata.annotations")))
                .containsExactlyElementsOf(expected);
    }

    @Test
    void annotationsMayTotal256KiBOfKeysAndValuesAndNoMore() {
        String key = "big";
        ObjectNode exactly = JSON.createObjectNode().put(key, "x".repeat(256 * 1024 - key.length()));
        ObjectNode over = JSON.createObjectNode().put(key, "x".repeat(256 * 1024 - key.length() + 1));
        // counted in UTF-8 bytes, as Go's len does: 'é' is two
        ObjectNode overInBytes = JSON.createObjectNode().put(key, "é".repeat((256 * 1024 - key.length()) / 2 + 1));

        assertThat(ObjectMetaValidation.annotations(exactly, "metadata.annotations")).isEmpty();
        assertThat(texts(ObjectMetaValidation.annotations(over, "metadata.annotations")))
                .containsExactly("metadata.annotations: Too long: may not be more than 262144 bytes");
        assertThat(ObjectMetaValidation.annotations(overInBytes, "metadata.annotations"))
                .singleElement().satisfies(e -> assertThat(e.type().causeType()).isEqualTo("FieldValueTooLong"));
    }

    static Stream<Arguments> names() {
        return Stream.of(
                arguments(NameRule.DNS_SUBDOMAIN, "node01.example.com", List.of()),
                arguments(NameRule.DNS_SUBDOMAIN, "Node01", List.of("metadata.name: Invalid value: \"Node01\": " + SUBDOMAIN)),
                arguments(NameRule.DNS_SUBDOMAIN, "a".repeat(254), List.of(
                        "metadata.name: Invalid value: \"" + "a".repeat(254) + "\": must be no more than 253 characters")),
                arguments(NameRule.DNS_LABEL, "team-a", List.of()),
                arguments(NameRule.DNS_LABEL, "team.a", List.of("metadata.name: Invalid value: \"team.a\": must not contain dots")),
                arguments(NameRule.DNS_LABEL, "Team_A", List.of("metadata.name: Invalid value: \"Team_A\": " + LABEL)),
                arguments(NameRule.DNS1035_LABEL, "web", List.of()),
                arguments(NameRule.DNS1035_LABEL, "1web", List.of("metadata.name: Invalid value: \"1web\": " + DNS1035)),
                arguments(NameRule.DNS_SUBDOMAIN, "", List.of("metadata.name: Required value: name or generateName is required")),
                arguments(NameRule.PATH_SEGMENT, "..", List.of("metadata.name: Invalid value: \"..\": may not be '..'")),
                arguments(NameRule.PATH_SEGMENT, "a/b%c", List.of(
                        "metadata.name: Invalid value: \"a/b%c\": may not contain '/'",
                        "metadata.name: Invalid value: \"a/b%c\": may not contain '%'")));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource
    void names(NameRule rule, String name, List<String> expected) {
        ObjectNode object = JSON.createObjectNode();
        object.putObject("metadata").put("name", name);
        assertThat(texts(ObjectMetaValidation.validate(object, false, rule))).containsExactlyElementsOf(expected);
    }

    @Test
    void generateNameIsCheckedWithItsTrailingDashMaskedAsKubeDoes() {
        ObjectNode ok = JSON.createObjectNode();
        ok.putObject("metadata").put("generateName", "web-").put("name", "web-x7k2p");
        ObjectNode bad = JSON.createObjectNode();
        bad.putObject("metadata").put("generateName", "Web-").put("name", "Web-x7k2p");

        assertThat(ObjectMetaValidation.validate(ok, false, NameRule.DNS_SUBDOMAIN)).isEmpty();
        // maskTrailingDash turns "Web-" into "Wa": the generateName is reported as given
        assertThat(texts(ObjectMetaValidation.validate(bad, false, NameRule.DNS_SUBDOMAIN))).containsExactly(
                "metadata.generateName: Invalid value: \"Web-\": " + SUBDOMAIN,
                "metadata.name: Invalid value: \"Web-x7k2p\": " + SUBDOMAIN);
        assertThat(NameRule.maskTrailingDash("abc-")).isEqualTo("aba");
    }

    @Test
    void namespacedObjectsNeedAValidNamespace() {
        ObjectNode object = JSON.createObjectNode();
        object.putObject("metadata").put("name", "p").put("namespace", "Bad.NS");
        ObjectNode none = JSON.createObjectNode();
        none.putObject("metadata").put("name", "p");

        assertThat(texts(ObjectMetaValidation.validate(object, true, NameRule.DNS_SUBDOMAIN)))
                .containsExactly("metadata.namespace: Invalid value: \"Bad.NS\": " + LABEL);
        assertThat(texts(ObjectMetaValidation.validate(none, true, NameRule.DNS_SUBDOMAIN)))
                .containsExactly("metadata.namespace: Required value");
    }

    @Test
    void finalizersAndOwnerReferences() throws Exception {
        ObjectNode object = (ObjectNode) JSON.readTree("""
                {"metadata": {"name": "p",
                  "finalizers": ["kubernetes.io/pv-protection", "bad finalizer", "orphan", "foregroundDeletion"],
                  "ownerReferences": [{"apiVersion": "apps/", "kind": "ReplicaSet", "name": "rs", "uid": ""}]}}""");

        assertThat(texts(ObjectMetaValidation.validate(object, false, NameRule.DNS_SUBDOMAIN))).containsExactly(
                "metadata.ownerReferences.apiVersion: Invalid value: \"apps/\": version must not be empty",
                "metadata.ownerReferences.uid: Invalid value: \"\": must not be empty",
                "metadata.finalizers: Invalid value: \"bad finalizer\": " + NAME_PART,
                "metadata.finalizers: Invalid value: []string{\"kubernetes.io/pv-protection\", \"bad finalizer\", \"orphan\","
                        + " \"foregroundDeletion\"}: finalizer orphan and foregroundDeletion cannot be both set");
    }

    @Test
    void anObjectBeingDeletedTakesNoNewFinalizers() throws Exception {
        ObjectNode old = (ObjectNode) JSON.readTree("""
                {"metadata": {"name": "p", "deletionTimestamp": "2026-01-01T00:00:00Z", "finalizers": ["a.io/x"]}}""");
        ObjectNode desired = (ObjectNode) JSON.readTree("""
                {"metadata": {"name": "p", "deletionTimestamp": "2026-01-01T00:00:00Z", "finalizers": ["b.io/y", "a.io/x", "a.io/w"]}}""");

        assertThat(texts(ObjectMetaValidation.validateUpdate(desired, old))).containsExactly(
                "metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new"
                        + " finalizers []string{\"a.io/w\", \"b.io/y\"}");
        assertThat(ObjectMetaValidation.validateUpdate(old, old)).isEmpty();
    }

    @Test
    void causesCarryKubesTypes() throws Exception {
        ObjectNode object = (ObjectNode) JSON.readTree("{\"metadata\": {\"labels\": {\"bad key!\": \"x\"}}}");
        List<FieldError> errors = ObjectMetaValidation.validate(object, false, NameRule.DNS_SUBDOMAIN);

        assertThat(errors).extracting(e -> e.type().causeType(), FieldError::field)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("FieldValueRequired", "metadata.name"),
                        org.assertj.core.groups.Tuple.tuple("FieldValueInvalid", "metadata.labels"));
    }

    static List<String> texts(List<FieldError> errors) {
        return errors.stream().map(FieldError::text).toList();
    }
}
