package dev.drainboard.cluster.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drainboard.cluster.apiserver.admission.AdmissionAttributes;
import dev.drainboard.cluster.apiserver.admission.BuiltInAdmission;
import dev.drainboard.cluster.apiserver.admission.ValidatingWebhooks;
import dev.drainboard.cluster.apiserver.patch.PatchException;
import dev.drainboard.cluster.apiserver.patch.PatchSchemas;
import dev.drainboard.cluster.apiserver.patch.Patches;
import dev.drainboard.cluster.apiserver.select.FieldSelector;
import dev.drainboard.labels.LabelSelector;
import dev.drainboard.labels.SelectorException;
import dev.drainboard.cluster.apiserver.store.ListPage;
import dev.drainboard.cluster.apiserver.store.ObjectStore;
import dev.drainboard.cluster.apiserver.table.TableConverter;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The generic REST semantics of every resource: get, list, create, update, patch, delete and
 * deletecollection, with the subresources status and scale. Eviction, binding and watch live in
 * their own classes; this one stays about the common verbs.
 */
final class ResourceHandler {

    private final ObjectStore store;
    private final ValidatingWebhooks webhooks;
    private final ServerOptions options;
    private final ObjectValidators validators;
    private final CustomResourceSchemas schemas = new CustomResourceSchemas();
    private final List<BuiltInAdmission> builtInAdmission = new java.util.concurrent.CopyOnWriteArrayList<>();

    ResourceHandler(ObjectStore store, ValidatingWebhooks webhooks, ServerOptions options, ObjectValidators validators) {
        this.store = store;
        this.webhooks = webhooks;
        this.options = options;
        this.validators = validators;
    }

    // ---- reads ----

    ObjectNode get(ApiRequest request, ResourcePath path) {
        ObjectNode object = existing(path);
        if (path.subresource().equals("scale")) {
            return Scales.toScale(path.type(), object);
        }
        ObjectNode shown = inVersion(path.type(), object);
        if (request.wantsTable() && path.subresource().isEmpty()) {
            return table(request, path.type(), List.of(shown), Json.object());
        }
        return shown;
    }

    ObjectNode list(ApiRequest request, ResourcePath path) {
        Predicate<ObjectNode> filter = filter(request, path.type());
        long limit = parseLong(request.param("limit"), "limit");
        ListPage page = page(request, path, filter, limit);
        ObjectNode meta = Json.object();
        meta.put("resourceVersion", Long.toString(page.resourceVersion()));
        if (page.nextKey() != null) {
            meta.put("continue", ContinueTokens.encode(page.resourceVersion(), page.nextKey()));
            meta.put("remainingItemCount", page.remainingItemCount());
        }
        List<ObjectNode> items = page.items().stream().map(o -> inVersion(path.type(), o)).toList();
        if (request.wantsTable()) {
            return table(request, path.type(), items, meta);
        }
        ObjectNode list = Json.object();
        list.put("kind", path.type().listKind());
        list.put("apiVersion", path.type().apiVersion());
        list.set("metadata", meta);
        ArrayNode array = list.putArray("items");
        items.forEach(array::add);
        return list;
    }

    /** kube-apiserver's words for a list at a compacted resourceVersion (etcd3 store, storage/etcd3/store.go). */
    static final String LIST_EXPIRED = "The resourceVersion for the provided list is too old.";
    static final String CONTINUE_EXPIRED = "The provided continue parameter is too old to display a consistent list result."
            + " You can start a new list without the continue parameter, or use the continue token in this response to"
            + " retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list"
            + " - objects that were created, modified, or deleted between the time the first chunk was returned and now"
            + " may show up in the list.";

