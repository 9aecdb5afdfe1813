package dev.drainboard.cluster.apiserver.patch;

import java.util.Map;
import java.util.function.Consumer;

import static dev.drainboard.cluster.apiserver.patch.PatchSchema.elements;
import static dev.drainboard.cluster.apiserver.patch.PatchSchema.field;

/**
 * Patch schemas of the built-in kinds Drainboard serves, transcribed from the {@code patchStrategy} and
 * {@code patchMergeKey} struct tags of k8s.io/api (and {@code +listMapKey} markers for server-side apply).
 * Lists not named here have no patch strategy there, so they are atomic (tolerations, taints, CRD versions...).
 */
public final class PatchSchemas {

    private static final Map<String, PatchSchema> BY_GROUP_KIND = Map.ofEntries(
            Map.entry("/Pod", schema(b -> {
                podSpec(b, "spec");
                podStatus(b, "status");
            })),
            Map.entry("/Node", schema(b -> b
                    .mergePrimitives("spec.podCIDRs")
                    .mergeByKey("status.conditions", "type")
                    .mergeByKey("status.addresses", "type"))),
            Map.entry("/Namespace", schema(b -> b.mergeByKey("status.conditions", "type"))),
            Map.entry("/Service", schema(b -> b
                    .list("spec.ports", ListStrategy.mergeByKey("port").withListMapKey("protocol", "TCP"))
                    .mergeByKey("status.conditions", "type"))),
            Map.entry("/ConfigMap", schema(b -> { })),
            Map.entry("/Secret", schema(b -> { })),
            Map.entry("/Event", schema(b -> { })),
            Map.entry("events.k8s.io/Event", schema(b -> { })),
            Map.entry("/PersistentVolumeClaim", schema(b -> b.mergeByKey("status.conditions", "type"))),
            Map.entry("/PersistentVolume", schema(b -> { })),
            Map.entry("apps/Deployment", schema(b -> {
                podTemplate(b, "spec.template");
                b.retainKeys("spec.strategy").mergeByKey("status.conditions", "type");
            })),
            Map.entry("apps/DaemonSet", workloadWithConditions()),
            Map.entry("apps/ReplicaSet", workloadWithConditions()),
            Map.entry("apps/StatefulSet", workloadWithConditions()),
            Map.entry("policy/PodDisruptionBudget", schema(b -> b.mergeByKey("status.conditions", "type"))),
            Map.entry("coordination.k8s.io/Lease", schema(b -> { })),
            Map.entry("apiextensions.k8s.io/CustomResourceDefinition", schema(b -> { })),
            Map.entry("admissionregistration.k8s.io/ValidatingWebhookConfiguration",
                    schema(b -> b.mergeByKey("webhooks", "name"))),
            Map.entry("admissionregistration.k8s.io/MutatingWebhookConfiguration",
                    schema(b -> b.mergeByKey("webhooks", "name"))));

    /** Kinds we know nothing about: every list atomic, except the ObjectMeta lists every object has. */
    private static final PatchSchema UNKNOWN_KIND = schema(b -> { });

    private PatchSchemas() {
    }

    /** The schema for a kind, matched on its API group and kind (the version does not change patch tags). */
    public static PatchSchema forKind(String apiVersion, String kind) {
        return BY_GROUP_KIND.getOrDefault(group(apiVersion) + "/" + kind, UNKNOWN_KIND);
    }

    private static String group(String apiVersion) {
        if (apiVersion == null) {
            return "";
        }
        int slash = apiVersion.indexOf('/');
        return slash < 0 ? "" : apiVersion.substring(0, slash);
    }

    private static PatchSchema schema(Consumer<PatchSchema.Builder> kindSpecific) {
        PatchSchema.Builder builder = PatchSchema.builder();
        objectMeta(builder, "metadata");
        kindSpecific.accept(builder);
        return builder.build();
    }

    private static PatchSchema workloadWithConditions() {
        return schema(b -> {
            podTemplate(b, "spec.template");
            b.mergeByKey("status.conditions", "type");
        });
    }

    private static void objectMeta(PatchSchema.Builder b, String at) {
        b.mergePrimitives(field(at, "finalizers"))
                .mergeByKey(field(at, "ownerReferences"), "uid");
    }

    private static void podTemplate(PatchSchema.Builder b, String at) {
        objectMeta(b, field(at, "metadata"));
        podSpec(b, field(at, "spec"));
    }

    private static void podSpec(PatchSchema.Builder b, String at) {
        b.mergeByKeyRetainingKeys(field(at, "volumes"), "name")
                .mergeByKey(field(at, "imagePullSecrets"), "name")
                .mergeByKey(field(at, "hostAliases"), "ip")
                .list(field(at, "topologySpreadConstraints"),
                        ListStrategy.mergeByKey("topologyKey").withListMapKey("whenUnsatisfiable", null))
                .mergeByKey(field(at, "schedulingGates"), "name")
                .mergeByKeyRetainingKeys(field(at, "resourceClaims"), "name");
        for (String containers : new String[] {"initContainers", "containers", "ephemeralContainers"}) {
            String path = field(at, containers);
            b.mergeByKey(path, "name");
            container(b, elements(path));
        }
    }

    private static void container(PatchSchema.Builder b, String at) {
        b.list(field(at, "ports"), ListStrategy.mergeByKey("containerPort").withListMapKey("protocol", "TCP"))
                .mergeByKey(field(at, "env"), "name")
                .mergeByKey(field(at, "volumeMounts"), "mountPath")
                .mergeByKey(field(at, "volumeDevices"), "devicePath");
    }

    private static void podStatus(PatchSchema.Builder b, String at) {
        b.mergeByKey(field(at, "conditions"), "type")
                .mergeByKey(field(at, "podIPs"), "ip")
                .mergeByKey(field(at, "hostIPs"), "ip")
                .mergeByKeyRetainingKeys(field(at, "resourceClaimStatuses"), "name");
    }
}
