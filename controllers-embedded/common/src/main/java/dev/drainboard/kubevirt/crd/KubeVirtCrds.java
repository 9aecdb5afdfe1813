package dev.drainboard.kubevirt.crd;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.zip.GZIPInputStream;

/**
 * Every CustomResourceDefinition a KubeVirt installation serves (KubeVirt {@value #RELEASE}: kubevirt.io,
 * instancetype, pool, migrations, snapshot, export, clone, backup and plugin groups), exactly as its operator
 * installs them: names, short names, categories, versions with their deprecation warnings, subresources, printer
 * columns and KubeVirt's structural schemas. The manifests in {@code kubevirt/crds/} on the class path are generated
 * from a KubeVirt checkout by {@code scripts/generate-kubevirt-crds.py} (see docs/kubevirt-api.md): one YAML file per
 * CRD to read, and the same as one gzipped JSON array ({@code crds.json.gz}), which is what is loaded here — a JSON
 * parse takes a tenth of a second where the YAML takes seconds.
 */
public final class KubeVirtCrds {

    /** The KubeVirt release the manifests were generated from. */
    public static final String RELEASE = "v1.9.0";

    private static final String RESOURCE_FOLDER = "/kubevirt/crds/";
    private static final ObjectMapper JSON = new ObjectMapper();

    /** CRD names, in the order KubeVirt's install strategy creates them (KubeVirt's own CRD last). */
    public static final List<String> NAMES = readNames();

    /** Parsed once per process: every embedded cluster installs them. */
    private static volatile List<ObjectNode> parsed;

    private KubeVirtCrds() {
    }

    /** The manifests as JSON trees (fresh copies), for code that stores objects as JSON. */
    public static List<ObjectNode> manifests() {
        List<ObjectNode> trees = parsed;
        if (trees == null) {
            synchronized (KubeVirtCrds.class) {
                if (parsed == null) {
                    parsed = readAll();
                }
                trees = parsed;
            }
        }
        return trees.stream().map(ObjectNode::deepCopy).toList();
    }

    /** The manifests as fabric8 objects (fresh copies). */
    public static List<CustomResourceDefinition> definitions() {
        return manifests().stream()
                .map(tree -> JSON.convertValue(tree, CustomResourceDefinition.class))
                .toList();
    }

    private static List<String> readNames() {
        try (InputStream in = resource(RESOURCE_FOLDER + "crds.txt");
             BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            return reader.lines().map(String::strip).filter(l -> !l.isEmpty() && !l.startsWith("#")).toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the CRD list", e);
        }
    }

    private static List<ObjectNode> readAll() {
        String path = RESOURCE_FOLDER + "crds.json.gz";
        try (InputStream in = new GZIPInputStream(resource(path))) {
            JsonNode all = JSON.readTree(in);
            List<ObjectNode> trees = new java.util.ArrayList<>();
            all.forEach(crd -> trees.add((ObjectNode) crd));
            List<String> names = trees.stream().map(crd -> crd.path("metadata").path("name").asText()).toList();
            if (!names.equals(NAMES)) {
                throw new IllegalStateException(path + " holds " + names + ", crds.txt lists " + NAMES
                        + ": re-run scripts/generate-kubevirt-crds.py");
            }
            return List.copyOf(trees);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the CRD manifests " + path, e);
        }
    }

    private static InputStream resource(String path) {
        InputStream in = KubeVirtCrds.class.getResourceAsStream(path);
        if (in == null) {
            throw new IllegalStateException("CRD manifest missing from the class path: " + path);
        }
        return in;
    }
}