    /**
     * The page a list asks for, with kube-apiserver's resourceVersion semantics: a continue token goes on at its first
     * page's resourceVersion (410 Expired, with a token to go on at the current one, once that is compacted);
     * {@code resourceVersionMatch=Exact} lists the objects as they were (410 once compacted); otherwise, and for
     * {@code NotOlderThan}, the current objects, unless the resourceVersion is one the server has not reached (504).
     */
    private ListPage page(ApiRequest request, ResourcePath path, Predicate<ObjectNode> filter, long limit) {
        ResourceType type = stored(path.type());
        String token = request.param("continue");
        String rvParam = request.param("resourceVersion");
        String match = request.param("resourceVersionMatch");
        validateListOptions(rvParam, match, token);
        if (token != null && !token.isEmpty()) {
            ContinueTokens.Token continued = ContinueTokens.decode(token);
            if (continued.resourceVersion() < 0) {
                return store.list(type, path.namespace(), filter, limit, continued.key());
            }
            return store.listAt(type, path.namespace(), filter, limit, continued.key(), continued.resourceVersion())
                    .orElseThrow(() -> ApiException.expiredContinue(CONTINUE_EXPIRED, ContinueTokens.encode(-1, continued.key())));
        }
        if (rvParam == null || rvParam.isEmpty() || rvParam.equals("0")) {
            return store.list(type, path.namespace(), filter, limit, null);
        }
        long rv = parseResourceVersion(rvParam);
        long current = store.resourceVersion();
        if (rv > current) {
            throw ApiException.tooLargeResourceVersion(rv, current);
        }
        if ("Exact".equals(match)) {
            return store.listAt(type, path.namespace(), filter, limit, null, rv)
                    .orElseThrow(() -> ApiException.gone(LIST_EXPIRED));
        }
        return store.list(type, path.namespace(), filter, limit, null);
    }

    /** ValidateListOptions (apimachinery's apis/meta/internalversion/validation) for what lists use here. */
    private static void validateListOptions(String rv, String match, String token) {
        if (match == null || match.isEmpty()) {
            return;
        }
        List<dev.drainboard.validation.FieldError> errors = new java.util.ArrayList<>();
        if (rv == null || rv.isEmpty()) {
            errors.add(dev.drainboard.validation.FieldError.forbidden("resourceVersionMatch",
                    "resourceVersionMatch is forbidden unless resourceVersion is provided"));
        }
        if (token != null && !token.isEmpty()) {
            errors.add(dev.drainboard.validation.FieldError.forbidden("resourceVersionMatch",
                    "resourceVersionMatch is forbidden when continue is provided"));
        }
        if (!match.equals("Exact") && !match.equals("NotOlderThan")) {
            errors.add(dev.drainboard.validation.FieldError.notSupported("resourceVersionMatch", match,
                    List.of("Exact", "NotOlderThan", "")));
        }
        if (match.equals("Exact") && "0".equals(rv)) {
            errors.add(dev.drainboard.validation.FieldError.forbidden("resourceVersionMatch",
                    "resourceVersionMatch \"exact\" is forbidden for resourceVersion \"0\""));
        }
        if (!errors.isEmpty()) {
            throw ApiException.invalidFields(LIST_OPTIONS, "", errors);
        }
    }

    /** Only there to name ListOptions.meta.k8s.io in a 422. */
    private static final ResourceType LIST_OPTIONS = new ResourceType("meta.k8s.io", "v1", "listoptions", "listoptions",
            "ListOptions", false, List.of(), List.of(), Set.of(), null, null, null);

    private static long parseResourceVersion(String value) {
        try {
            long rv = Long.parseLong(value);
            if (rv < 0) {
                throw new NumberFormatException();
            }
            return rv;
        } catch (NumberFormatException e) {
            throw ApiException.badRequest("invalid resource version: " + value);
        }
    }

    ObjectNode table(ApiRequest request, ResourceType type, List<ObjectNode> objects, ObjectNode listMeta) {
        String include = request.param("includeObject");
        return TableConverter.toTable(type.group(), type.plural(), type.printerColumns(), objects,
                include == null ? "Metadata" : include, listMeta, Instant.now(store.clock()));
    }

