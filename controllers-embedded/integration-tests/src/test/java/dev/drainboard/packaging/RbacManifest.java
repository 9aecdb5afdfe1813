package dev.drainboard.packaging;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/** The roles of packaging/rbac.yaml, and Kubernetes' RBAC rule matching over them (allow-only, as RBAC is). */
record RbacManifest(Map<String, Role> roles) {

    /** A ClusterRole ({@code namespace} empty) or a Role in one namespace. */
    record Role(String name, Optional<String> namespace, List<Rule> rules) {

        boolean allows(RequestAttributes request) {
            if (namespace.isPresent() && !namespace.get().equals(request.namespace())) {
                return false;
            }
            return rules.stream().anyMatch(r -> r.allows(request));
        }
    }

    record Rule(List<String> apiGroups, List<String> resources, List<String> resourceNames, List<String> verbs) {

        boolean allows(RequestAttributes request) {
            if (request.nonResource()) {
                return false;
            }
            String resource = request.subresource() == null ? request.resource()
                    : request.resource() + "/" + request.subresource();
            boolean nameOk = resourceNames.isEmpty() || (request.name() != null && resourceNames.contains(request.name()));
            return matches(apiGroups, request.group()) && matches(resources, resource) && matches(verbs, request.verb())
                    && nameOk;
        }

        private static boolean matches(List<String> allowed, String value) {
            return allowed.contains("*") || allowed.contains(value);
        }
    }

    static RbacManifest read(Path file) throws IOException {
        ObjectMapper yaml = new ObjectMapper(new YAMLFactory());
        Map<String, Role> roles = new TreeMap<>();
        try (YAMLParser parser = new YAMLFactory().createParser(Files.newBufferedReader(file))) {
            for (JsonNode doc : yaml.readValues(parser, JsonNode.class).readAll()) {
                String kind = doc.path("kind").asText();
                if (kind.equals("ClusterRole") || kind.equals("Role")) {
                    String name = doc.path("metadata").path("name").asText();
                    Optional<String> ns = kind.equals("Role") ? Optional.of(doc.path("metadata").path("namespace").asText())
                            : Optional.empty();
                    List<Rule> rules = new ArrayList<>();
                    doc.path("rules").forEach(r -> rules.add(new Rule(strings(r.path("apiGroups")), strings(r.path("resources")),
                            strings(r.path("resourceNames")), strings(r.path("verbs")))));
                    roles.put(name, new Role(name, ns, rules));
                }
            }
        }
        return new RbacManifest(roles);
    }

    private static List<String> strings(JsonNode node) {
        List<String> out = new ArrayList<>();
        if (!(node instanceof MissingNode)) {
            node.forEach(n -> out.add(n.asText()));
        }
        return out;
    }

    Role role(String name) {
        Role role = roles.get(name);
        if (role == null) {
            throw new IllegalArgumentException("no role " + name + " in the manifest; there are " + roles.keySet());
        }
        return role;
    }

    /** Whether any of these roles allows the request (RBAC is a union of grants). */
    boolean allows(List<String> roleNames, RequestAttributes request) {
        return roleNames.stream().map(this::role).anyMatch(r -> r.allows(request));
    }
}
