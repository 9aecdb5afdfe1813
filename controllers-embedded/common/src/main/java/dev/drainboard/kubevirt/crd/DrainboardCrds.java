package dev.drainboard.kubevirt.crd;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Drainboard's own CustomResourceDefinitions (API group {@code drainboard.dev}): written by hand as YAML in
 * {@code drainboard/crds/} on the class path, listed in {@code crds.txt} there in install order. The embedded cluster
 * serves them from its start, {@code drainboard install-crds} installs them next to KubeVirt's. A new CRD is a new
 * YAML file and a line in the list.
 */
public final class DrainboardCrds {

    private static final String RESOURCE_FOLDER = "/drainboard/crds/";
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final ObjectMapper JSON = new ObjectMapper();

    /** CRD names, in install order. */
    public static final List<String> NAMES = readNames();

    private DrainboardCrds() {
    }

    /** The manifests as JSON trees (fresh copies). */
    public static List<ObjectNode> manifests() {
        return NAMES.stream().map(DrainboardCrds::read).toList();
    }

    /** The manifests as fabric8 objects (fresh copies). */
    public static List<CustomResourceDefinition> definitions() {
        return manifests().stream().map(tree -> JSON.convertValue(tree, CustomResourceDefinition.class)).toList();
    }

    private static ObjectNode read(String name) {
        String path = RESOURCE_FOLDER + name + ".yaml";
        try (InputStream in = resource(path)) {
            JsonNode tree = YAML.readTree(in);
            if (!(tree instanceof ObjectNode object) || !name.equals(object.path("metadata").path("name").asText())) {
                throw new IllegalStateException(path + " is not the CRD " + name);
            }
            return object;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the CRD manifest " + path, e);
        }
    }

    private static List<String> readNames() {
        try (InputStream in = resource(RESOURCE_FOLDER + "crds.txt");
             BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            return reader.lines().map(String::strip).filter(l -> !l.isEmpty() && !l.startsWith("#")).toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read Drainboard's CRD list", e);
        }
    }

    private static InputStream resource(String path) {
        InputStream in = DrainboardCrds.class.getResourceAsStream(path);
        if (in == null) {
            throw new IllegalStateException("CRD manifest missing from the class path: " + path);
        }
        return in;
    }
}