    Predicate<ObjectNode> filter(ApiRequest request, ResourceType type) {
        try {
            String labels = request.param("labelSelector");
            String fields = request.param("fieldSelector");
            LabelSelector labelSelector = LabelSelector.parse(labels == null ? "" : labels);
            FieldSelector fieldSelector = FieldSelector.parse(fields == null ? "" : fields)
                    .validateFor(type.group(), type.plural(), Set.of());
            if (labelSelector.isEverything() && (fields == null || fields.isEmpty())) {
                return o -> true;
            }
            ResourceType storage = stored(type);
            return o -> labelSelector.matchesObject(o) && fieldSelector.matches(storage.group(), storage.plural(), o);
        } catch (SelectorException e) {
            throw ApiException.badRequest(e.getMessage());
        }
    }

    // ---- create ----

    ObjectNode create(ApiRequest request, ResourcePath path) {
        ResourceType type = path.type();
        if (!path.isCollection()) {
            throw ApiException.methodNotAllowed("the server does not allow this method on the requested resource");
        }
        ObjectNode object = RequestBodies.object(request);
        checkKind(type, object);
        ObjectNode meta = Json.metadata(object);
        if (type.namespaced()) {
            String bodyNamespace = Json.text(meta, "namespace");
            if (!bodyNamespace.isEmpty() && !bodyNamespace.equals(path.namespace())) {
                throw ApiException.badRequest("the namespace of the provided object does not match the namespace sent on the request");
            }
            meta.put("namespace", path.namespace());
            requireLiveNamespace(type, path.namespace(), Json.name(object));
        } else {
            meta.remove("namespace");
        }
        Strategies.prepareForCreate(type, object, Instant.now(store.clock()));
        Strategies.dropEmptyMetadata(object);
        generateName(type, object);
        checkSchema(type, object, request);
        AdmissionAttributes attributes = attributes("CREATE", type, "", path.namespace(), Json.name(object), object, null, request.dryRun());
        builtInAdmission.forEach(a -> a.mutate(attributes));
        Validation.create(type, object);
        validators.check(type, object);
        builtInAdmission.forEach(a -> a.validate(attributes));
        admit("CREATE", type, "", path.namespace(), Json.name(object), object, null, request.dryRun());
        ObjectNode created = store.create(stored(type), toStored(type, object), request.dryRun(), false);
        return inVersion(type, created);
    }

    /**
     * Names an object that asks for a generated name before it is validated, as kube-apiserver's BeforeCreate does, so
     * that a bad generateName is reported with the name it gave.
     */
    void generateName(ResourceType type, ObjectNode object) {
        ObjectNode meta = Json.metadata(object);
        String prefix = Json.text(meta, "generateName");
        if (Json.text(meta, "name").isEmpty() && !prefix.isEmpty()) {
            meta.put("name", store.generateName(stored(type), Json.text(meta, "namespace"), prefix));
        }
    }

    private void requireLiveNamespace(ResourceType type, String namespace, String name) {
        ObjectNode ns = store.get(BuiltinResources.NAMESPACES, null, namespace);
        if (ns == null) {
            throw ApiException.notFound(BuiltinResources.NAMESPACES, namespace);
        }
        if (ns.path("metadata").has("deletionTimestamp")) {
            throw ApiException.forbidden(type, name,
                    "unable to create new content in namespace " + namespace + " because it is being terminated");
        }
    }

    private static void checkKind(ResourceType type, ObjectNode object) {
        String kind = Json.text(object, "kind");
        if (!kind.isEmpty() && !kind.equals(type.kind())) {
            throw ApiException.badRequest("the API version in the data (" + Json.text(object, "apiVersion")
                    + ") does not match the expected API version (" + type.apiVersion() + ")");
        }
    }

    // ---- update and patch ----

