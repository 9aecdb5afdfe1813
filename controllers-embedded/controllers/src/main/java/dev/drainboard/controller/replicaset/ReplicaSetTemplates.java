package dev.drainboard.controller.replicaset;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.drainboard.kubevirt.api.KubeVirtResource;
import dev.drainboard.kubevirt.api.TemplateMetadata;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceReplicaSet;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceSpec;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;

import java.util.LinkedHashMap;

/** Renders the VMIs a replica set creates, and its controller reference. Pure. */
public final class ReplicaSetTemplates {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private ReplicaSetTemplates() {
    }

    /**
     * A new VMI from the template: its labels and annotations, a deep copy of its spec, the set as controller.
     * {@code generateName} is the template's {@code metadata.name}, else its {@code generateName}, else the set's name
     * as it is (KubeVirt appends no dash: set {@code web} makes VMIs like {@code webx7k2p}).
     */
    public static VirtualMachineInstance render(VirtualMachineInstanceReplicaSet rs) {
        var template = rs.getSpec().getTemplate();
        TemplateMetadata meta = template.getMetadata() == null ? new TemplateMetadata() : template.getMetadata();
        String prefix = notBlank(meta.getName()) ? meta.getName()
                : notBlank(meta.getGenerateName()) ? meta.getGenerateName() : rs.getMetadata().getName();
        VirtualMachineInstance vmi = new VirtualMachineInstance();
        vmi.setMetadata(new ObjectMetaBuilder()
                .withGenerateName(prefix)
                .withNamespace(rs.getMetadata().getNamespace())
                .withLabels(meta.getLabels() == null ? null : new LinkedHashMap<>(meta.getLabels()))
                .withAnnotations(meta.getAnnotations() == null ? null : new LinkedHashMap<>(meta.getAnnotations()))
                .withOwnerReferences(controllerRef(rs))
                .build());
        // Through JSON: the template's unmodelled fields come along and the cached set is never shared.
        vmi.setSpec(template.getSpec() == null ? new VirtualMachineInstanceSpec()
                : MAPPER.convertValue(template.getSpec(), VirtualMachineInstanceSpec.class));
        return vmi;
    }

    /** The reference a created or adopted VMI carries: the set, as its controller, blocking the set's deletion. */
    public static OwnerReference controllerRef(VirtualMachineInstanceReplicaSet rs) {
        return new OwnerReferenceBuilder()
                .withApiVersion(KubeVirtResource.API_VERSION)
                .withKind(ReplicaSetVmis.KIND)
                .withName(rs.getMetadata().getName())
                .withUid(rs.getMetadata().getUid())
                .withController(true)
                .withBlockOwnerDeletion(true)
                .build();
    }

    private static boolean notBlank(String s) {
        return s != null && !s.isBlank();
    }
}
