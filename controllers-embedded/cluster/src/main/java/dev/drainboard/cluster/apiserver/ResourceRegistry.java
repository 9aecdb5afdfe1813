package dev.drainboard.cluster.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Which resources the server serves right now: the built-ins plus every version of every
 * established CustomResourceDefinition. A CRD is served as soon as it is created.
 */
public final class ResourceRegistry {

    /** "group/version/plural" → type. */
    private final Map<String, ResourceType> byPath = new ConcurrentHashMap<>();
    /** CRD name → the types it contributed, to unregister them on deletion. */
    private final Map<String, List<ResourceType>> byCrd = new ConcurrentHashMap<>();

    /** "group/version/plural" → the warning a deprecated CRD version sends with every request. */
    private final Map<String, String> deprecationWarnings = new ConcurrentHashMap<>();

    /** Bumped on every change, so derived documents (OpenAPI) know when to rebuild. */
    private final java.util.concurrent.atomic.AtomicLong generation = new java.util.concurrent.atomic.AtomicLong();

    public long generation() {
        return generation.get();
    }

    public ResourceRegistry() {
        BuiltinResources.ALL.forEach(this::register);
    }

    public Optional<ResourceType> find(String group, String version, String plural) {
        return Optional.ofNullable(byPath.get(group + "/" + version + "/" + plural));
    }

    /** The type objects of a group and kind are stored as (the first served version). */
    public Optional<ResourceType> findByKind(String group, String kind) {
        return all().stream().filter(t -> t.group().equals(group) && t.kind().equals(kind)).findFirst();
    }

    public Optional<ResourceType> findByApiVersionAndKind(String apiVersion, String kind) {
        int slash = apiVersion.indexOf('/');
        String group = slash < 0 ? "" : apiVersion.substring(0, slash);
        String version = slash < 0 ? apiVersion : apiVersion.substring(slash + 1);
        return all().stream()
                .filter(t -> t.group().equals(group) && t.version().equals(version) && t.kind().equals(kind))
                .findFirst();
    }

    public List<ResourceType> all() {
        List<ResourceType> types = new ArrayList<>(byPath.values());
        types.sort((a, b) -> (a.group() + "/" + a.version() + "/" + a.plural()).compareTo(b.group() + "/" + b.version() + "/" + b.plural()));
        return types;
    }

    /** Group → served versions, preferred version first, core group excluded. */
    public Map<String, List<String>> groups() {
        Map<String, List<String>> groups = new LinkedHashMap<>();
        for (ResourceType t : all()) {
            if (!t.group().isEmpty()) {
                List<String> versions = groups.computeIfAbsent(t.group(), g -> new ArrayList<>());
                if (!versions.contains(t.version())) {
                    versions.add(t.version());
                }
            }
        }
        groups.values().forEach(versions -> versions.sort(ResourceRegistry::compareKubeAwareVersions));
        return groups;
    }

    public List<ResourceType> inGroupVersion(String group, String version) {
        return all().stream().filter(t -> t.group().equals(group) && t.version().equals(version)).toList();
    }

    /** Serves (or re-serves, after an update) the versions a CRD declares. */
    public void registerCrd(ObjectNode crd) {
        String crdName = Json.name(crd);
        unregisterCrd(crdName);
        List<ResourceType> types = typesOf(crd);
        types.forEach(this::register);
        for (JsonNode version : crd.path("spec").path("versions")) {
            if (version.path("deprecated").asBoolean(false)) {
                String warning = version.path("deprecationWarning").asText("");
                String gv = crd.path("spec").path("group").asText() + "/" + version.path("name").asText();
                deprecationWarnings.put(gv + "/" + crd.path("spec").path("names").path("plural").asText(),
                        warning.isEmpty() ? gv + " " + crd.path("spec").path("names").path("kind").asText() + " is deprecated" : warning);
            }
        }
        byCrd.put(crdName, types);
        generation.incrementAndGet();
    }

