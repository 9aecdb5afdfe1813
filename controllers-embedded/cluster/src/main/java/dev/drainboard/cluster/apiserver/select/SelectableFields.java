package dev.drainboard.cluster.apiserver.select;

import static dev.drainboard.cluster.apiserver.select.FieldValue.bool;
import static dev.drainboard.cluster.apiserver.select.FieldValue.count;
import static dev.drainboard.cluster.apiserver.select.FieldValue.firstNonEmpty;
import static dev.drainboard.cluster.apiserver.select.FieldValue.text;

import dev.drainboard.labels.ValidationMessages;
import java.util.Map;
import java.util.Set;

/**
 * kube-apiserver v1.32's field selector contracts per resource, learnt from the field label conversion functions
 * in pkg/apis/{group}/{version}/conversion.go and the ToSelectableFields of pkg/registry/.../strategy.go.
 * Resources not listed accept only metadata.name and metadata.namespace (apps/v1 registers no conversion,
 * so even replicasets reject status.replicas).
 */
final class SelectableFields {
    private record GroupResource(String group, String plural) {
    }

    /** The API groups kube-apiserver serves itself; any other group is a custom resource. */
    private static final Set<String> BUILT_IN_GROUPS = Set.of(
            "", "admissionregistration.k8s.io", "apiextensions.k8s.io", "apiregistration.k8s.io", "apps",
            "authentication.k8s.io", "authorization.k8s.io", "autoscaling", "batch", "certificates.k8s.io",
            "coordination.k8s.io", "discovery.k8s.io", "events.k8s.io", "flowcontrol.apiserver.k8s.io",
            "internal.apiserver.k8s.io", "networking.k8s.io", "node.k8s.io", "policy", "rbac.authorization.k8s.io",
            "resource.k8s.io", "scheduling.k8s.io", "storage.k8s.io", "storagemigration.k8s.io");

    /** The object reference fields an event may be selected by (before BUILT_IN, which reads them). */
    private static final Set<String> INVOLVED_OBJECT_FIELDS =
            Set.of("kind", "namespace", "name", "uid", "apiVersion", "resourceVersion", "fieldPath");

    private static final ResourceFields METADATA_ONLY = ResourceFields.metadataOnly();

    private static final Map<GroupResource, ResourceFields> BUILT_IN = Map.ofEntries(
            Map.entry(new GroupResource("", "pods"), ResourceFields.builtIn(true)
                    .field("spec.nodeName", text("spec.nodeName"))
                    .field("spec.restartPolicy", text("spec.restartPolicy"))
                    .field("spec.schedulerName", text("spec.schedulerName"))
                    .field("spec.serviceAccountName", text("spec.serviceAccountName"))
                    .field("spec.hostNetwork", bool("spec.hostNetwork"))
                    .field("status.phase", text("status.phase"))
                    .field("status.podIP", FieldValue.podIP())
                    .field("status.podIPs", FieldValue.NONE) // accepted, but never set by PodToSelectableFields
                    .field("status.nominatedNodeName", text("status.nominatedNodeName"))
                    .alias("spec.host", "spec.nodeName") // for pre-v1 clients
                    .build()),
            Map.entry(new GroupResource("", "nodes"), ResourceFields.builtIn(false)
                    .field("spec.unschedulable", bool("spec.unschedulable"))
                    .build()),
            Map.entry(new GroupResource("", "namespaces"), ResourceFields.builtIn(false)
                    .field("status.phase", text("status.phase"))
                    .build()),
            Map.entry(new GroupResource("", "secrets"), ResourceFields.builtIn(true)
                    .field("type", text("type"))
                    .build()),
            Map.entry(new GroupResource("", "services"), ResourceFields.builtIn(true)
                    .field("spec.clusterIP", text("spec.clusterIP"))
                    .field("spec.type", text("spec.type"))
                    .build()),
            Map.entry(new GroupResource("", "replicationcontrollers"), ResourceFields.builtIn(true)
                    .field("status.replicas", count("status.replicas"))
                    .build()),
            Map.entry(new GroupResource("", "events"), coreEvents()),
            Map.entry(new GroupResource("events.k8s.io", "events"), eventsApiEvents()),
            Map.entry(new GroupResource("batch", "jobs"), ResourceFields.builtIn(true)
                    .field("status.successful", count("status.succeeded"))
                    .rejectingWith(label -> "field label " + ValidationMessages.quote(label) + " not supported for Job")
                    .build()),
            Map.entry(new GroupResource("certificates.k8s.io", "certificatesigningrequests"), ResourceFields.builtIn(false)
                    .field("spec.signerName", text("spec.signerName"))
                    .build()),
            Map.entry(new GroupResource("certificates.k8s.io", "clustertrustbundles"), ResourceFields.builtIn(false)
                    .field("spec.signerName", text("spec.signerName"))
                    .build()),
            Map.entry(new GroupResource("resource.k8s.io", "resourceslices"), ResourceFields.builtIn(false)
                    .field("spec.nodeName", text("spec.nodeName"))
                    .field("spec.driver", text("spec.driver"))
                    .rejectingWith(label -> "field label not supported for resource.k8s.io/v1beta1, Kind=ResourceSlice: " + label)
                    .build()));

    private SelectableFields() {
    }

    /** The contract for a resource; {@code selectableFields} and {@code namespaced} only shape custom resources. */
    static ResourceFields of(String group, String plural, Set<String> selectableFields, boolean namespaced) {
        ResourceFields builtIn = BUILT_IN.get(new GroupResource(group, plural));
        if (builtIn != null) {
            return builtIn;
        }
        if (BUILT_IN_GROUPS.contains(group)) {
            return METADATA_ONLY;
        }
        return ResourceFields.customResource(selectableFields == null ? Set.of() : selectableFields, namespaced);
    }

    private static ResourceFields coreEvents() {
        ResourceFields.Builder builder = ResourceFields.builtIn(true);
        for (String reference : INVOLVED_OBJECT_FIELDS) {
            builder.field("involvedObject." + reference, text("involvedObject." + reference));
        }
        return builder
                .field("reason", text("reason"))
                .field("reportingComponent", text("reportingComponent"))
                .field("source", firstNonEmpty("source.component", "reportingComponent"))
                .field("type", text("type"))
                .build();
    }

    /** events.k8s.io/v1 is the core Event stored under new names: labels map back to the core ones. */
    private static ResourceFields eventsApiEvents() {
        ResourceFields.Builder builder = ResourceFields.builtIn(true);
        for (String reference : INVOLVED_OBJECT_FIELDS) {
            builder.alias("regarding." + reference, "involvedObject." + reference)
                    .value("involvedObject." + reference, text("regarding." + reference));
        }
        return builder
                .field("reason", text("reason"))
                .field("type", text("type"))
                .alias("reportingController", "reportingComponent")
                .value("reportingComponent", text("reportingController"))
                .field("source", firstNonEmpty("deprecatedSource.component", "reportingController"))
                .build();
    }
}
