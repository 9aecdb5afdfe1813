package dev.drainboard.cluster.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drainboard.cluster.apiserver.admission.ValidatingWebhooks;
import dev.drainboard.cluster.apiserver.openapi.OpenApiDocuments;
import dev.drainboard.cluster.apiserver.store.ObjectStore;
import dev.drainboard.cluster.apiserver.store.WatchEvent;
import dev.drainboard.cluster.apiserver.rbac.UserInfo;
import dev.drainboard.cluster.apiserver.store.WatchSink;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

/**
 * The API server's request dispatch, independent of the HTTP library: discovery, OpenAPI, and the
 * REST verbs of every served resource. Serving CRDs follows the store, so a CRD is served as soon as
 * it is stored and its objects go when it goes.
 */
public final class ApiServer implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ApiServer.class);

    private final ObjectStore store;
    private final ResourceRegistry registry;
    private final Discovery discovery;
    private final ResourceHandler resources;
    private final EvictionHandler evictions;
    private final WatchHandler watches;
    private final ValidatingWebhooks webhooks;
    private final ServerOptions options;
    private final ObjectValidators validators = new ObjectValidators();
    private final Authorization authorization;
    private final RequestCounts requestCounts = new RequestCounts();
    private final ScheduledExecutorService timers = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "apiserver-timers");
        t.setDaemon(true);
        return t;
    });
    private volatile String serverAddress = "127.0.0.1:443";
    private OpenApiDocuments openApi;
    private long openApiGeneration = -1;

    public ApiServer(ObjectStore store, ResourceRegistry registry, ServerOptions options) {
        this.store = store;
        this.registry = registry;
        this.options = options;
        this.webhooks = new ValidatingWebhooks(store, AdminUser.NAME);
        this.discovery = new Discovery(registry);
        this.authorization = new Authorization(store);
        RbacValidation.register(validators);
        this.resources = new ResourceHandler(store, webhooks, options, validators);
        resources.addBuiltInAdmission(authorization.noEscalation);
        this.evictions = new EvictionHandler(store, webhooks, resources);
        this.watches = new WatchHandler(store, resources, timers);
        store.watch(BuiltinResources.CUSTOM_RESOURCE_DEFINITIONS, "", o -> true, null, new CrdFollower());
        long interval = options.bookmarkIntervalMillis();
        timers.scheduleAtFixedRate(store::bookmarkAll, interval, interval, java.util.concurrent.TimeUnit.MILLISECONDS);
    }

    public ObjectStore store() {
        return store;
    }

    public ResourceRegistry registry() {
        return registry;
    }

    public ServerOptions options() {
        return options;
    }

    /** Requests answered so far, by verb and resource (resource requests only). */
    public RequestCounts requestCounts() {
        return requestCounts;
    }

    /**
     * Checks every create and update (not status writes) of a resource, e.g. {@code
     * virtualmachineinstancereplicasets.kubevirt.io}; scenario objects too. A violation is 422 Invalid.
     */
    public void addValidator(String groupResource, ObjectValidator validator) {
        validators.add(groupResource, validator);
    }

    /**
     * Admission run in-process on every create and main-resource update, scenario objects too: mutation before
     * validation, validation before the validating webhooks (see {@link dev.drainboard.cluster.apiserver.admission.BuiltInAdmission}).
     */
    public void addAdmission(dev.drainboard.cluster.apiserver.admission.BuiltInAdmission admission) {
        resources.addBuiltInAdmission(admission);
    }

    /** The client certificate this API server presents to the admission webhooks it calls. */
    public void presentWebhookClientCertificate(dev.drainboard.pki.IssuedCertificate certificate) {
        webhooks.presentClientCertificate(certificate);
    }

    public void setServerAddress(String hostPort) {
        this.serverAddress = hostPort;
    }

    /**
     * Stores an object the way a scenario brings it: uid, creationTimestamp and any status it
     * carries are kept (a copy of a real cluster stays consistent), defaults are filled in, the
     * namespace is created if missing. Throws {@link ApiException} for anything the API would refuse.
     */
    public ObjectNode load(ObjectNode object) {
        String apiVersion = Json.text(object, "apiVersion");
        String kind = Json.text(object, "kind");
        if (apiVersion.isEmpty() || kind.isEmpty()) {
            throw ApiException.badRequest("apiVersion and kind are required");
        }
        ResourceType type = registry.findByApiVersionAndKind(apiVersion, kind).orElseThrow(() ->
                ApiException.badRequest("no resource is served for " + kind + " in " + apiVersion
                        + " (is its CustomResourceDefinition in the scenario?)"));
        ObjectNode copy = object.deepCopy();
        ObjectNode meta = Json.metadata(copy);
        meta.remove("resourceVersion");
        if (type.namespaced()) {
            String namespace = Json.text(meta, "namespace");
            if (namespace.isEmpty()) {
                namespace = "default";
                meta.put("namespace", namespace);
            }
            if (store.get(BuiltinResources.NAMESPACES, null, namespace) == null) {
                ObjectNode ns = Json.object();
                ns.putObject("metadata").put("name", namespace);
                Strategies.prepareForCreate(BuiltinResources.NAMESPACES, ns, store.clock().instant());
                Validation.create(BuiltinResources.NAMESPACES, ns);
                store.create(BuiltinResources.NAMESPACES, ns, false, false);
            }
        } else {
            meta.remove("namespace");
        }
        JsonNode status = copy.get("status");
        Strategies.prepareForCreate(type, copy, store.clock().instant());
        if (status != null && !status.isEmpty() && type != BuiltinResources.CUSTOM_RESOURCE_DEFINITIONS) {
            copy.set("status", status);
        }
        Strategies.dropEmptyMetadata(copy);
        resources.generateName(type, copy);
        resources.checkSchema(type, copy, null);
        resources.admitLoaded(type, copy, () -> {
            Validation.create(type, copy);
            validators.check(type, copy);
        });
        ObjectNode toStore = type == BuiltinResources.EVENTS_V1 ? EventConversion.toCore(copy) : copy;
        return store.create(ResourceHandler.stored(type), toStore, false, true);
    }

    /** Authentication of service account tokens and the RBAC check of every request. */
    public Authorization authorization() {
        return authorization;
    }

    /**
     * The user of the request being handled on this thread (the cluster admin for in-process requests): what
     * kube-apiserver puts in an AdmissionReview's {@code request.userInfo} for the built-in webhooks to check.
     */
    public static UserInfo requestUser() {
        return Authorization.user();
    }

    /**
     * An API group served by something else than the resource store, as kube-apiserver proxies an aggregated
     * APIService (KubeVirt's {@code subresources.kubevirt.io}, served by virt-api).
     */
    public interface ExtensionApi {
        /** Answers one request; {@code segments} start at the version ({@code v1/namespaces/…}). Throws {@link ApiException}. */
        void handle(ApiRequest request, List<String> segments, ResponseChannel channel);
    }

    private final Map<String, ExtensionApi> extensions = new java.util.concurrent.ConcurrentHashMap<>();

    /** Serves {@code /apis/<group>/…} with {@code api} (the group's discovery stays the registry's). */
    public void addExtensionApi(String group, ExtensionApi api) {
        extensions.put(group, api);
    }

    /**
     * Fields our CRDs keep but the schema of the release the cluster reports lacks, per resource type (dotted paths):
     * writes prune them with kube-apiserver's unknown-field warning, or refuse them under {@code fieldValidation=Strict}.
     */
    public void setFieldsByRelease(java.util.function.Function<ResourceType, List<String>> fields) {
        resources.fieldsByRelease = fields;
    }

    /** Handles one in-process request, as the cluster admin; see {@link #handle(ApiRequest, ResponseChannel, UserInfo)}. */
    public void handle(ApiRequest request, ResponseChannel channel) {
        handle(request, channel, AdminUser.USER);
    }

    /**
     * Handles one request of an authenticated user, authorized by RBAC; the answer (or watch stream) goes to the
     * channel. Never throws.
     */
    public void handle(ApiRequest request, ResponseChannel channel, UserInfo user) {
        try {
            ScopedValue.where(Warnings.CHANNEL, channel).where(Authorization.USER, user).run(() -> dispatch(request, channel));
        } catch (ApiException e) {
            channel.respond(e.code(), "application/json", Json.bytes(e.toStatus()));
        } catch (RuntimeException e) {
            LOG.warn("{} {} failed", request.method(), request.path(), e);
            ApiException error = ApiException.internal(String.valueOf(e.getMessage()));
            channel.respond(500, "application/json", Json.bytes(error.toStatus()));
        }
    }

    private void dispatch(ApiRequest request, ResponseChannel channel) {
        String path = request.path();
        List<String> segments = Arrays.stream(path.split("/")).filter(s -> !s.isEmpty()).toList();
        if (segments.isEmpty()) {
            throw ApiException.pathNotFound();
        }
        boolean resourceRequest = (segments.getFirst().equals("api") && segments.size() > 2)
                || (segments.getFirst().equals("apis") && segments.size() > 3);
        if (!resourceRequest) {
            authorization.authorizeNonResource(request);
        }
        switch (segments.getFirst()) {
            case "version" -> json(channel, 200, discovery.version());
            case "healthz", "livez", "readyz" -> channel.respond(200, "text/plain; charset=utf-8", "ok".getBytes(StandardCharsets.UTF_8));
            case "openapi" -> openApi(segments, channel);
            case "api" -> {
                if (segments.size() == 1) {
                    json(channel, 200, discovery.coreVersions(serverAddress));
                } else if (!segments.get(1).equals("v1")) {
                    throw ApiException.pathNotFound();
                } else if (segments.size() == 2) {
                    json(channel, 200, discovery.resourceList("", "v1"));
                } else {
                    resource(request, "", "v1", segments.subList(2, segments.size()), channel);
                }
            }
            case "apis" -> {
                if (segments.size() == 1) {
                    json(channel, 200, discovery.groupList());
                } else if (segments.size() == 2) {
                    json(channel, 200, discovery.group(segments.get(1)));
                } else if (segments.size() == 3) {
                    json(channel, 200, discovery.resourceList(segments.get(1), segments.get(2)));
                } else if (AccessReviews.handles(segments)) {
                    authorization.authorizeReview(segments.get(1), segments.get(3));
                    if (!request.method().equals("POST")) {
                        throw ApiException.methodNotAllowed("the server does not allow this method on the requested resource");
                    }
                    json(channel, 201, AccessReviews.review(segments.get(3), request, store.clock(), authorization));
                } else if (extensions.containsKey(segments.get(1))) {
                    extensions.get(segments.get(1)).handle(request, segments.subList(2, segments.size()), channel);
                } else {
                    resource(request, segments.get(1), segments.get(2), segments.subList(3, segments.size()), channel);
                }
            }
            default -> throw ApiException.pathNotFound();
        }
    }

    /** /openapi/v3 and its per group-version documents; /openapi/v2 stays 404 (see docs/notes). */
    private void openApi(List<String> segments, ResponseChannel channel) {
        if (segments.size() < 2 || !segments.get(1).equals("v3")) {
            throw ApiException.pathNotFound();
        }
        OpenApiDocuments docs = openApiDocuments();
        if (segments.size() == 2) {
            channel.respond(200, OpenApiDocuments.CONTENT_TYPE, docs.indexBytes());
            return;
        }
        String key = String.join("/", segments.subList(2, segments.size()));
        OpenApiDocuments.Document doc = docs.document(key).orElseThrow(ApiException::pathNotFound);
        channel.respond(200, OpenApiDocuments.CONTENT_TYPE, doc.bytes());
    }

    private synchronized OpenApiDocuments openApiDocuments() {
        long generation = registry.generation();
        if (openApi == null || openApiGeneration != generation) {
            openApi = OpenApiDocuments.of(registry.all());
            openApiGeneration = generation;
        }
        return openApi;
    }

    private void resource(ApiRequest request, String group, String version, List<String> segments, ResponseChannel channel) {
        ResourcePath path = ResourcePath.parse(registry, group, version, segments);
        if (path == null) {
            throw ApiException.pathNotFound();
        }
        String sub = path.subresource();
        if (!sub.isEmpty() && !path.type().hasSubresource(sub)) {
            throw ApiException.pathNotFound();
        }
        authorization.authorize(request, path);
        requestCounts.count(request.method(), request.flag("watch"), path);
        registry.deprecationWarning(path.type()).ifPresent(Warnings::add);
        switch (request.method()) {
            case "GET" -> {
                if (request.flag("watch")) {
                    watches.watch(request, path, channel);
                } else if (path.isCollection()) {
                    json(channel, 200, resources.list(request, path));
                } else {
                    onlyFor(sub, "", "status", "scale");
                    json(channel, 200, resources.get(request, path));
                }
            }
            case "POST" -> {
                if (path.isCollection()) {
                    json(channel, 201, resources.create(request, path));
                } else if (sub.equals("eviction")) {
                    json(channel, 201, evictions.evict(request, path));
                } else if (sub.equals("token")) {
                    json(channel, 201, authorization.tokenRequest(request, path));
                } else if (sub.equals("binding")) {
                    json(channel, 201, evictions.bind(request, path));
                } else {
                    throw ApiException.methodNotAllowed("the server does not allow this method on the requested resource");
                }
            }
            case "PUT" -> {
                notCollection(path);
                if (sub.equals("finalize")) {
                    json(channel, 200, finalizeNamespace(request, path));
                } else {
                    onlyFor(sub, "", "status", "scale");
                    json(channel, 200, resources.update(request, path));
                }
            }
            case "PATCH" -> {
                notCollection(path);
                onlyFor(sub, "", "status", "scale");
                json(channel, 200, resources.patch(request, path));
            }
            case "DELETE" -> {
                if (path.isCollection()) {
                    json(channel, 200, resources.deleteCollection(request, path));
                } else {
                    json(channel, 200, resources.delete(request, path));
                }
            }
            default -> throw ApiException.methodNotAllowed("the server does not allow this method on the requested resource");
        }
    }

    private ObjectNode finalizeNamespace(ApiRequest request, ResourcePath path) {
        ObjectNode body = RequestBodies.object(request);
        JsonNode finalizers = body.path("spec").path("finalizers");
        return store.update(BuiltinResources.NAMESPACES, "", path.name(), ns -> {
            ns.with("spec").set("finalizers", finalizers.isArray() ? finalizers : Json.NODES.arrayNode());
            return ns;
        }, request.dryRun());
    }

    private static void notCollection(ResourcePath path) {
        if (path.isCollection()) {
            throw ApiException.methodNotAllowed("the server does not allow this method on the requested resource");
        }
    }

    private static void onlyFor(String sub, String... allowed) {
        for (String a : allowed) {
            if (a.equals(sub)) {
                return;
            }
        }
        throw ApiException.methodNotAllowed("the server does not allow this method on the requested resource");
    }

    private static void json(ResponseChannel channel, int code, JsonNode body) {
        channel.respond(code, "application/json", Json.bytes(body));
    }

    @Override
    public void close() {
        timers.shutdownNow();
    }

    /** Serves a CRD's resources from the moment it is stored; forgets them (and their objects) when it goes. */
    private final class CrdFollower implements WatchSink {
        @Override
        public void onEvent(WatchEvent event) {
            String name = Json.name(event.object());
            if (event.type() == WatchEvent.Type.DELETED) {
                for (ResourceType type : registry.unregisterCrd(name)) {
                    store.dropResource(type);
                }
            } else {
                registry.registerCrd(event.object());
            }
        }
    }
}
