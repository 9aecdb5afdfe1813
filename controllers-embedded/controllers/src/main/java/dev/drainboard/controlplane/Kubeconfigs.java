package dev.drainboard.controlplane;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.fabric8.kubernetes.client.Config;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Loads a client configuration from a kubeconfig file, refusing what fabric8 would quietly paper over: an unknown
 * context (fabric8 falls back to the current one), a current-context that names no context, a context whose cluster or
 * user is not in the file (fabric8 falls back to in-cluster defaults, {@code https://kubernetes.default.svc}), a
 * cluster without a server. Messages name the file and say what is wrong; they never quote the file, which holds
 * credentials (a YAML error gives its line and column, not the line's text).
 */
public final class Kubeconfigs {

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    /** The kubeconfig cannot be used; the message says why, for the operator. */
    public static final class InvalidKubeconfigException extends Exception {
        public InvalidKubeconfigException(String message) {
            super(message);
        }
    }

    private Kubeconfigs() {
    }

    /**
     * @param context a context of the file, or null for its current context
     */
    public static Config load(Path kubeconfig, String context) throws InvalidKubeconfigException {
        JsonNode root = parse(kubeconfig);
        String contextName = checkContext(kubeconfig, root, context);
        Config config;
        try {
            config = Config.fromKubeconfig(contextName, kubeconfig.toFile());
        } catch (RuntimeException e) {
            throw new InvalidKubeconfigException("cannot use kubeconfig " + kubeconfig + ": " + safeMessage(e));
        }
        String used = config.getCurrentContext() == null ? null : config.getCurrentContext().getName();
        if (!contextName.equals(used) || config.getMasterUrl() == null || config.getMasterUrl().isBlank()) {
            // The checks above make this unreachable; never run against another cluster than the one asked for.
            throw new InvalidKubeconfigException("cannot use context \"" + contextName + "\" of kubeconfig " + kubeconfig);
        }
        return config;
    }

    private static JsonNode parse(Path kubeconfig) throws InvalidKubeconfigException {
        if (Files.isDirectory(kubeconfig)) {
            throw new InvalidKubeconfigException("kubeconfig " + kubeconfig + " is a directory, not a file");
        }
        String text;
        try {
            text = Files.readString(kubeconfig);
        } catch (NoSuchFileException e) {
            throw new InvalidKubeconfigException("kubeconfig " + kubeconfig + " does not exist");
        } catch (AccessDeniedException e) {
            throw new InvalidKubeconfigException("cannot read kubeconfig " + kubeconfig + ": permission denied");
        } catch (IOException e) {
            throw new InvalidKubeconfigException("cannot read kubeconfig " + kubeconfig + ": " + safeMessage(e));
        }
        JsonNode root;
        try {
            root = YAML.readTree(text);
        } catch (JsonProcessingException e) {
            throw new InvalidKubeconfigException("kubeconfig " + kubeconfig + " is not valid YAML: " + yamlProblem(e));
        }
        if (root == null || root.isMissingNode() || root.isNull()) {
            throw new InvalidKubeconfigException("kubeconfig " + kubeconfig + " is empty");
        }
        if (!root.isObject()) {
            throw new InvalidKubeconfigException("kubeconfig " + kubeconfig + " is not a kubeconfig: its top level is a "
                    + root.getNodeType().name().toLowerCase() + ", not a mapping");
        }
        return root;
    }

    /** The name of the context to use, once it, its cluster and its user are in the file. */
    private static String checkContext(Path file, JsonNode root, String asked) throws InvalidKubeconfigException {
        Map<String, JsonNode> contexts = named(file, root, "contexts", "context");
        Map<String, JsonNode> clusters = named(file, root, "clusters", "cluster");
        Map<String, JsonNode> users = named(file, root, "users", "user");
        String name;
        if (asked != null) {
            name = asked;
            if (!contexts.containsKey(name)) {
                throw new InvalidKubeconfigException("context \"" + name + "\" not found in " + file + known("contexts", contexts));
            }
        } else {
            name = root.path("current-context").asText("");
            if (name.isEmpty()) {
                throw new InvalidKubeconfigException(contexts.isEmpty() ? "kubeconfig " + file + " has no contexts"
                        : "kubeconfig " + file + " sets no current-context: choose one with --context" + known("contexts", contexts));
            }
            if (!contexts.containsKey(name)) {
                throw new InvalidKubeconfigException("current-context \"" + name + "\" in " + file + " names no context"
                        + known("contexts", contexts));
            }
        }
        JsonNode context = contexts.get(name);
        String cluster = context.path("cluster").asText("");
        if (cluster.isEmpty()) {
            throw new InvalidKubeconfigException("context \"" + name + "\" in " + file + " names no cluster");
        }
        if (!clusters.containsKey(cluster)) {
            throw new InvalidKubeconfigException("context \"" + name + "\" in " + file + " names cluster \"" + cluster
                    + "\", which is not in the file" + known("clusters", clusters));
        }
        String user = context.path("user").asText("");
        if (!user.isEmpty() && !users.containsKey(user)) {
            throw new InvalidKubeconfigException("context \"" + name + "\" in " + file + " names user \"" + user
                    + "\", which is not in the file" + known("users", users));
        }
        if (clusters.get(cluster).path("server").asText("").isBlank()) {
            throw new InvalidKubeconfigException("cluster \"" + cluster + "\" in " + file + " has no server");
        }
        checkBase64(file, "cluster", cluster, clusters.get(cluster), "certificate-authority-data");
        if (!user.isEmpty()) {
            checkBase64(file, "user", user, users.get(user), "client-certificate-data", "client-key-data");
        }
        return name;
    }

    /** fabric8 decodes these only when it connects, and then says only "An error has occurred". */
    private static void checkBase64(Path file, String kind, String name, JsonNode entry, String... fields)
            throws InvalidKubeconfigException {
        for (String field : fields) {
            String value = entry.path(field).asText("");
            if (!value.isEmpty()) {
                try {
                    Base64.getDecoder().decode(value.replaceAll("\\s", ""));
                } catch (IllegalArgumentException e) {
                    throw new InvalidKubeconfigException(kind + " \"" + name + "\" in " + file + ": " + field + " is not base64");
                }
            }
        }
    }

    /** The entries of a list such as {@code contexts} by name, each the value under {@code inner} (may be missing). */
    private static Map<String, JsonNode> named(Path file, JsonNode root, String list, String inner)
            throws InvalidKubeconfigException {
        JsonNode entries = root.path(list);
        Map<String, JsonNode> byName = new LinkedHashMap<>();
        if (entries.isMissingNode() || entries.isNull()) {
            return byName;
        }
        if (!entries.isArray()) {
            throw new InvalidKubeconfigException("kubeconfig " + file + " is not a kubeconfig: " + list + " is not a list");
        }
        int index = 0;
        for (JsonNode entry : entries) {
            String name = entry.path("name").asText("");
            if (name.isEmpty()) {
                throw new InvalidKubeconfigException("kubeconfig " + file + " is not a kubeconfig: " + list + "[" + index
                        + "] has no name");
            }
            byName.putIfAbsent(name, entry.path(inner));
            index++;
        }
        return byName;
    }

    private static String known(String what, Map<String, JsonNode> entries) {
        return entries.isEmpty() ? " (it has no " + what + ")" : " (" + what + ": " + String.join(", ", entries.keySet()) + ")";
    }

    /** The parser's problem with its line and column, without the text of the line (it may hold a credential). */
    private static String yamlProblem(JsonProcessingException e) {
        String problem = null;
        for (Throwable t = e.getCause(); t != null && problem == null; t = t.getCause()) {
            if (t instanceof org.yaml.snakeyaml.error.MarkedYAMLException marked) {
                problem = marked.getProblem();
                if (marked.getProblemMark() != null) {
                    return problem + " (line " + (marked.getProblemMark().getLine() + 1) + ", column "
                            + (marked.getProblemMark().getColumn() + 1) + ")";
                }
            }
        }
        if (problem == null) {
            problem = firstLine(e.getOriginalMessage());
        }
        JsonLocation location = e.getLocation();
        return Redaction.redact(problem) + (location != null && location.getLineNr() > 0
                ? " (line " + location.getLineNr() + ", column " + location.getColumnNr() + ")" : "");
    }

    /**
     * The first line of the root cause's message, credentials redacted: what fabric8 or the JDK says went wrong, fit to
     * show next to a kubeconfig's name.
     */
    public static String safeMessage(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String message = root.getMessage() == null ? root.getClass().getSimpleName() : firstLine(root.getMessage());
        return Redaction.redact(message);
    }

    private static String firstLine(String text) {
        if (text == null) {
            return "";
        }
        int newline = text.indexOf('\n');
        return (newline < 0 ? text : text.substring(0, newline)).strip();
    }

    public static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t == e ? String.valueOf(e.getMessage()) : e.getMessage() + " (" + t.getMessage() + ")";
    }
}
