package dev.drainboard.kubevirt.crd;

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
 * Every CustomResourceDefinition a KubeVirt installation serves (KubeVirt {@value #RELEASE}: kubevirt.io,
 * instancetype, pool, migrations, snapshot, export, clone, backup and plugin groups), exactly as its operator
 * installs them: names, short names, categories, versions with their deprecation warnings, subresources, printer
 * columns and KubeVirt's structural schemas. The manifests in {@code kubevirt/crds/} on the class path are generated
 * from a KubeVirt checkout by {@code scripts/generate-kubevirt-crds.py} (see docs/kubevirt-api.md).
 */
public final class KubeVirtCrds {

    /** The KubeVirt release the manifests were generated from. */
    public static final String RELEASE = "v1.9.0";

    private static final String RESOURCE_FOLDER = "/kubevirt/crds/";
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    /** CRD names, in the order KubeVirt's install strategy creates them (KubeVirt's own CRD last). */
    public static final List<String> NAMES = readNames();

    /** Parsed once: the manifests are a few megabytes of YAML, and every embedded cluster installs them. */
    private static volatile List<ObjectNode> parsed;

    private KubeVirtCrds() {
    }

    /** The manifests as JSON trees (fresh copies), for code that stores objects as JSON. */
    public static List<ObjectNode> manifests() {
        List<ObjectNode> trees = parsed;
        if (trees == null) {
            synchronized (KubeVirtCrds.class) {
                if (parsed == null) {
                    parsed = NAMES.stream().map(KubeVirtCrds::read).toList();
                }
                trees = parsed;
            }
        }
        return trees.stream().map(ObjectNode::deepCopy).toList();
    }

    /** The manifests as fabric8 objects (fresh copies). */
    public static List<CustomResourceDefinition> definitions() {
        return manifests().stream()
                .map(tree -> YAML.convertValue(tree, CustomResourceDefinition.class))
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

    private static ObjectNode read(String name) {
        String path = RESOURCE_FOLDER + name + ".yaml";
        try (InputStream in = resource(path)) {
            return (ObjectNode) YAML.readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read CRD manifest " + path, e);
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