    ObjectNode update(ApiRequest request, ResourcePath path) {
        ResourceType type = path.type();
        ObjectNode body = RequestBodies.object(request);
        if (path.subresource().equals("scale")) {
            return Scales.toScale(type, writeScale(request, path, body.path("spec").path("replicas"), Json.text(body, "metadata", "resourceVersion")));
        }
        checkKind(type, body);
        String bodyName = Json.name(body);
        if (!bodyName.isEmpty() && !bodyName.equals(path.name())) {
            throw ApiException.badRequest("the name of the object (" + bodyName + ") does not match the name on the URL (" + path.name() + ")");
        }
        String expectedRv = Json.text(body, "metadata", "resourceVersion");
        return write(request, path, current -> {
            requireVersion(type, path.name(), current, expectedRv);
            return merge(type, path.subresource(), current, toStored(type, body.deepCopy()));
        });
    }

    ObjectNode patch(ApiRequest request, ResourcePath path) {
        ResourceType type = path.type();
        String mediaType = RequestBodies.mediaType(request.contentType());
        JsonNode patch = RequestBodies.tree(request, mediaType);
        if (mediaType.equals("application/apply-patch+yaml") && store.get(type, path.namespace(), path.name()) == null
                && path.subresource().isEmpty()) {
            return applyCreate(request, path, patch);
        }
        if (path.subresource().equals("scale")) {
            ObjectNode scale = Scales.toScale(type, existing(path));
            ObjectNode patched = applyPatch(type, mediaType, scale, patch, path.name());
            return Scales.toScale(type, writeScale(request, path, patched.path("spec").path("replicas"), Json.text(patched, "metadata", "resourceVersion")));
        }
        return write(request, path, current -> {
            ObjectNode patched = toStored(type, applyPatch(type, mediaType, inVersion(type, current), patch, path.name()));
            requireVersion(type, path.name(), current, Json.text(patched, "metadata", "resourceVersion"));
            return merge(type, path.subresource(), current, patched);
        });
    }

    private ObjectNode applyCreate(ApiRequest request, ResourcePath path, JsonNode applied) {
        if (!(applied instanceof ObjectNode object)) {
            throw ApiException.badRequest("the body of the request must be an object");
        }
        ObjectNode meta = Json.metadata(object);
        meta.put("name", path.name());
        ApiRequest asCreate = new ApiRequest("POST", request.path(), request.query(), request.accept(), "application/json", Json.bytes(object));
        return create(asCreate, new ResourcePath(path.type(), path.namespace(), "", ""));
    }

    private ObjectNode applyPatch(ResourceType type, String mediaType, ObjectNode current, JsonNode patch, String name) {
        try {
            return switch (mediaType) {
                case "application/json-patch+json" -> Patches.applyJsonPatch(current, patch);
                case "application/merge-patch+json" -> Patches.applyMergePatch(current, patch);
                case "application/strategic-merge-patch+json" -> {
                    if (type.isCustom()) {
                        throw new ApiException(415, "UnsupportedMediaType",
                                "the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml", null);
                    }
                    yield Patches.applyStrategicMergePatch(current, patch, PatchSchemas.forKind(type.apiVersion(), type.kind()));
                }
                case "application/apply-patch+yaml" -> {
                    if (!(patch instanceof ObjectNode applied)) {
                        throw ApiException.badRequest("the body of the request must be an object");
                    }
                    yield Patches.applyServerSideApply(current, applied, PatchSchemas.forKind(type.apiVersion(), type.kind()));
                }
                default -> throw new ApiException(415, "UnsupportedMediaType",
                        "the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml, application/strategic-merge-patch+json", null);
            };
        } catch (PatchException e) {
            throw new ApiException(e.code(), e.reason(), e.getMessage(), null);
        }
    }

    /** Spec and status follow the subresource rules: the main resource cannot change status and vice versa. */
    private static ObjectNode merge(ResourceType type, String subresource, ObjectNode current, ObjectNode desired) {
        if (subresource.equals("status")) {
            ObjectNode result = current.deepCopy();
            JsonNode status = desired.get("status");
            if (status == null) {
                result.remove("status");
            } else {
                result.set("status", status);
            }
            return result;
        }
        if (!subresource.isEmpty()) {
            throw ApiException.pathNotFound();
        }
        if (type.hasSubresource("status")) {
            JsonNode status = current.get("status");
            if (status == null) {
                desired.remove("status");
            } else {
                desired.set("status", status);
            }
        }
        return desired;
    }

