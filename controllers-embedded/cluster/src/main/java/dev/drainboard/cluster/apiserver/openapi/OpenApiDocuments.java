package dev.drainboard.cluster.apiserver.openapi;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drainboard.cluster.apiserver.ResourceType;

import java.io.UncheckedIOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The OpenAPI v3 documents the API server serves under {@code /openapi/v3}, generated from the served
 * resource types. This class builds the documents and does no I/O.
 *
 * <p>What kubectl 1.32 needs from these documents (see {@code kubectl-notes.md}, section 2):
 * <ul>
 *   <li>{@code GET /openapi/v3} returns the {@link #index() index}
 *       {@code {"paths":{"api/v1":{"serverRelativeURL":"/openapi/v3/api/v1?hash=..."}}}}. kubectl then
 *       fetches the {@code serverRelativeURL} exactly as given, with {@code Accept: application/json}.</li>
 *   <li>Server-side field validation counts as supported for a GVK when some path in that group-version
 *       document has a {@code patch} operation with the operation-level extension
 *       {@code x-kubernetes-group-version-kind} equal to the GVK and an operation-level parameter named
 *       {@code fieldValidation}. kubectl then sends {@code fieldValidation=Strict} and skips client-side
 *       validation, so it never needs {@code /openapi/v2}.</li>
 *   <li>{@code kubectl explain} reads {@code components.schemas}. It finds a kind by the schema-level
 *       {@code x-kubernetes-group-version-kind}, which is a list of GVKs.</li>
 * </ul>
 * PATCH operations do not list {@code application/strategic-merge-patch+json} (see
 * {@link #PATCH_CONTENT_TYPES}). {@code /openapi/v2} is deliberately not generated. It should answer 404. On 404, client-side apply
 * falls back to its compiled-in types to compute strategic merge patches. A permissive v2 document
 * would instead feed it patch metadata without merge keys.
 *
 * <p>Built-in kinds get a permissive object schema ({@code x-kubernetes-preserve-unknown-fields}),
 * because the server itself, not this document, decides what is valid. Custom resources get their
 * CRD {@code openAPIV3Schema}, with {@code apiVersion}, {@code kind} and {@code metadata} added as
 * kube-apiserver does.
 *
 * <p>Instances are immutable. Build a new one whenever the set of resource types changes (e.g. a
 * CRD is created). Each document's hash is a digest of its bytes, so a changed document gets a
 * new URL and kubectl's HTTP cache can never serve a stale copy.
 */
public final class OpenApiDocuments {

    /** Prefix of every v3 URL. */
    public static final String V3_PREFIX = "/openapi/v3";
    /** Content type of the index and of every group-version document. */
    public static final String CONTENT_TYPE = "application/json";
    /** {@code info.version} of every document. */
    public static final String INFO_VERSION = "v1.32.0";

    static final String META = "io.k8s.apimachinery.pkg.apis.meta.v1.";
    static final String OBJECT_META = META + "ObjectMeta";
    static final String LIST_META = META + "ListMeta";
    static final String STATUS = META + "Status";
    static final String DELETE_OPTIONS = META + "DeleteOptions";
    static final String PATCH = META + "Patch";
    static final String WATCH_EVENT = META + "WatchEvent";

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    /**
     * Request content types listed on PATCH operations. {@code application/strategic-merge-patch+json}
     * is left out on purpose, although the server accepts it for built-in kinds. When a PATCH operation
     * lists it, kubectl 1.32's client-side apply computes the strategic merge patch from the v3
     * <em>schema</em> (kubectl/pkg/cmd/apply/patcher.go, {@code gvkSupportsPatchOpenAPIV3}). Our
     * permissive schemas carry no patch merge keys, so that either fails with a visible
     * {@code warning: error calculating patch from openapi v3 spec} or, for custom resources, sends a
     * strategic merge patch that kube-apiserver would reject. Without it, kubectl uses its compiled-in
     * types for built-in kinds and a JSON merge patch for custom resources, as against kube-apiserver.
     */
    static final List<String> PATCH_CONTENT_TYPES = List.of(
            "application/apply-patch+yaml", "application/json-patch+json", "application/merge-patch+json");

    /** One served group-version document. */
    public record Document(String key, ObjectNode json, byte[] bytes, String hash) {
        public Document {
            Objects.requireNonNull(key);
            json = json.deepCopy();
            bytes = bytes.clone();
        }

        /** The document, a copy (callers may not change the served bytes). */
        @Override
        public ObjectNode json() {
            return json.deepCopy();
        }

        @Override
        public byte[] bytes() {
            return bytes.clone();
        }

        /** {@code /openapi/v3/<key>?hash=<hash>}, as listed in the index. */
        public String serverRelativeUrl() {
            return V3_PREFIX + "/" + key + "?hash=" + hash;
        }

        /** Quoted entity tag for the {@code ETag} header. */
        public String etag() {
            return "\"" + hash + "\"";
        }

        /**
         * Whether a request's {@code hash} query parameter names this exact content, so that the
         * response may be marked {@code Cache-Control: public, immutable}. kube-apiserver redirects
         * a request that gives a different hash to {@link #serverRelativeUrl()}. A request without
         * a hash gets the current content, and should not be cached as immutable.
         */
        public boolean matchesHash(String requestedHash) {
            return hash.equals(requestedHash);
        }
    }

    private final Map<String, Document> documents;
    private final ObjectNode index;
    private final byte[] indexBytes;

    private OpenApiDocuments(Map<String, Document> documents) {
        this.documents = documents;
        ObjectNode paths = F.objectNode();
        documents.values().forEach(d -> paths.putObject(d.key()).put("serverRelativeURL", d.serverRelativeUrl()));
        ObjectNode root = F.objectNode();
        root.set("paths", paths);
        this.index = root;
        this.indexBytes = write(root);
    }

    /** Generates the documents for the given served types. The order of {@code types} does not matter. */
    public static OpenApiDocuments of(List<ResourceType> types) {
        Map<String, List<ResourceType>> byKey = new TreeMap<>();
        for (ResourceType t : types) {
            byKey.computeIfAbsent(keyOf(t.group(), t.version()), k -> new ArrayList<>()).add(t);
        }
        Map<String, Document> docs = new LinkedHashMap<>();
        byKey.forEach((key, list) -> {
            list.sort(Comparator.comparing(ResourceType::plural));
            ObjectNode json = groupVersionDocument(list);
            byte[] bytes = write(json);
            docs.put(key, new Document(key, json, bytes, sha512(bytes)));
        });
        return new OpenApiDocuments(docs);
    }

    /** Index key of a group-version: {@code api/v1} for the core group, else {@code apis/<group>/<version>}. */
    public static String keyOf(String group, String version) {
        return group.isEmpty() ? "api/" + version : "apis/" + group + "/" + version;
    }

    /** Body of {@code GET /openapi/v3}, a copy. */
    public ObjectNode index() {
        return index.deepCopy();
    }

    /** Serialized {@link #index()}. */
    public byte[] indexBytes() {
        return indexBytes.clone();
    }

    /** Index keys in index order, e.g. {@code api/v1}, {@code apis/apps/v1}. */
    public List<String> keys() {
        return List.copyOf(documents.keySet());
    }

    /** The document for an index key such as {@code apis/apps/v1}. */
    public Optional<Document> document(String key) {
        return Optional.ofNullable(documents.get(key));
    }

    /**
     * The document for a request path such as {@code /openapi/v3/apis/apps/v1} (query string not
     * included, trailing slash tolerated). Empty for {@code /openapi/v3} itself and for unknown paths.
     */
    public Optional<Document> documentForRequestPath(String requestPath) {
        if (requestPath == null || !requestPath.startsWith(V3_PREFIX + "/")) {
            return Optional.empty();
        }
        String key = requestPath.substring(V3_PREFIX.length() + 1);
        if (key.endsWith("/")) {
            key = key.substring(0, key.length() - 1);
        }
        return document(key);
    }

    // ---------------------------------------------------------------- document generation

    private static ObjectNode groupVersionDocument(List<ResourceType> types) {
        ObjectNode doc = F.objectNode();
        doc.put("openapi", "3.0.0");
        ObjectNode info = doc.putObject("info");
        info.put("title", "Kubernetes");
        info.put("version", INFO_VERSION);
        ObjectNode paths = doc.putObject("paths");
        ObjectNode schemas = F.objectNode();
        addMetaSchemas(schemas);
        for (ResourceType t : types) {
            addPaths(paths, schemas, t);
            schemas.set(schemaName(t.group(), t.version(), t.kind()), kindSchema(t));
            schemas.set(schemaName(t.group(), t.version(), t.listKind()), listSchema(t));
        }
        doc.putObject("components").set("schemas", sortedCopy(schemas));
        return doc;
    }

    /**
     * Schema component name. Built-in kinds follow kube-apiserver ({@code io.k8s.api.core.v1.Pod},
     * {@code io.k8s.api.apps.v1.Deployment}). Custom kinds use the reversed group
     * ({@code com.example.stable.v1.CronTab}), which is also kube-apiserver's convention. kubectl
     * matches kinds by the GVK extension, not by these names.
     */
    static String schemaName(String group, String version, String kind) {
        if (group.isEmpty()) {
            return "io.k8s.api.core." + version + "." + kind;
        }
        if (!group.contains(".") || group.endsWith(".k8s.io")) {
            return "io.k8s.api." + group.split("\\.")[0] + "." + version + "." + kind;
        }
        List<String> parts = new ArrayList<>(List.of(group.split("\\.")));
        Collections.reverse(parts);
        return String.join(".", parts) + "." + version + "." + kind;
    }

    private static String ref(String schemaName) {
        return "#/components/schemas/" + schemaName;
    }

    private static ObjectNode refSchema(String schemaName) {
        ObjectNode n = F.objectNode();
        // OpenAPI 3.0 ignores siblings of $ref, so kube-apiserver wraps refs in allOf.
        n.putArray("allOf").addObject().put("$ref", ref(schemaName));
        return n;
    }

    private static ObjectNode gvk(String group, String version, String kind) {
        ObjectNode n = F.objectNode();
        n.put("group", group);
        n.put("version", version);
        n.put("kind", kind);
        return n;
    }

    private static void addPaths(ObjectNode paths, ObjectNode schemas, ResourceType t) {
        String prefix = t.group().isEmpty() ? "/api/" + t.version() : "/apis/" + t.group() + "/" + t.version();
        String scope = t.namespaced() ? prefix + "/namespaces/{namespace}/" : prefix + "/";
        String collection = scope + t.plural();
        String item = collection + "/{name}";
        String kindRef = schemaName(t.group(), t.version(), t.kind());
        String listRef = schemaName(t.group(), t.version(), t.listKind());
        ObjectNode kindGvk = gvk(t.group(), t.version(), t.kind());
        String id = operationStem(t);

        ObjectNode coll = pathItem(paths, collection, t.namespaced(), false);
        coll.set("get", operation("list" + id, "list", kindGvk, listRef, null, listParameters()));
        coll.set("post", operation("create" + id, "post", kindGvk, kindRef, requestBody(kindRef), writeParameters(false)));
        coll.set("delete", operation("deletecollection" + id, "deletecollection", kindGvk, STATUS,
                requestBody(DELETE_OPTIONS), listParameters()));

        if (t.namespaced()) {
            // cluster-wide list (kubectl get -A, drain's pod list)
            ObjectNode all = pathItem(paths, prefix + "/" + t.plural(), false, false);
            all.set("get", operation("list" + id + "ForAllNamespaces", "list", kindGvk, listRef, null, listParameters()));
        }

        ObjectNode one = pathItem(paths, item, t.namespaced(), true);
        one.set("get", operation("read" + id, "get", kindGvk, kindRef, null, List.of()));
        one.set("put", operation("replace" + id, "put", kindGvk, kindRef, requestBody(kindRef), writeParameters(false)));
        one.set("patch", operation("patch" + id, "patch", kindGvk, kindRef, patchBody(), writeParameters(true)));
        one.set("delete", operation("delete" + id, "delete", kindGvk, STATUS, requestBody(DELETE_OPTIONS), deleteParameters()));

        for (String sub : t.subresources().stream().sorted().toList()) {
            String subPath = item + "/" + sub;
            String stem = id + capitalize(sub);
            switch (sub) {
                case "status" -> {
                    ObjectNode p = pathItem(paths, subPath, t.namespaced(), true);
                    p.set("get", operation("read" + stem, "get", kindGvk, kindRef, null, List.of()));
                    p.set("put", operation("replace" + stem, "put", kindGvk, kindRef, requestBody(kindRef), writeParameters(false)));
                    p.set("patch", operation("patch" + stem, "patch", kindGvk, kindRef, patchBody(), writeParameters(true)));
                }
                case "scale" -> {
                    String scaleRef = schemaName("autoscaling", "v1", "Scale");
                    ObjectNode scaleGvk = gvk("autoscaling", "v1", "Scale");
                    schemas.set(scaleRef, permissiveSchema("Scale represents a scaling request for a resource.", "autoscaling", "v1", "Scale"));
                    ObjectNode p = pathItem(paths, subPath, t.namespaced(), true);
                    p.set("get", operation("read" + stem, "get", scaleGvk, scaleRef, null, List.of()));
                    p.set("put", operation("replace" + stem, "put", scaleGvk, scaleRef, requestBody(scaleRef), writeParameters(false)));
                    p.set("patch", operation("patch" + stem, "patch", scaleGvk, scaleRef, patchBody(), writeParameters(true)));
                }
                case "eviction" -> {
                    String evictionRef = schemaName("policy", "v1", "Eviction");
                    schemas.set(evictionRef, permissiveSchema(
                            "Eviction evicts a pod from its node subject to certain policies and safety constraints.",
                            "policy", "v1", "Eviction"));
                    ObjectNode p = pathItem(paths, subPath, t.namespaced(), true);
                    p.set("post", operation("create" + stem, "post", gvk("policy", "v1", "Eviction"), evictionRef,
                            requestBody(evictionRef), writeParameters(false)));
                }
                case "binding" -> {
                    String bindingRef = schemaName("", "v1", "Binding");
                    schemas.set(bindingRef, permissiveSchema(
                            "Binding ties one object to another; for example, a pod is bound to a node by a scheduler.",
                            "", "v1", "Binding"));
                    ObjectNode p = pathItem(paths, subPath, t.namespaced(), true);
                    p.set("post", operation("create" + stem, "post", gvk("", "v1", "Binding"), bindingRef,
                            requestBody(bindingRef), writeParameters(false)));
                }
                default -> {
                    // Other subresources (log, exec, proxy, ...) carry no kubectl-relevant schema.
                }
            }
        }
    }

    private static String operationStem(ResourceType t) {
        String gv = t.group().isEmpty() ? "Core" : capitalize(t.group().split("\\.")[0]);
        return gv + capitalize(t.version()) + (t.namespaced() ? "Namespaced" : "") + t.kind();
    }

    private static String capitalize(String s) {
        return s.isEmpty() ? s : Character.toUpperCase(s.charAt(0)) + s.substring(1);
    }

    private static ObjectNode pathItem(ObjectNode paths, String path, boolean namespaced, boolean named) {
        ObjectNode item = paths.putObject(path);
        ArrayNode params = item.putArray("parameters");
        if (named) {
            params.add(param("name", "path", "name of the object", true));
        }
        if (namespaced) {
            params.add(param("namespace", "path", "object name and auth scope, such as for teams and projects", true));
        }
        params.add(param("pretty", "query", "If 'true', then the output is pretty printed.", false));
        return item;
    }

    private static ObjectNode param(String name, String in, String description, boolean required) {
        ObjectNode p = F.objectNode();
        p.put("name", name);
        p.put("in", in);
        p.put("description", description);
        if (required) {
            p.put("required", true);
        }
        p.putObject("schema").put("type", "string").put("uniqueItems", true);
        return p;
    }

    private static ObjectNode boolParam(String name, String description) {
        ObjectNode p = param(name, "query", description, false);
        p.putObject("schema").put("type", "boolean").put("uniqueItems", true);
        return p;
    }

    private static ObjectNode intParam(String name, String description) {
        ObjectNode p = param(name, "query", description, false);
        p.putObject("schema").put("type", "integer").put("uniqueItems", true);
        return p;
    }

    private static List<ObjectNode> writeParameters(boolean patch) {
        List<ObjectNode> ps = new ArrayList<>();
        ps.add(param("dryRun", "query", "When present, indicates that modifications should not be persisted. Valid value: All.", false));
        ps.add(param("fieldManager", "query", "Name associated with the actor or entity that is making these changes.", false));
        ps.add(param("fieldValidation", "query",
                "How the server treats unknown or duplicate fields: Ignore, Warn or Strict.", false));
        if (patch) {
            ps.add(boolParam("force", "Force apply requests to take ownership of conflicting fields. Only for apply patches."));
        }
        return ps;
    }

    private static List<ObjectNode> listParameters() {
        return List.of(
                boolParam("allowWatchBookmarks", "Requests watch events with type BOOKMARK."),
                param("continue", "query", "Continue token from a previous chunked list.", false),
                param("fieldSelector", "query", "Restricts the returned objects by their fields.", false),
                param("labelSelector", "query", "Restricts the returned objects by their labels.", false),
                intParam("limit", "Maximum number of objects to return in one chunk."),
                param("resourceVersion", "query", "Resource version constraint for the list or watch.", false),
                param("resourceVersionMatch", "query", "How resourceVersion is applied to list calls.", false),
                intParam("timeoutSeconds", "Timeout for the list or watch call."),
                boolParam("watch", "Watch for changes and return them as a stream of events."));
    }

    private static List<ObjectNode> deleteParameters() {
        return List.of(
                param("dryRun", "query", "When present, indicates that modifications should not be persisted. Valid value: All.", false),
                intParam("gracePeriodSeconds", "Duration in seconds before the object should be deleted."),
                param("propagationPolicy", "query", "Orphan, Background or Foreground.", false));
    }

    private static ObjectNode requestBody(String schemaName) {
        ObjectNode b = F.objectNode();
        b.putObject("content").putObject(CONTENT_TYPE).putObject("schema").put("$ref", ref(schemaName));
        b.put("required", true);
        return b;
    }

    private static ObjectNode patchBody() {
        ObjectNode b = F.objectNode();
        ObjectNode content = b.putObject("content");
        for (String ct : PATCH_CONTENT_TYPES) {
            content.putObject(ct).putObject("schema").put("$ref", ref(PATCH));
        }
        b.put("required", true);
        return b;
    }

    private static ObjectNode operation(String operationId, String action, ObjectNode gvk, String responseSchema,
                                        ObjectNode requestBody, List<ObjectNode> parameters) {
        ObjectNode op = F.objectNode();
        op.put("operationId", operationId);
        if (!parameters.isEmpty()) {
            ArrayNode ps = op.putArray("parameters");
            parameters.forEach(ps::add);
        }
        if (requestBody != null) {
            op.set("requestBody", requestBody);
        }
        ObjectNode responses = op.putObject("responses");
        ObjectNode ok = responses.putObject("200");
        ok.put("description", "OK");
        ok.putObject("content").putObject(CONTENT_TYPE).putObject("schema").put("$ref", ref(responseSchema));
        if (action.equals("post") || action.equals("put")) {
            ObjectNode created = responses.putObject("201");
            created.put("description", "Created");
            created.putObject("content").putObject(CONTENT_TYPE).putObject("schema").put("$ref", ref(responseSchema));
        }
        responses.putObject("401").put("description", "Unauthorized");
        op.put("x-kubernetes-action", action);
        op.set("x-kubernetes-group-version-kind", gvk.deepCopy());
        return op;
    }

    // ---------------------------------------------------------------- schemas

    private static ObjectNode gvkList(String group, String version, String kind) {
        ObjectNode s = F.objectNode();
        s.putArray("x-kubernetes-group-version-kind").add(gvk(group, version, kind));
        return s;
    }

    private static void addTypeMeta(ObjectNode properties) {
        properties.putObject("apiVersion").put("type", "string").put("description",
                "APIVersion defines the versioned schema of this representation of an object.");
        properties.putObject("kind").put("type", "string").put("description",
                "Kind is a string value representing the REST resource this object represents.");
    }

    private static ObjectNode permissiveSchema(String description, String group, String version, String kind) {
        ObjectNode s = F.objectNode();
        s.put("description", description);
        s.put("type", "object");
        ObjectNode props = s.putObject("properties");
        addTypeMeta(props);
        props.set("metadata", refSchema(OBJECT_META));
        s.put("x-kubernetes-preserve-unknown-fields", true);
        s.setAll(gvkList(group, version, kind));
        return s;
    }

    private static ObjectNode kindSchema(ResourceType t) {
        if (t.schema() != null && t.schema().isObject()) {
            ObjectNode s = ((ObjectNode) t.schema()).deepCopy();
            if (!s.has("type")) {
                s.put("type", "object");
            }
            ObjectNode props = s.has("properties") && s.get("properties").isObject()
                    ? (ObjectNode) s.get("properties") : s.putObject("properties");
            if (!props.has("apiVersion") || !props.has("kind")) {
                ObjectNode typeMeta = F.objectNode();
                addTypeMeta(typeMeta);
                typeMeta.properties().forEach(e -> {
                    if (!props.has(e.getKey())) {
                        props.set(e.getKey(), e.getValue());
                    }
                });
            }
            // A CRD schema may only constrain metadata.name/generateName; kube-apiserver publishes ObjectMeta.
            props.set("metadata", refSchema(OBJECT_META));
            s.setAll(gvkList(t.group(), t.version(), t.kind()));
            return s;
        }
        ObjectNode s = permissiveSchema(t.kind() + " (" + t.apiVersion() + ")."
                        + " Fields are validated by the server; this schema does not list them.",
                t.group(), t.version(), t.kind());
        ObjectNode props = (ObjectNode) s.get("properties");
        props.putObject("spec").put("type", "object").put("x-kubernetes-preserve-unknown-fields", true);
        props.putObject("status").put("type", "object").put("x-kubernetes-preserve-unknown-fields", true);
        return s;
    }

    private static ObjectNode listSchema(ResourceType t) {
        ObjectNode s = F.objectNode();
        s.put("description", t.listKind() + " is a list of " + t.kind() + ".");
        s.put("type", "object");
        s.putArray("required").add("items");
        ObjectNode props = s.putObject("properties");
        addTypeMeta(props);
        ObjectNode items = props.putObject("items");
        items.put("type", "array");
        items.putObject("items").set("allOf",
                F.arrayNode().add(F.objectNode().put("$ref", ref(schemaName(t.group(), t.version(), t.kind())))));
        props.set("metadata", refSchema(LIST_META));
        s.setAll(gvkList(t.group(), t.version(), t.listKind()));
        return s;
    }

    private static void addMetaSchemas(ObjectNode schemas) {
        ObjectNode om = F.objectNode();
        om.put("description", "ObjectMeta is metadata that all persisted resources must have.");
        om.put("type", "object");
        ObjectNode p = om.putObject("properties");
        for (String f : List.of("name", "generateName", "namespace", "uid", "resourceVersion", "creationTimestamp",
                "deletionTimestamp")) {
            p.putObject(f).put("type", "string");
        }
        p.putObject("generation").put("type", "integer").put("format", "int64");
        p.putObject("deletionGracePeriodSeconds").put("type", "integer").put("format", "int64");
        p.putObject("labels").put("type", "object").putObject("additionalProperties").put("type", "string");
        p.putObject("annotations").put("type", "object").putObject("additionalProperties").put("type", "string");
        ObjectNode finalizers = p.putObject("finalizers");
        finalizers.put("type", "array");
        finalizers.putObject("items").put("type", "string");
        ObjectNode owners = p.putObject("ownerReferences");
        owners.put("type", "array");
        owners.putObject("items").put("type", "object").put("x-kubernetes-preserve-unknown-fields", true);
        ObjectNode managed = p.putObject("managedFields");
        managed.put("type", "array");
        managed.putObject("items").put("type", "object").put("x-kubernetes-preserve-unknown-fields", true);
        schemas.set(OBJECT_META, om);

        ObjectNode lm = F.objectNode();
        lm.put("description", "ListMeta describes metadata that synthetic resources must have.");
        lm.put("type", "object");
        ObjectNode lp = lm.putObject("properties");
        lp.putObject("continue").put("type", "string");
        lp.putObject("remainingItemCount").put("type", "integer").put("format", "int64");
        lp.putObject("resourceVersion").put("type", "string");
        schemas.set(LIST_META, lm);

        ObjectNode status = F.objectNode();
        status.put("description", "Status is a return value for calls that don't return other objects.");
        status.put("type", "object");
        ObjectNode sp = status.putObject("properties");
        addTypeMeta(sp);
        sp.putObject("code").put("type", "integer").put("format", "int32");
        sp.putObject("details").put("type", "object").put("x-kubernetes-preserve-unknown-fields", true);
        sp.putObject("message").put("type", "string");
        sp.set("metadata", refSchema(LIST_META));
        sp.putObject("reason").put("type", "string");
        sp.putObject("status").put("type", "string");
        status.setAll(gvkList("", "v1", "Status"));
        schemas.set(STATUS, status);

        ObjectNode del = F.objectNode();
        del.put("description", "DeleteOptions may be provided when deleting an API object.");
        del.put("type", "object");
        ObjectNode dp = del.putObject("properties");
        addTypeMeta(dp);
        dp.putObject("dryRun").put("type", "array").putObject("items").put("type", "string");
        dp.putObject("gracePeriodSeconds").put("type", "integer").put("format", "int64");
        dp.putObject("preconditions").put("type", "object").put("x-kubernetes-preserve-unknown-fields", true);
        dp.putObject("propagationPolicy").put("type", "string");
        schemas.set(DELETE_OPTIONS, del);

        ObjectNode patch = F.objectNode();
        patch.put("description", "Patch is provided to give a concrete name and type to the Kubernetes PATCH request body.");
        patch.put("type", "object");
        schemas.set(PATCH, patch);
    }

    private static ObjectNode sortedCopy(ObjectNode node) {
        ObjectNode out = F.objectNode();
        new TreeMap<String, JsonNode>(toMap(node)).forEach(out::set);
        return out;
    }

    private static Map<String, JsonNode> toMap(ObjectNode node) {
        Map<String, JsonNode> m = new LinkedHashMap<>();
        node.properties().forEach(e -> m.put(e.getKey(), e.getValue()));
        return m;
    }

    // ---------------------------------------------------------------- bytes and hashes

    private static byte[] write(JsonNode node) {
        try {
            return MAPPER.writeValueAsBytes(node);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String sha512(byte[] bytes) {
        try {
            return HexFormat.of().withUpperCase().formatHex(MessageDigest.getInstance("SHA-512").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
