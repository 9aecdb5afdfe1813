package dev.drainboard.controller.pool;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drainboard.architecture.Pure;
import dev.drainboard.kubevirt.KubeVirtLabels;
import dev.drainboard.kubevirt.api.KubeVirtExtensionResource;
import dev.drainboard.kubevirt.api.TemplateMetadata;
import dev.drainboard.kubevirt.api.VirtualMachine;
import dev.drainboard.kubevirt.api.VirtualMachinePool;
import dev.drainboard.kubevirt.api.VirtualMachineSpec;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The VM a pool creates under a name (KubeVirt's {@code scaleOut}, {@code indexVMSpec},
 * {@code injectPoolRevisionLabelsIntoVM}, {@code poolOwnerRef}). Pure.
 *
 * <ul>
 *   <li>labels and annotations of {@code spec.virtualMachineTemplate.metadata}, its spec (a deep copy);</li>
 *   <li>label {@code kubevirt.io/vm-pool-revision-name: <pool>-<generation>} on the VM and its VMI template;</li>
 *   <li>each DataVolume template renamed {@code <name>-<index>}, and the volumes using it (DataVolume or PVC);
 *       ConfigMap and Secret (and cloud-init secret) references too when {@code spec.nameGeneration} asks;</li>
 *   <li>the pool as controller ({@code pool.kubevirt.io/v1alpha1 VirtualMachinePool}, blockOwnerDeletion).</li>
 * </ul>
 */
@Pure
public final class PoolTemplates {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private PoolTemplates() {
    }

    /** {@code <pool>-<generation>}: KubeVirt's revision name (it also stores a ControllerRevision of that name). */
    public static String revisionName(VirtualMachinePool pool) {
        Long generation = pool.getMetadata().getGeneration();
        return pool.getMetadata().getName() + "-" + (generation == null ? 0 : generation);
    }

    public static OwnerReference controllerRef(VirtualMachinePool pool) {
        return new OwnerReferenceBuilder()
                .withApiVersion(KubeVirtExtensionResource.POOL_GROUP + "/v1alpha1")
                .withKind(PoolDecision.KIND)
                .withName(pool.getMetadata().getName())
                .withUid(pool.getMetadata().getUid())
                .withController(true)
                .withBlockOwnerDeletion(true)
                .build();
    }

    public static VirtualMachine render(VirtualMachinePool pool, String name) {
        var template = pool.getSpec().getVirtualMachineTemplate();
        TemplateMetadata meta = template == null || template.getMetadata() == null ? new TemplateMetadata() : template.getMetadata();
        String revision = revisionName(pool);
        Map<String, String> labels = meta.getLabels() == null ? new LinkedHashMap<>() : new LinkedHashMap<>(meta.getLabels());
        labels.put(KubeVirtLabels.VM_POOL_REVISION_NAME, revision);
        VirtualMachine vm = new VirtualMachine();
        vm.setMetadata(new ObjectMetaBuilder()
                .withName(name)
                .withNamespace(pool.getMetadata().getNamespace())
                .withLabels(labels)
                .withAnnotations(meta.getAnnotations() == null ? null : new LinkedHashMap<>(meta.getAnnotations()))
                .withOwnerReferences(controllerRef(pool))
                .build());
        ObjectNode spec = template == null || template.getSpec() == null ? MAPPER.createObjectNode() : MAPPER.valueToTree(template.getSpec());
        indexSpec(spec, PoolDecision.index(vm), pool.getSpec().getAdditionalProperties().get("nameGeneration"));
        ObjectNode templateMeta = child(child(spec, "template"), "metadata");
        child(templateMeta, "labels").put(KubeVirtLabels.VM_POOL_REVISION_NAME, revision);
        vm.setSpec(MAPPER.convertValue(spec, VirtualMachineSpec.class));
        return vm;
    }

    /** KubeVirt's {@code indexVMSpec}, on the JSON tree of the VM's spec. */
    static void indexSpec(ObjectNode spec, int index, Object nameGeneration) {
        String suffix = "-" + index;
        Map<String, String> renamed = new HashMap<>();
        for (JsonNode dv : spec.path("dataVolumeTemplates")) {
            JsonNode meta = dv.path("metadata");
            if (meta instanceof ObjectNode m && m.hasNonNull("name")) {
                String old = m.get("name").asText();
                renamed.put(old, old + suffix);
                m.put("name", old + suffix);
            }
        }
        JsonNode generation = MAPPER.valueToTree(nameGeneration);
        boolean configMaps = generation != null && generation.path("appendIndexToConfigMapRefs").asBoolean(false);
        boolean secrets = generation != null && generation.path("appendIndexToSecretRefs").asBoolean(false);
        for (JsonNode volume : spec.path("template").path("spec").path("volumes")) {
            if (volume.get("persistentVolumeClaim") instanceof ObjectNode pvc) {
                rename(pvc, "claimName", renamed);
            } else if (volume.get("dataVolume") instanceof ObjectNode dv) {
                rename(dv, "name", renamed);
            } else if (volume.get("configMap") instanceof ObjectNode cm) {
                if (configMaps && cm.hasNonNull("name")) {
                    cm.put("name", cm.get("name").asText() + suffix);
                }
            } else if (volume.get("secret") instanceof ObjectNode secret) {
                if (secrets && secret.hasNonNull("secretName")) {
                    secret.put("secretName", secret.get("secretName").asText() + suffix);
                }
            } else if (secrets) {
                for (String source : new String[] {"cloudInitNoCloud", "cloudInitConfigDrive"}) {
                    for (String ref : new String[] {"userDataSecretRef", "networkDataSecretRef"}) {
                        if (volume.path(source).get(ref) instanceof ObjectNode r && r.hasNonNull("name")) {
                            r.put("name", r.get("name").asText() + suffix);
                        }
                    }
                }
            }
        }
    }

    private static void rename(ObjectNode node, String field, Map<String, String> renamed) {
        String to = node.hasNonNull(field) ? renamed.get(node.get(field).asText()) : null;
        if (to != null) {
            node.put(field, to);
        }
    }

    private static ObjectNode child(ObjectNode parent, String field) {
        return parent.get(field) instanceof ObjectNode o ? o : parent.putObject(field);
    }
}