    public List<ResourceType> unregisterCrd(String crdName) {
        List<ResourceType> types = byCrd.remove(crdName);
        if (types == null) {
            return List.of();
        }
        types.forEach(t -> byPath.remove(t.group() + "/" + t.version() + "/" + t.plural()));
        types.forEach(t -> deprecationWarnings.remove(t.group() + "/" + t.version() + "/" + t.plural()));
        generation.incrementAndGet();
        return types;
    }

    /**
     * The warning kube-apiserver sends with every request to a CRD version marked {@code deprecated}: its
     * {@code deprecationWarning}, else {@code group/version Kind is deprecated} (apiextensions-apiserver
     * customresource_handler.go).
     */
    public Optional<String> deprecationWarning(ResourceType type) {
        return Optional.ofNullable(deprecationWarnings.get(type.group() + "/" + type.version() + "/" + type.plural()));
    }

    /**
     * Kubernetes' version priority (apimachinery version.CompareKubeAwareVersionStrings): GA before beta before
     * alpha, higher numbers first, then anything else alphabetically. Discovery lists the preferred version first.
     */
    static int compareKubeAwareVersions(String a, String b) {
        int[] ka = kubeVersion(a);
        int[] kb = kubeVersion(b);
        if (ka == null || kb == null) {
            return ka != null ? -1 : kb != null ? 1 : a.compareTo(b);
        }
        if (ka[1] != kb[1]) {
            return Integer.compare(kb[1], ka[1]);
        }
        if (ka[0] != kb[0]) {
            return Integer.compare(kb[0], ka[0]);
        }
        return Integer.compare(kb[2], ka[2]);
    }

    /** {major, stability (2 GA, 1 beta, 0 alpha), minor}, or null for a version that is not v1, v2beta1… */
    private static int[] kubeVersion(String v) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("v(\\d+)(?:(alpha|beta)(\\d+))?").matcher(v);
        if (!m.matches()) {
            return null;
        }
        int stability = m.group(2) == null ? 2 : m.group(2).equals("beta") ? 1 : 0;
        return new int[]{Integer.parseInt(m.group(1)), stability, m.group(3) == null ? 0 : Integer.parseInt(m.group(3))};
    }

    /** The resource types a CRD declares, one per served version. */
    public static List<ResourceType> typesOf(JsonNode crd) {
        JsonNode spec = crd.path("spec");
        JsonNode names = spec.path("names");
        String group = spec.path("group").asText();
        boolean namespaced = !"Cluster".equals(spec.path("scope").asText("Namespaced"));
        List<String> shortNames = strings(names.path("shortNames"));
        List<String> categories = strings(names.path("categories"));
        String plural = names.path("plural").asText();
        String kind = names.path("kind").asText();
        String singular = names.path("singular").asText(kind.toLowerCase());
        List<ResourceType> types = new ArrayList<>();
        for (JsonNode version : spec.path("versions")) {
            if (!version.path("served").asBoolean(true)) {
                continue;
            }
            Set<String> subresources = new HashSet<>();
            JsonNode sub = version.path("subresources");
            ResourceType.ScaleSpec scale = null;
            if (sub.has("status")) {
                subresources.add("status");
            }
            if (sub.has("scale")) {
                subresources.add("scale");
                JsonNode s = sub.get("scale");
                scale = new ResourceType.ScaleSpec(
                        s.path("specReplicasPath").asText(".spec.replicas"),
                        s.path("statusReplicasPath").asText(".status.replicas"),
                        s.path("labelSelectorPath").asText(""));
            }
            JsonNode columns = version.get("additionalPrinterColumns");
            JsonNode schema = version.path("schema").get("openAPIV3Schema");
            types.add(new ResourceType(group, version.path("name").asText(), plural, singular, kind, namespaced,
                    shortNames, categories, Set.copyOf(subresources), scale,
                    columns == null || columns.isNull() ? Json.NODES.arrayNode() : columns,
                    schema == null ? Json.object().put("type", "object").put("x-kubernetes-preserve-unknown-fields", true) : schema));
        }
        return types;
    }

    private void register(ResourceType type) {
        byPath.put(type.group() + "/" + type.version() + "/" + type.plural(), type);
    }

    private static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }
}