    private ObjectNode writeScale(ApiRequest request, ResourcePath path, JsonNode replicas, String expectedRv) {
        if (!replicas.canConvertToInt() || !replicas.isIntegralNumber()) {
            throw ApiException.invalid(path.type(), path.name(), "spec.replicas", "Invalid value: " + replicas + ": must be an integer");
        }
        if (replicas.asInt() < 0) {
            throw ApiException.invalid(path.type(), path.name(), "spec.replicas", "Invalid value: " + replicas.asInt() + ": must be greater than or equal to 0");
        }
        ResourcePath main = new ResourcePath(path.type(), path.namespace(), path.name(), "");
        return write(request, main, current -> {
            requireVersion(path.type(), path.name(), current, expectedRv);
            return Scales.withReplicas(path.type(), current, replicas.asInt());
        });
    }

    /** The shared tail of update and patch: admission on the result, then the store's read-modify-write. */
    private ObjectNode write(ApiRequest request, ResourcePath path, ObjectStore.Mutation mutation) {
        ResourceType type = path.type();
        ObjectNode current = existing(path);
        ObjectStore.Mutation normalised = object -> {
            ObjectNode before = WorkloadDefaults.handles(type) ? object.deepCopy() : null;
            ObjectNode updated = mutation.apply(object);
            checkSchema(type, updated, request);
            return Strategies.dropEmptyMetadata(WorkloadDefaults.prepareForUpdate(type, before, updated));
        };
        ObjectNode preview = normalised.apply(current.deepCopy());
        if (!path.subresource().equals("status")) {
            Validation.update(type, preview, current);
            validators.check(type, preview);
            if (path.subresource().isEmpty()) {
                AdmissionAttributes attributes = attributes("UPDATE", type, "", path.namespace(), path.name(), preview, current, request.dryRun());
                builtInAdmission.forEach(a -> a.validate(attributes));
            }
        }
        admit("UPDATE", type, path.subresource(), path.namespace(), path.name(), preview, current, request.dryRun());
        return inVersion(type, store.update(stored(type), path.namespace(), path.name(), normalised, request.dryRun()));
    }

    private static void requireVersion(ResourceType type, String name, ObjectNode current, String expected) {
        if (expected != null && !expected.isEmpty() && !expected.equals(Json.text(current, "metadata", "resourceVersion"))) {
            throw ApiException.staleObject(type, name);
        }
    }

    // ---- delete ----

    ObjectNode delete(ApiRequest request, ResourcePath path) {
        ResourceType type = path.type();
        if (!path.subresource().isEmpty()) {
            throw ApiException.methodNotAllowed("the server does not allow this method on the requested resource");
        }
        DeleteOptions opts = DeleteOptions.from(request);
        if (type == BuiltinResources.NAMESPACES && Set.of("default", "kube-system", "kube-public").contains(path.name())) {
            throw ApiException.forbidden(type, path.name(), "this namespace may not be deleted");
        }
        ObjectNode current = existing(path);
        admit("DELETE", type, "", path.namespace(), path.name(), null, current, opts.dryRun());
        return deleteObject(type, path.namespace(), path.name(), opts);
    }

