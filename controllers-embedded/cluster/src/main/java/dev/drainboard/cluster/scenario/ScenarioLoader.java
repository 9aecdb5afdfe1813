package dev.drainboard.cluster.scenario;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drainboard.cluster.apiserver.ApiException;
import dev.drainboard.cluster.apiserver.ApiServer;
import dev.drainboard.cluster.apiserver.Json;
import dev.drainboard.cluster.apiserver.ResourceRegistry;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Reads a scenario — plain Kubernetes YAML, one file or a folder of files, multi-document, `kind: List`
 * allowed (so `kubectl get -o yaml` output loads as it is) — and creates its objects in dependency
 * order: namespaces and CRDs first, then cluster-scoped objects, then the rest in file order.
 * Every document is checked before anything is created.
 */
public final class ScenarioLoader {

    public static final String DEMO = "demo";
    /** Scenarios built into the jar, as {@code /scenarios/<name>.yaml}. */
    public static final java.util.List<String> BUILT_IN = java.util.List.of(DEMO, "pressure", "maintenance");

    private ScenarioLoader() {
    }

    /**
     * Reads a built-in scenario ({@link #BUILT_IN}: "demo", "pressure", "maintenance"; a file of that name in the working folder
     * wins), a YAML file, or a directory of *.yaml / *.yml / *.json files (sorted by name).
     */
    public static List<ScenarioDocument> read(String scenario) throws ScenarioException {
        String builtIn = scenario == null ? DEMO : scenario;
        if (BUILT_IN.contains(builtIn) && (scenario == null || !Files.exists(Path.of(scenario)))) {
            try (InputStream in = ScenarioLoader.class.getResourceAsStream("/scenarios/" + builtIn + ".yaml")) {
                if (in == null) {
                    throw new ScenarioException("the built-in " + builtIn + " scenario is missing from the build");
                }
                return parse(builtIn, new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8));
            } catch (IOException e) {
                throw new ScenarioException(builtIn + ": " + e.getMessage());
            }
        }
        Path path = Path.of(scenario);
        if (!Files.exists(path)) {
            throw new ScenarioException(scenario + ": no such file or directory (use " + String.join(", ", BUILT_IN.stream().map(n -> "'" + n + "'").toList())
                    + ", a YAML file or a folder of YAML files)");
        }
        List<Path> files = new ArrayList<>();
        if (Files.isDirectory(path)) {
            try (Stream<Path> listing = Files.list(path)) {
                listing.filter(p -> p.toString().matches(".*\\.(ya?ml|json)$")).sorted(Comparator.comparing(Path::toString)).forEach(files::add);
            } catch (IOException e) {
                throw new ScenarioException(scenario + ": cannot list the folder: " + e.getMessage());
            }
            if (files.isEmpty()) {
                throw new ScenarioException(scenario + ": the folder holds no .yaml, .yml or .json files");
            }
        } else {
            files.add(path);
        }
        List<ScenarioDocument> documents = new ArrayList<>();
        for (Path file : files) {
            try {
                documents.addAll(parse(file.toString(), Files.readString(file)));
            } catch (IOException e) {
                throw new ScenarioException(file + ": cannot read: " + e.getMessage());
            }
        }
        return documents;
    }

    /** Parses multi-document YAML and checks each document is a Kubernetes object. */
    public static List<ScenarioDocument> parse(String source, String yaml) throws ScenarioException {
        List<ScenarioDocument> documents = new ArrayList<>();
        int number = 0;
        // One root value per YAML document. (A MappingIterator would also unwrap a root-level
        // sequence into separate "documents", which kubectl refuses.)
        try (JsonParser parser = Json.YAML.createParser(yaml)) {
            while (true) {
                number++;
                JsonNode node;
                try {
                    if (parser.nextToken() == null) {
                        break;
                    }
                    node = Json.YAML.readTree(parser);
                } catch (RuntimeException | IOException e) {
                    throw new ScenarioException(source + ": document " + number + ": invalid YAML: " + firstLine(e));
                }
                if (isEmptyDocument(node)) {
                    continue; // empty documents between separators are fine
                }
                if (!(node instanceof ObjectNode object)) {
                    throw new ScenarioException(source + ": document " + number + ": expected a Kubernetes object, found " + node.getNodeType().name().toLowerCase());
                }
                if (object.path("kind").asText().endsWith("List") && object.has("items")) {
                    int item = 0;
                    for (JsonNode element : object.get("items")) {
                        item++;
                        if (!(element instanceof ObjectNode o)) {
                            throw new ScenarioException(source + ": document " + number + ": item " + item + " is not an object");
                        }
                        documents.add(checked(new ScenarioDocument(source, number, o)));
                    }
                } else {
                    documents.add(checked(new ScenarioDocument(source, number, object)));
                }
            }
        } catch (IOException e) {
            throw new ScenarioException(source + ": invalid YAML: " + firstLine(e));
        }
        return documents;
    }

    /** A document with nothing in it: "---" followed by another "---", or only comments. */
    private static boolean isEmptyDocument(JsonNode node) {
        return node == null || node.isNull() || node.isMissingNode()
                || (node.isObject() && node.isEmpty())
                || (node.isTextual() && node.asText().isBlank());
    }

    private static ScenarioDocument checked(ScenarioDocument doc) throws ScenarioException {
        ObjectNode o = doc.object();
        for (String field : new String[]{"apiVersion", "kind"}) {
            if (o.path(field).asText().isEmpty()) {
                throw new ScenarioException(doc.where() + ": " + field + " is missing");
            }
        }
        if (Json.name(o).isEmpty()) {
            throw new ScenarioException(doc.where() + " (" + o.path("kind").asText() + "): metadata.name is missing");
        }
        return doc;
    }

    /**
     * Creates the documents in dependency order. Call on a fresh cluster before it serves: if any
     * document is refused, the exception names it and the caller discards the cluster, so nothing of
     * a bad scenario is ever served.
     */
    public static void load(ApiServer api, List<ScenarioDocument> documents) throws ScenarioException {
        checkKinds(api.registry(), documents);
        List<ScenarioDocument> ordered = new ArrayList<>(documents);
        ordered.sort(Comparator.comparingInt(ScenarioLoader::rank));
        for (ScenarioDocument doc : ordered) {
            try {
                api.load(doc.object());
            } catch (ApiException e) {
                throw new ScenarioException(doc.where() + " (" + doc.object().path("kind").asText() + " "
                        + Json.name(doc.object()) + "): " + e.getMessage());
            }
        }
    }

    /** Every kind must be built in or declared by a CRD of the same scenario. */
    private static void checkKinds(ResourceRegistry registry, List<ScenarioDocument> documents) throws ScenarioException {
        Set<String> declared = new HashSet<>();
        for (ScenarioDocument doc : documents) {
            if (doc.object().path("kind").asText().equals("CustomResourceDefinition")) {
                for (var type : ResourceRegistry.typesOf(doc.object())) {
                    declared.add(type.apiVersion() + "/" + type.kind());
                }
            }
        }
        for (ScenarioDocument doc : documents) {
            String apiVersion = doc.object().path("apiVersion").asText();
            String kind = doc.object().path("kind").asText();
            if (registry.findByApiVersionAndKind(apiVersion, kind).isEmpty() && !declared.contains(apiVersion + "/" + kind)) {
                throw new ScenarioException(doc.where() + ": unknown kind " + kind + " in " + apiVersion
                        + " (neither built in nor declared by a CustomResourceDefinition in the scenario)");
            }
        }
    }

    private static int rank(ScenarioDocument doc) {
        return switch (doc.object().path("kind").asText()) {
            case "Namespace" -> 0;
            case "CustomResourceDefinition" -> 1;
            case "Node", "StorageClass", "PriorityClass", "PersistentVolume" -> 2;
            case "Pod", "ValidatingWebhookConfiguration", "MutatingWebhookConfiguration" -> 4;
            default -> 3;
        };
    }

    /** The parser's first line, plus where in the file it stumbled (the rest of its message is noise). */
    private static String firstLine(Exception e) {
        String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        String first = m.lines().findFirst().orElse(m);
        if (e instanceof com.fasterxml.jackson.core.JsonProcessingException p && p.getLocation() != null
                && p.getLocation().getLineNr() > 0) {
            return first + " (line " + p.getLocation().getLineNr() + ", column " + p.getLocation().getColumnNr() + ")";
        }
        return first;
    }
}
