package dev.drainboard.controller.vm;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.drainboard.kubevirt.api.KubeVirtResource;
import dev.drainboard.kubevirt.api.TemplateMetadata;
import dev.drainboard.kubevirt.api.VirtualMachine;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceSpec;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;

import java.util.LinkedHashMap;

/** Renders the VMI a VM runs: its template, named after the VM, controlled by it. Pure. */
public final class VmiTemplates {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private VmiTemplates() {
    }

    public static VirtualMachineInstance render(VirtualMachine vm) {
        var template = vm.getSpec() == null ? null : vm.getSpec().getTemplate();
        TemplateMetadata meta = template == null || template.getMetadata() == null ? new TemplateMetadata() : template.getMetadata();
        VirtualMachineInstance vmi = new VirtualMachineInstance();
        vmi.setMetadata(new ObjectMetaBuilder()
                .withName(vm.getMetadata().getName())
                .withNamespace(vm.getMetadata().getNamespace())
                .withLabels(meta.getLabels() == null ? null : new LinkedHashMap<>(meta.getLabels()))
                .withAnnotations(meta.getAnnotations() == null ? null : new LinkedHashMap<>(meta.getAnnotations()))
                .withOwnerReferences(new OwnerReferenceBuilder()
                        .withApiVersion(KubeVirtResource.API_VERSION)
                        .withKind("VirtualMachine")
                        .withName(vm.getMetadata().getName())
                        .withUid(vm.getMetadata().getUid())
                        .withController(true)
                        .withBlockOwnerDeletion(true)
                        .build())
                .build());
        // A deep copy through JSON: the template's unmodelled fields come along, the cached VM is never shared.
        vmi.setSpec(template == null || template.getSpec() == null ? new VirtualMachineInstanceSpec()
                : MAPPER.convertValue(template.getSpec(), VirtualMachineInstanceSpec.class));
        return vmi;
    }
}
