package dev.drainboard.cluster.apiserver.openapi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drainboard.cluster.apiserver.ResourceType;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class OpenApiDocumentsTest {

    static final ObjectMapper M = new ObjectMapper();

    static ResourceType builtin(String group, String plural, String singular, String kind, boolean namespaced,
                                String... subresources) {
        return new ResourceType(group, "v1", plural, singular, kind, namespaced, List.of(), List.of(),
                Set.of(subresources), null, null, null);
    }

    static final ResourceType PODS = builtin("", "pods", "pod", "Pod", true, "status", "eviction", "binding", "log");
    static final ResourceType NODES = builtin("", "nodes", "node", "Node", false, "status");
    static final ResourceType NAMESPACES = builtin("", "namespaces", "namespace", "Namespace", false, "status");
    static final ResourceType CONFIGMAPS = builtin("", "configmaps", "configmap", "ConfigMap", true);
    static final ResourceType DEPLOYMENTS = builtin("apps", "deployments", "deployment", "Deployment", true, "status", "scale");
    static final ResourceType PDBS = builtin("policy", "poddisruptionbudgets", "poddisruptionbudget", "PodDisruptionBudget", true, "status");

    static ResourceType crontab(String specType) throws Exception {
        JsonNode schema = M.readTree("""
                {"type":"object","properties":{"spec":{"type":"object","properties":{
                  "cronSpec":{"type":"%s"},"replicas":{"type":"integer"}}}}}""".formatted(specType));
        return new ResourceType("stable.example.com", "v1", "crontabs", "crontab", "CronTab", true, List.of("ct"),
                List.of("all"), Set.of("status", "scale"),
                new ResourceType.ScaleSpec(".spec.replicas", ".status.replicas", null), null, schema);
    }

    static List<ResourceType> all() throws Exception {
        return List.of(DEPLOYMENTS, PODS, NODES, CONFIGMAPS, NAMESPACES, PDBS, crontab("string"));
    }

    /**
     * Same decision as kubectl 1.32's queryParamVerifierV3 (cli-runtime): the first PATCH operation
     * whose operation-level GVK extension equals the GVK must list the parameter among its
     * operation-level parameters.
     */
    static boolean kubectlSeesFieldValidation(JsonNode doc, String group, String version, String kind) {
        for (Map.Entry<String, JsonNode> path : doc.get("paths").properties()) {
            JsonNode patch = path.getValue().get("patch");
            if (patch == null) {
                continue;
            }
            JsonNode gvk = patch.get("x-kubernetes-group-version-kind");
            if (gvk == null || !gvk.isObject() || !gvk.path("group").asText().equals(group)
                    || !gvk.path("version").asText().equals(version) || !gvk.path("kind").asText().equals(kind)) {
                continue;
            }
            for (JsonNode p : patch.path("parameters")) {
                if (p.path("name").asText().equals("fieldValidation")) {
                    return true;
                }
            }
            return false;
        }
        return false;
    }

    /** What kubectl explain does: the component schema whose GVK extension list contains the GVK. */
    static List<String> schemasFor(JsonNode doc, String group, String version, String kind) {
        List<String> names = new ArrayList<>();
        doc.get("components").get("schemas").properties().forEach(e -> {
            for (JsonNode g : e.getValue().path("x-kubernetes-group-version-kind")) {
                if (g.path("group").asText().equals(group) && g.path("version").asText().equals(version)
                        && g.path("kind").asText().equals(kind)) {
                    names.add(e.getKey());
                }
            }
        });
        return names;
    }

    @Test
    void indexListsOneEntryPerGroupVersionWithHashedServerRelativeUrl() throws Exception {
        OpenApiDocuments docs = OpenApiDocuments.of(all());
        JsonNode index = M.readTree(docs.indexBytes());

        assertThat(index.properties()).extracting(Map.Entry::getKey).containsExactly("paths");
        JsonNode paths = index.get("paths");
        assertThat(paths.properties()).extracting(Map.Entry::getKey)
                .containsExactly("api/v1", "apis/apps/v1", "apis/policy/v1", "apis/stable.example.com/v1");
        for (String key : docs.keys()) {
            OpenApiDocuments.Document d = docs.document(key).orElseThrow();
            assertThat(paths.get(key).get("serverRelativeURL").asText())
                    .isEqualTo("/openapi/v3/" + key + "?hash=" + d.hash())
                    .isEqualTo(d.serverRelativeUrl());
            assertThat(d.hash()).matches("[0-9A-F]{128}");
            assertThat(d.etag()).isEqualTo("\"" + d.hash() + "\"");
            assertThat(d.matchesHash(d.hash())).isTrue();
            assertThat(d.matchesHash("0")).isFalse();
            assertThat(M.readTree(d.bytes())).isEqualTo(d.json());
        }
        assertThat(docs.index()).isEqualTo(index);
    }

    @Test
    void groupVersionDocumentIsOpenApi3WithInfoPathsAndComponents() throws Exception {
        JsonNode doc = OpenApiDocuments.of(all()).document("api/v1").orElseThrow().json();
        assertThat(doc.get("openapi").asText()).isEqualTo("3.0.0");
        assertThat(doc.get("info").get("title").asText()).isEqualTo("Kubernetes");
        assertThat(doc.get("info").get("version").asText()).isEqualTo("v1.32.0");
        assertThat(doc.get("paths").properties()).extracting(Map.Entry::getKey).contains(
                "/api/v1/namespaces/{namespace}/pods",
                "/api/v1/namespaces/{namespace}/pods/{name}",
                "/api/v1/namespaces/{namespace}/pods/{name}/status",
                "/api/v1/namespaces/{namespace}/pods/{name}/eviction",
                "/api/v1/namespaces/{namespace}/pods/{name}/binding",
                "/api/v1/pods",
                "/api/v1/nodes",
                "/api/v1/nodes/{name}",
                "/api/v1/nodes/{name}/status",
                "/api/v1/namespaces",
                "/api/v1/namespaces/{name}",
                "/api/v1/namespaces/{namespace}/configmaps/{name}");
        // no paths for subresources without a schema, nor for other group-versions
        assertThat(doc.get("paths").properties()).extracting(Map.Entry::getKey)
                .noneMatch(p -> p.endsWith("/log") || p.startsWith("/apis/"));
        assertThat(doc.get("components").get("schemas").properties()).extracting(Map.Entry::getKey).contains(
                "io.k8s.api.core.v1.Pod", "io.k8s.api.core.v1.PodList", "io.k8s.api.core.v1.Node",
                "io.k8s.api.core.v1.ConfigMap", "io.k8s.api.policy.v1.Eviction", "io.k8s.api.core.v1.Binding",
                "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta", "io.k8s.apimachinery.pkg.apis.meta.v1.Status");
    }

    @Test
    void everyServedKindPassesKubectlsFieldValidationCheck() throws Exception {
        OpenApiDocuments docs = OpenApiDocuments.of(all());
        for (ResourceType t : all()) {
            JsonNode doc = docs.document(OpenApiDocuments.keyOf(t.group(), t.version())).orElseThrow().json();
            assertThat(kubectlSeesFieldValidation(doc, t.group(), t.version(), t.kind()))
                    .as("fieldValidation for %s", t.kind()).isTrue();
        }
        JsonNode apps = docs.document("apis/apps/v1").orElseThrow().json();
        assertThat(kubectlSeesFieldValidation(apps, "autoscaling", "v1", "Scale")).isTrue();
        // kubectl would not find a GVK that is not served
        assertThat(kubectlSeesFieldValidation(apps, "apps", "v1", "DaemonSet")).isFalse();
    }

    @Test
    void patchOperationCarriesOperationLevelParametersAndGvk() throws Exception {
        JsonNode doc = OpenApiDocuments.of(all()).document("apis/apps/v1").orElseThrow().json();
        JsonNode item = doc.get("paths").get("/apis/apps/v1/namespaces/{namespace}/deployments/{name}");
        assertThat(item.get("parameters")).extracting(p -> p.get("name").asText())
                .containsExactly("name", "namespace", "pretty");
        JsonNode patch = item.get("patch");
        assertThat(patch.get("x-kubernetes-action").asText()).isEqualTo("patch");
        assertThat(patch.get("x-kubernetes-group-version-kind"))
                .isEqualTo(M.readTree("{\"group\":\"apps\",\"version\":\"v1\",\"kind\":\"Deployment\"}"));
        assertThat(patch.get("parameters")).extracting(p -> p.get("name").asText())
                .containsExactly("dryRun", "fieldManager", "fieldValidation", "force");
        assertThat(patch.get("parameters").get(2).get("in").asText()).isEqualTo("query");
        assertThat(patch.get("requestBody").get("content").properties()).extracting(Map.Entry::getKey)
                .containsExactly("application/apply-patch+yaml", "application/json-patch+json",
                        "application/merge-patch+json");
        assertThat(patch.get("responses").get("200").get("content").get("application/json").get("schema").get("$ref").asText())
                .isEqualTo("#/components/schemas/io.k8s.api.apps.v1.Deployment");

        JsonNode post = doc.get("paths").get("/apis/apps/v1/namespaces/{namespace}/deployments").get("post");
        assertThat(post.get("parameters")).extracting(p -> p.get("name").asText())
                .containsExactly("dryRun", "fieldManager", "fieldValidation");
        JsonNode put = item.get("put");
        assertThat(put.get("parameters")).extracting(p -> p.get("name").asText()).contains("fieldValidation");

        JsonNode scalePatch = doc.get("paths").get("/apis/apps/v1/namespaces/{namespace}/deployments/{name}/scale").get("patch");
        assertThat(scalePatch.get("x-kubernetes-group-version-kind").get("kind").asText()).isEqualTo("Scale");
    }

    /**
     * Same decision as kubectl 1.32's Patcher.gvkSupportsPatchOpenAPIV3: the first PATCH operation for
     * the GVK must list application/strategic-merge-patch+json in its requestBody for kubectl to derive
     * the strategic merge patch from the (permissive) v3 schema.
     */
    static boolean kubectlDerivesSmpFromV3Schema(JsonNode doc, String group, String version, String kind) {
        for (Map.Entry<String, JsonNode> path : doc.get("paths").properties()) {
            JsonNode patch = path.getValue().get("patch");
            if (patch == null) {
                continue;
            }
            JsonNode gvk = patch.path("x-kubernetes-group-version-kind");
            if (gvk.path("group").asText().equals(group) && gvk.path("version").asText().equals(version)
                    && gvk.path("kind").asText().equals(kind)) {
                return patch.path("requestBody").path("content").has("application/strategic-merge-patch+json");
            }
        }
        return false;
    }

    @Test
    void kubectlNeverComputesStrategicMergePatchFromThePermissiveSchemas() throws Exception {
        OpenApiDocuments docs = OpenApiDocuments.of(all());
        for (ResourceType t : all()) {
            JsonNode doc = docs.document(OpenApiDocuments.keyOf(t.group(), t.version())).orElseThrow().json();
            assertThat(kubectlDerivesSmpFromV3Schema(doc, t.group(), t.version(), t.kind()))
                    .as("SMP from schema for %s", t.kind()).isFalse();
        }
    }

    @Test
    void clusterScopedKindsHaveNoNamespaceParameter() throws Exception {
        JsonNode doc = OpenApiDocuments.of(all()).document("api/v1").orElseThrow().json();
        JsonNode node = doc.get("paths").get("/api/v1/nodes/{name}");
        assertThat(node.get("parameters")).extracting(p -> p.get("name").asText()).containsExactly("name", "pretty");
        assertThat(doc.get("paths").has("/api/v1/namespaces/{namespace}/nodes/{name}")).isFalse();
    }

    @Test
    void evictionIsAPostWithPolicyV1Gvk() throws Exception {
        JsonNode doc = OpenApiDocuments.of(all()).document("api/v1").orElseThrow().json();
        JsonNode eviction = doc.get("paths").get("/api/v1/namespaces/{namespace}/pods/{name}/eviction");
        assertThat(eviction.has("patch")).isFalse();
        assertThat(eviction.get("post").get("x-kubernetes-group-version-kind"))
                .isEqualTo(M.readTree("{\"group\":\"policy\",\"version\":\"v1\",\"kind\":\"Eviction\"}"));
    }

    @Test
    void builtinSchemasArePermissiveObjectsWithGvkList() throws Exception {
        JsonNode doc = OpenApiDocuments.of(all()).document("api/v1").orElseThrow().json();
        assertThat(schemasFor(doc, "", "v1", "Pod")).containsExactly("io.k8s.api.core.v1.Pod");
        assertThat(schemasFor(doc, "", "v1", "PodList")).containsExactly("io.k8s.api.core.v1.PodList");
        JsonNode pod = doc.get("components").get("schemas").get("io.k8s.api.core.v1.Pod");
        assertThat(pod.get("type").asText()).isEqualTo("object");
        assertThat(pod.get("x-kubernetes-preserve-unknown-fields").asBoolean()).isTrue();
        assertThat(pod.get("x-kubernetes-group-version-kind").isArray()).isTrue();
        assertThat(pod.get("properties").properties()).extracting(Map.Entry::getKey)
                .containsExactly("apiVersion", "kind", "metadata", "spec", "status");
        assertThat(pod.get("properties").get("metadata").get("allOf").get(0).get("$ref").asText())
                .isEqualTo("#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta");
        JsonNode list = doc.get("components").get("schemas").get("io.k8s.api.core.v1.PodList");
        assertThat(list.get("properties").get("items").get("items").get("allOf").get(0).get("$ref").asText())
                .isEqualTo("#/components/schemas/io.k8s.api.core.v1.Pod");
    }

    @Test
    void everyLocalRefResolves() throws Exception {
        OpenApiDocuments docs = OpenApiDocuments.of(all());
        for (String key : docs.keys()) {
            JsonNode doc = docs.document(key).orElseThrow().json();
            JsonNode schemas = doc.get("components").get("schemas");
            List<String> refs = new ArrayList<>();
            collectRefs(doc, refs);
            assertThat(refs).isNotEmpty();
            for (String ref : refs) {
                assertThat(ref).startsWith("#/components/schemas/");
                assertThat(schemas.has(ref.substring("#/components/schemas/".length()))).as(ref).isTrue();
            }
        }
    }

    static void collectRefs(JsonNode n, List<String> out) {
        if (n.isObject()) {
            n.properties().forEach(e -> {
                if (e.getKey().equals("$ref")) {
                    out.add(e.getValue().asText());
                } else {
                    collectRefs(e.getValue(), out);
                }
            });
        } else if (n.isArray()) {
            n.forEach(c -> collectRefs(c, out));
        }
    }

    @Test
    void customResourceUsesItsSchemaPlusTypeMetaAndObjectMeta() throws Exception {
        ResourceType ct = crontab("string");
        JsonNode doc = OpenApiDocuments.of(List.of(ct)).document("apis/stable.example.com/v1").orElseThrow().json();
        assertThat(schemasFor(doc, "stable.example.com", "v1", "CronTab")).containsExactly("com.example.stable.v1.CronTab");
        JsonNode s = doc.get("components").get("schemas").get("com.example.stable.v1.CronTab");
        assertThat(s.get("properties").get("spec")).isEqualTo(ct.schema().get("properties").get("spec"));
        assertThat(s.get("properties").get("apiVersion").get("type").asText()).isEqualTo("string");
        assertThat(s.get("properties").get("kind").get("type").asText()).isEqualTo("string");
        assertThat(s.get("properties").get("metadata").get("allOf").get(0).get("$ref").asText())
                .endsWith("ObjectMeta");
        assertThat(s.has("x-kubernetes-preserve-unknown-fields")).isFalse();
        // the caller's schema is not modified
        assertThat(ct.schema().get("properties").has("apiVersion")).isFalse();
        assertThat(doc.get("paths").has("/apis/stable.example.com/v1/namespaces/{namespace}/crontabs/{name}/scale")).isTrue();
        assertThat(doc.get("paths").has("/apis/stable.example.com/v1/crontabs")).isTrue();
    }

    @Test
    void hashIsAContentDigestSoChangedSchemasGetNewUrls() throws Exception {
        OpenApiDocuments a = OpenApiDocuments.of(all());
        OpenApiDocuments b = OpenApiDocuments.of(all().reversed());
        assertThat(b.indexBytes()).isEqualTo(a.indexBytes());

        List<ResourceType> changed = new ArrayList<>(all());
        changed.set(changed.size() - 1, crontab("integer"));
        OpenApiDocuments c = OpenApiDocuments.of(changed);
        assertThat(c.document("apis/stable.example.com/v1").orElseThrow().hash())
                .isNotEqualTo(a.document("apis/stable.example.com/v1").orElseThrow().hash());
        assertThat(c.document("api/v1").orElseThrow().hash()).isEqualTo(a.document("api/v1").orElseThrow().hash());
    }

    @Test
    void requestPathLookup() throws Exception {
        OpenApiDocuments docs = OpenApiDocuments.of(all());
        assertThat(docs.documentForRequestPath("/openapi/v3/apis/apps/v1")).map(OpenApiDocuments.Document::key)
                .contains("apis/apps/v1");
        assertThat(docs.documentForRequestPath("/openapi/v3/api/v1/")).map(OpenApiDocuments.Document::key)
                .contains("api/v1");
        assertThat(docs.documentForRequestPath("/openapi/v3")).isEmpty();
        assertThat(docs.documentForRequestPath("/openapi/v3/apis/batch/v1")).isEmpty();
        assertThat(docs.documentForRequestPath("/openapi/v2")).isEmpty();
        assertThat(docs.documentForRequestPath(null)).isEmpty();
    }

    @Test
    void emptyTypeListGivesEmptyIndex() {
        OpenApiDocuments docs = OpenApiDocuments.of(List.of());
        assertThat(docs.keys()).isEmpty();
        assertThat(docs.index().toString()).isEqualTo("{\"paths\":{}}");
    }

    @Test
    void returnedDocumentsAreCopies() throws Exception {
        OpenApiDocuments docs = OpenApiDocuments.of(all());
        OpenApiDocuments.Document d = docs.document("api/v1").orElseThrow();
        ((ObjectNode) d.json()).put("openapi", "x");
        d.bytes()[0] = 0;
        docs.index().putObject("paths").removeAll();
        assertThat(docs.document("api/v1").orElseThrow().json().get("openapi").asText()).isEqualTo("3.0.0");
        assertThat(M.readTree(docs.document("api/v1").orElseThrow().bytes()).get("openapi").asText()).isEqualTo("3.0.0");
        assertThat(docs.index().get("paths").size()).isEqualTo(4);
    }

    /** Writes the documents to target/openapi-dump so they can be served to a real kubectl by hand. */
    @Test
    void dumpForManualKubectlCheck() throws Exception {
        OpenApiDocuments docs = OpenApiDocuments.of(all());
        Path dir = Path.of("target", "openapi-dump");
        Files.createDirectories(dir);
        Files.write(dir.resolve("index.json"), docs.indexBytes());
        for (String key : docs.keys()) {
            Files.write(dir.resolve(key.replace('/', '_') + ".json"), docs.document(key).orElseThrow().bytes());
        }
        assertThat(Files.list(dir)).hasSize(5);
    }
}
