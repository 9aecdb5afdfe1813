package dev.drainboard.kubevirt.crd;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;

/**
 * The CustomResourceDefinitions of the five kubevirt.io/v1 kinds Drainboard works with, as KubeVirt ships them in
 * spirit: same names, short names, categories, subresources and printer columns, but schemas that keep every
 * field ({@code x-kubernetes-preserve-unknown-fields}), so objects copied from a real cluster load unchanged.
 * The manifests live in {@code kubevirt/crds/} on the class path.
 */
public final class KubeVirtCrds {

    /** CRD names, in the order they are installed. */
    public static final List<String> NAMES = List.of(
            "virtualmachineinstances.kubevirt.io",
            "virtualmachines.kubevirt.io",
            "virtualmachineinstancemigrations.kubevirt.io",
            "virtualmachineinstancereplicasets.kubevirt.io",
            "kubevirts.kubevirt.io");

    private static final String RESOURCE_FOLDER = "/kubevirt/crds/";
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private KubeVirtCrds() {
    }

    /** The manifests as JSON trees (fresh copies), for code that stores objects as JSON. */
    public static List<ObjectNode> manifests() {
        return NAMES.stream().map(KubeVirtCrds::read).toList();
    }

    /** The manifests as fabric8 objects (fresh copies). */
    public static List<CustomResourceDefinition> definitions() {
        return manifests().stream()
                .map(tree -> YAML.convertValue(tree, CustomResourceDefinition.class))
                .toList();
    }

    private static ObjectNode read(String name) {
        String path = RESOURCE_FOLDER + name + ".yaml";
        try (InputStream in = KubeVirtCrds.class.getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalStateException("CRD manifest missing from the class path: " + path);
            }
            return (ObjectNode) YAML.readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read CRD manifest " + path, e);
        }
    }
}
