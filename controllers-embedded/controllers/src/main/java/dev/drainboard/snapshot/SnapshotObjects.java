package dev.drainboard.snapshot;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drainboard.architecture.Pure;
import dev.drainboard.kubevirt.DrainboardAnnotations;

import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * What a snapshot keeps of each object: everything placement and a drain depend on (labels, taints, capacity, owner
 * references, a VMI's status with its node, a pod's node), without what only the source cluster's server sets or what
 * must not leave it.
 *
 * <p>Kept on purpose: {@code metadata.uid} and {@code creationTimestamp}. The scenario loader keeps both (as a
 * restore does), so owner references stay valid — a launcher pod still belongs to its VMI, a VMI to its VM, a pod to
 * its ReplicaSet — and ages and "oldest first" choices are the source's. Dropped: {@code resourceVersion},
 * {@code managedFields}, {@code generation}, {@code selfLink}, deletion marks and kubectl's
 * {@code last-applied-configuration} (it may repeat a ConfigMap's data).
 */
@Pure
public final class SnapshotObjects {

    /** Namespaces every cluster has; the embedded cluster makes them itself. */
    static final Set<String> SYSTEM_NAMESPACES = Set.of("default", "kube-system", "kube-public", "kube-node-lease");
    /** ConfigMaps a cluster publishes itself (kube-controller-manager's root CA, kube-apiserver's client CA). */
    static final Set<String> SYSTEM_CONFIG_MAPS = Set.of("kube-root-ca.crt", "extension-apiserver-authentication");
    static final String LAST_APPLIED = "kubectl.kubernetes.io/last-applied-configuration";

    private SnapshotObjects() {
    }

    /** The copy of {@code object} a snapshot writes, or empty when it leaves the object out (and why: {@link #why}). */
    public static Optional<ObjectNode> prepare(SnapshotResource resource, ObjectNode object) {
        if (why(resource, object).isPresent()) {
            return Optional.empty();
        }
        ObjectNode copy = object.deepCopy();
        copy.put("apiVersion", resource.apiVersion());
        copy.put("kind", resource.kind());
        // apiVersion and kind first, as kubectl prints them.
        ObjectNode ordered = copy.objectNode();
        ordered.set("apiVersion", copy.get("apiVersion"));
        ordered.set("kind", copy.get("kind"));
        copy.fields().forEachRemaining(e -> {
            if (!ordered.has(e.getKey())) {
                ordered.set(e.getKey(), e.getValue());
            }
        });
        ObjectNode meta = ordered.with("metadata");
        for (String field : List.of("resourceVersion", "managedFields", "generation", "selfLink",
                "deletionTimestamp", "deletionGracePeriodSeconds")) {
            meta.remove(field);
        }
        if (meta.get("annotations") instanceof ObjectNode annotations) {
            annotations.remove(LAST_APPLIED);
            if (resource.kind().equals("KubeVirt")) {
                // The pace of the cluster copied is not the copy's: serve --time-scale writes its own.
                annotations.remove(DrainboardAnnotations.TIME_SCALE);
            }
            if (annotations.isEmpty()) {
                meta.remove("annotations");
            }
        }
        switch (resource.kind()) {
            case "ConfigMap" -> {
                ordered.remove("data");
                ordered.remove("binaryData");
            }
            case "Node" -> {
                if (ordered.get("status") instanceof ObjectNode status) {
                    // Image lists and volume bookkeeping are large and irrelevant to placement.
                    for (String field : List.of("images", "volumesInUse", "volumesAttached", "daemonEndpoints")) {
                        status.remove(field);
                    }
                }
            }
            case "PodDisruptionBudget", "Namespace" -> ordered.remove("status"); // recomputed by the copy's controllers
            default -> {
            }
        }
        return Optional.of(ordered);
    }

    /** Why a snapshot leaves {@code object} out, if it does. */
    public static Optional<String> why(SnapshotResource resource, ObjectNode object) {
        JsonNode meta = object.path("metadata");
        if (meta.hasNonNull("deletionTimestamp")) {
            return Optional.of("being deleted");
        }
        String name = meta.path("name").asText("");
        if (resource.kind().equals("Namespace") && SYSTEM_NAMESPACES.contains(name)) {
            return Optional.of("every cluster has it");
        }
        if (resource.kind().equals("ConfigMap") && SYSTEM_CONFIG_MAPS.contains(name)) {
            return Optional.of("published by the cluster itself");
        }
        return Optional.empty();
    }

    /**
     * Drops owner references to objects the snapshot does not hold (a Job, a DataVolume, an operator's custom
     * resource): the copy's garbage collector would otherwise delete the dependants at once. Returns how many it
     * dropped; the objects are changed in place.
     */
    public static int dropDanglingOwners(Collection<ObjectNode> objects) {
        Set<String> uids = new HashSet<>();
        for (ObjectNode o : objects) {
            String uid = o.path("metadata").path("uid").asText("");
            if (!uid.isEmpty()) {
                uids.add(uid);
            }
        }
        int dropped = 0;
        for (ObjectNode o : objects) {
            if (!(o.path("metadata") instanceof ObjectNode meta) || !(meta.get("ownerReferences") instanceof ArrayNode refs)) {
                continue;
            }
            for (int i = refs.size() - 1; i >= 0; i--) {
                if (!uids.contains(refs.get(i).path("uid").asText(""))) {
                    refs.remove(i);
                    dropped++;
                }
            }
            if (refs.isEmpty()) {
                meta.remove("ownerReferences");
            }
        }
        return dropped;
    }
}