    /** Deletes one object following finalizers, graceful pod termination and the propagation policy. */
    ObjectNode deleteObject(ResourceType type, String namespace, String name, DeleteOptions opts) {
        Instant now = Instant.now(store.clock());
        ObjectNode result = store.update(stored(type), namespace, name, current -> {
            opts.checkPreconditions(type, name, current);
            ObjectNode meta = Json.metadata(current);
            long grace = gracePeriod(type, current, opts);
            if (meta.has("deletionTimestamp")) {
                // Already terminating: a shorter grace period may still hurry it along.
                long left = meta.path("deletionGracePeriodSeconds").asLong(0);
                if (grace < left) {
                    meta.put("deletionGracePeriodSeconds", grace);
                }
                return current;
            }
            String propagation = opts.propagationPolicy();
            if (propagation.equals("Foreground")) {
                addFinalizer(meta, "foregroundDeletion");
            } else if (propagation.equals("Orphan")) {
                addFinalizer(meta, "orphan");
            }
            meta.put("deletionTimestamp", Json.timestamp(now.plusSeconds(grace)));
            meta.put("deletionGracePeriodSeconds", grace);
            if (type == BuiltinResources.NAMESPACES) {
                current.with("status").put("phase", "Terminating");
            }
            return current;
        }, opts.dryRun());
        return inVersion(type, result);
    }

    private long gracePeriod(ResourceType type, ObjectNode object, DeleteOptions opts) {
        if (type != BuiltinResources.PODS) {
            return 0;
        }
        String phase = Json.text(object, "status", "phase");
        boolean unscheduled = Json.text(object, "spec", "nodeName").isEmpty();
        if (!options.gracefulPodDeletion() || unscheduled || phase.equals("Succeeded") || phase.equals("Failed")) {
            return 0;
        }
        if (opts.gracePeriodSeconds() != null) {
            return Math.max(0, opts.gracePeriodSeconds());
        }
        return object.path("spec").path("terminationGracePeriodSeconds").asLong(30);
    }

    private static void addFinalizer(ObjectNode meta, String finalizer) {
        ArrayNode finalizers = meta.withArray("finalizers");
        for (JsonNode f : finalizers) {
            if (f.asText().equals(finalizer)) {
                return;
            }
        }
        finalizers.add(finalizer);
    }

    ObjectNode deleteCollection(ApiRequest request, ResourcePath path) {
        ResourceType type = path.type();
        Predicate<ObjectNode> filter = filter(request, type);
        DeleteOptions opts = DeleteOptions.from(request);
        List<ObjectNode> victims = store.list(stored(type), path.namespace(), filter);
        ObjectNode list = Json.object();
        list.put("kind", type.listKind());
        list.put("apiVersion", type.apiVersion());
        list.putObject("metadata").put("resourceVersion", Long.toString(store.resourceVersion()));
        ArrayNode items = list.putArray("items");
        for (ObjectNode victim : victims) {
            try {
                admit("DELETE", type, "", Json.namespace(victim), Json.name(victim), null, victim, opts.dryRun());
                items.add(deleteObject(type, Json.namespace(victim), Json.name(victim), opts));
            } catch (ApiException e) {
                if (e.code() != 404) {
                    throw e;
                }
            }
        }
        return list;
    }

    // ---- helpers ----

    /**
     * The structural schema of a custom resource on a body about to be stored: pruning, fieldValidation, defaults,
     * validation ({@link CustomResourceSchemas}). The one place the request path applies CRD schemas.
     */
    /** See {@link ApiServer#setFieldsByRelease}. */
    volatile java.util.function.Function<ResourceType, List<String>> fieldsByRelease;

    void checkSchema(ResourceType type, ObjectNode object, ApiRequest request) {
        CustomResourceSchemas.Source source = request == null ? CustomResourceSchemas.Source.LOAD
                : request.method().equals("PATCH") ? CustomResourceSchemas.Source.PATCH
                : CustomResourceSchemas.Source.CREATE_OR_UPDATE;
        List<String> absent = fieldsByRelease == null || source == CustomResourceSchemas.Source.LOAD ? List.of()
                : fieldsByRelease.apply(type);
        schemas.apply(type, object, request == null ? null : request.param("fieldValidation"), source, absent);
    }

    ObjectNode existing(ResourcePath path) {
        ObjectNode object = store.get(stored(path.type()), path.namespace(), path.name());
        if (object == null) {
            throw ApiException.notFound(path.type(), path.name());
        }
        return object;
    }

