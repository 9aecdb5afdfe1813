package dev.drainboard.cluster.apiserver.schema;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.drainboard.validation.FieldError;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Pruning, defaulting and validation of a custom resource by its structural schema, row by row: the object sent, the
 * object kept, the unknown fields reported and kube-apiserver's field errors.
 */
class StructuralSchemaTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** A small schema with every feature the rows exercise. */
    private static final StructuralSchema SCHEMA = StructuralSchema.compile(yaml("""
            type: object
            properties:
              spec:
                type: object
                required: [domain]
                properties:
                  running: {type: boolean}
                  runStrategy: {type: string, enum: [Always, Halted]}
                  replicas: {type: integer, minimum: 0, maximum: 10, format: int32}
                  ratio: {type: number, exclusiveMaximum: true, maximum: 1}
                  memory: {anyOf: [{type: integer}, {type: string}], x-kubernetes-int-or-string: true, pattern: '^[0-9]+[MG]i$'}
                  name: {type: string, minLength: 2, maxLength: 5}
                  since: {type: string, format: date-time}
                  probe: {type: string, nullable: true, format: date-time}
                  policy: {type: string, default: WaitGracePeriod}
                  domain:
                    type: object
                    properties:
                      disks:
                        type: array
                        maxItems: 2
                        items:
                          type: object
                          required: [name]
                          properties:
                            name: {type: string}
                  labels:
                    type: object
                    additionalProperties:
                      type: object
                      properties:
                        value: {type: string}
                  extra:
                    type: object
                    x-kubernetes-preserve-unknown-fields: true
                    properties:
                      known:
                        type: object
                        properties:
                          a: {type: string}
                  template:
                    type: object
                    x-kubernetes-embedded-resource: true
                    properties:
                      spec:
                        type: object
                        properties:
                          size: {type: integer}
              status:
                type: object
                properties:
                  phase: {type: string}
            """));

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '~', textBlock = """
            # what                               | spec sent                                                          | spec kept                                                               | unknown fields
            a known object stays as it is        | {"domain":{},"running":true}                                       | {"domain":{},"running":true,"policy":"WaitGracePeriod"}                  | []
            a misspelled field is pruned         | {"domain":{},"domian":{}}                                          | {"domain":{},"policy":"WaitGracePeriod"}                                 | ["spec.domian"]
            unknown fields nested in arrays      | {"domain":{"disks":[{"name":"a"},{"name":"b","nmae":"c"}]}}        | {"domain":{"disks":[{"name":"a"},{"name":"b"}]},"policy":"WaitGracePeriod"} | ["spec.domain.disks[1].nmae"]
            unknown fields nested in maps        | {"domain":{},"labels":{"x":{"value":"1","colour":"red"}}}          | {"domain":{},"labels":{"x":{"value":"1"}},"policy":"WaitGracePeriod"}     | ["spec.labels.x.colour"]
            preserve-unknown-fields keeps all    | {"domain":{},"extra":{"anything":[1],"known":{"a":"x","b":"y"}}}   | {"domain":{},"extra":{"anything":[1],"known":{"a":"x"}},"policy":"WaitGracePeriod"} | ["spec.extra.known.b"]
            embedded resources keep type meta    | {"domain":{},"template":{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","bogus":1},"spec":{"size":1,"colour":2}}} | {"domain":{},"template":{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"size":1}},"policy":"WaitGracePeriod"} | ["spec.template.metadata.bogus","spec.template.spec.colour"]
            nulls of non-nullable fields go      | {"domain":{},"running":null,"probe":null}                          | {"domain":{},"probe":null,"policy":"WaitGracePeriod"}                     | []
            a null takes the default             | {"domain":{},"policy":null}                                        | {"domain":{},"policy":"WaitGracePeriod"}                                 | []
            """)
    void prunesAndDefaults(String what, String sent, String kept, String unknown) throws Exception {
        ObjectNode object = resource(sent);

        StructuralSchema.Result result = SCHEMA.apply(object);

        assertThat(object.get("spec")).as(what).isEqualTo(JSON.readTree(kept));
        assertThat(result.unknownFields()).as(what).containsExactlyElementsOf(List.of(JSON.readValue(unknown, String[].class)));
        assertThat(result.errors()).as(what).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '~', textBlock = """
            # what                        | spec sent                                                | kube-apiserver's field error
            wrong type                    | {"domain":{},"running":"yes"}                            | spec.running: Invalid value: "string": spec.running in body must be of type boolean: "string"
            an object for a string        | {"domain":{},"name":{}}                                  | spec.name: Invalid value: "object": spec.name in body must be of type string: "object"
            a fraction for an integer     | {"domain":{},"replicas":1.5}                             | spec.replicas: Invalid value: "number": spec.replicas in body must be of type integer: "number"
            required                      | {}                                                       | spec.domain: Required value
            required in an array item     | {"domain":{"disks":[{}]}}                                | spec.domain.disks[0].name: Required value
            enum                          | {"domain":{},"runStrategy":"Sometimes"}                  | spec.runStrategy: Unsupported value: "Sometimes": supported values: "Always", "Halted"
            minimum                       | {"domain":{},"replicas":-1}                              | spec.replicas: Invalid value: -1: spec.replicas in body should be greater than or equal to 0
            maximum                       | {"domain":{},"replicas":11}                              | spec.replicas: Invalid value: 11: spec.replicas in body should be less than or equal to 10
            exclusive maximum             | {"domain":{},"ratio":1}                                  | spec.ratio: Invalid value: 1: spec.ratio in body should be less than 1
            int-or-string refuses a bool  | {"domain":{},"memory":true}                              | spec.memory: Invalid value: "boolean": spec.memory in body must be of type integer,string: "boolean"
            pattern                       | {"domain":{},"memory":"lots"}                            | spec.memory: Invalid value: "lots": spec.memory in body should match '^[0-9]+[MG]i$'
            minLength                     | {"domain":{},"name":"a"}                                 | spec.name: Invalid value: "a": spec.name in body should be at least 2 chars long
            maxLength                     | {"domain":{},"name":"abcdef"}                            | spec.name: Too long: may not be more than 5 bytes
            date-time                     | {"domain":{},"since":"yesterday"}                        | spec.since: Invalid value: "yesterday": spec.since in body must be of type date-time: "yesterday"
            maxItems                      | {"domain":{"disks":[{"name":"a"},{"name":"b"},{"name":"c"}]}} | spec.domain.disks: Too many: 3: must have at most 2 items
            embedded resource without kind | {"domain":{},"template":{"apiVersion":"v1"}}             | spec.template.kind: Required value
            embedded resource empty kind   | {"domain":{},"template":{"apiVersion":"v1","kind":""}}   | spec.template.kind: Invalid value: "": must not be empty
            embedded resource bad version  | {"domain":{},"template":{"apiVersion":"a/b/c","kind":"K"}} | spec.template.apiVersion: Invalid value: "a/b/c": unexpected GroupVersion string: a/b/c
            """)
    void validates(String what, String sent, String error) throws Exception {
        ObjectNode object = resource(sent);

        StructuralSchema.Result result = SCHEMA.apply(object);

        assertThat(result.errors()).as(what).extracting(FieldError::text).containsExactly(error);
    }

    @ParameterizedTest(name = "int-or-string accepts {0}")
    @CsvSource(delimiter = '|', quoteCharacter = '~', textBlock = """
            4
            "4Gi"
            """)
    void intOrStringAcceptsBoth(String memory) throws Exception {
        ObjectNode object = resource("{\"domain\":{},\"memory\":" + memory + "}");
        object.with("spec").put("name", "ok");
        StructuralSchema.Result result = SCHEMA.apply(object);
        assertThat(result.errors()).filteredOn(e -> e.field().equals("spec.memory") && e.detail().contains("type"))
                .isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '~', textBlock = """
            # what                                         | object sent                                                        | unknown fields
            the root keeps apiVersion, kind and metadata   | {"apiVersion":"x/v1","kind":"K","metadata":{"name":"a"},"spec":{"domain":{}}} | []
            unknown top-level fields go                    | {"apiVersion":"x/v1","kind":"K","spec":{"domain":{}},"sepc":{}}     | ["sepc"]
            unknown metadata fields go                     | {"apiVersion":"x/v1","kind":"K","metadata":{"name":"a","nmae":"b"},"spec":{"domain":{}}} | ["metadata.nmae"]
            """)
    void theRootIsAResource(String what, String sent, String unknown) throws Exception {
        ObjectNode object = (ObjectNode) JSON.readTree(sent);

        StructuralSchema.Result result = SCHEMA.apply(object);

        assertThat(result.unknownFields()).as(what).containsExactlyElementsOf(List.of(JSON.readValue(unknown, String[].class)));
        assertThat(object.has("sepc")).isFalse();
        assertThat(object.path("metadata").has("nmae")).isFalse();
        assertThat(object.path("apiVersion").asText()).isEqualTo("x/v1");
    }

    private static ObjectNode resource(String spec) throws Exception {
        ObjectNode object = JSON.createObjectNode().put("apiVersion", "x/v1").put("kind", "K");
        object.putObject("metadata").put("name", "a");
        object.set("spec", JSON.readTree(spec));
        return object;
    }

    private static JsonNode yaml(String text) {
        try {
            return new ObjectMapper(new YAMLFactory()).readTree(text);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