    /** Adds admission run in-process on every create and main-resource update (see {@link BuiltInAdmission}). */
    void addBuiltInAdmission(BuiltInAdmission admission) {
        builtInAdmission.add(admission);
    }

    /** A scenario object on its way into the store: mutated, and validated as already admitted once. */
    void admitLoaded(ResourceType type, ObjectNode object, Runnable validation) {
        AdmissionAttributes attributes = attributes("CREATE", type, "", Json.namespace(object), Json.name(object), object, null, false);
        builtInAdmission.forEach(a -> a.mutate(attributes));
        validation.run();
        builtInAdmission.forEach(a -> a.validateLoaded(attributes));
    }

    private static AdmissionAttributes attributes(String operation, ResourceType type, String subresource, String namespace,
                                                  String name, ObjectNode object, ObjectNode oldObject, boolean dryRun) {
        return new AdmissionAttributes(operation, type, subresource, namespace, name, object, oldObject,
                type.group(), type.version(), type.kind(), dryRun);
    }

    void admit(String operation, ResourceType type, String subresource, String namespace, String name,
               ObjectNode object, ObjectNode oldObject, boolean dryRun) {
        if (type == BuiltinResources.VALIDATING_WEBHOOK_CONFIGURATIONS || type == BuiltinResources.MUTATING_WEBHOOK_CONFIGURATIONS) {
            return; // as kube-apiserver: webhooks never intercept their own configuration
        }
        webhooks.admit(new AdmissionAttributes(operation, type, subresource, namespace, name, object, oldObject,
                type.group(), type.version(), type.kind(), dryRun));
    }

    /** The resource whose storage holds a type's objects: events.k8s.io/v1 events are core events. */
    static ResourceType stored(ResourceType type) {
        return type == BuiltinResources.EVENTS_V1 ? BuiltinResources.EVENTS : type;
    }

    /** A request body in the stored form. */
    private static ObjectNode toStored(ResourceType type, ObjectNode object) {
        return type == BuiltinResources.EVENTS_V1 ? EventConversion.toCore(object) : object;
    }

    /** Objects are shown in the version (and for events, the API group) that was asked for. */
    static ObjectNode inVersion(ResourceType type, ObjectNode object) {
        if (type == BuiltinResources.EVENTS_V1) {
            return EventConversion.toV1(object);
        }
        if (type.apiVersion().equals(Json.text(object, "apiVersion"))) {
            return object;
        }
        ObjectNode copy = object.deepCopy();
        copy.put("apiVersion", type.apiVersion());
        return copy;
    }

    private static long parseLong(String value, String name) {
        if (value == null || value.isEmpty()) {
            return 0;
        }
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw ApiException.badRequest("invalid " + name + ": " + value);
        }
    }

    /**
     * Continue tokens as kube-apiserver makes them (storage.EncodeContinue): base64 of
     * {@code {"v":"meta.k8s.io/v1","rv":N,"start":KEY}}; {@code rv} -1 goes on at the current resourceVersion.
     */
    static final class ContinueTokens {
        private ContinueTokens() {
        }

        record Token(long resourceVersion, String key) {
        }

        static String encode(long rv, String key) {
            ObjectNode token = Json.object().put("v", "meta.k8s.io/v1").put("rv", rv).put("start", key);
            return Base64.getUrlEncoder().withoutPadding().encodeToString(Json.bytes(token));
        }

        static Token decode(String token) {
            try {
                JsonNode node = Json.MAPPER.readTree(new String(Base64.getUrlDecoder().decode(token), StandardCharsets.UTF_8));
                String start = node.path("start").asText(null);
                if (start == null) {
                    throw ApiException.badRequest("continue key is not valid: missing start");
                }
                if (!node.path("rv").canConvertToLong() || node.path("rv").asLong() == 0) {
                    throw ApiException.badRequest("continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)");
                }
                return new Token(node.path("rv").asLong(), start);
            } catch (IllegalArgumentException | java.io.IOException e) {
                throw ApiException.badRequest("continue key is not valid: " + e.getMessage());
            }
        }
    }
}
