package dev.drainboard.admission;

import dev.drainboard.kubevirt.KubeVirtAnnotations;
import dev.drainboard.kubevirt.KubeVirtConditions;
import dev.drainboard.kubevirt.KubeVirtLabels;
import dev.drainboard.kubevirt.api.Condition;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceSpec;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceStatus;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;

import java.util.List;

/** VMIs and pods as the eviction tables describe them. */
final class Fixtures {

    static final String NAMESPACE = "default";
    static final String NODE = "node01";

    private Fixtures() {
    }

    /** A running VMI on {@link #NODE}; {@code strategy} null leaves it to the cluster default. */
    static VirtualMachineInstance vmi(String name, String strategy, boolean migratable, boolean marked) {
        VirtualMachineInstance vmi = new VirtualMachineInstance();
        vmi.setMetadata(new ObjectMetaBuilder().withNamespace(NAMESPACE).withName(name).withUid("uid-" + name).build());
        VirtualMachineInstanceSpec spec = new VirtualMachineInstanceSpec();
        spec.setEvictionStrategy(strategy);
        vmi.setSpec(spec);
        VirtualMachineInstanceStatus status = new VirtualMachineInstanceStatus();
        status.setPhase("Running");
        status.setNodeName(NODE);
        status.setConditions(List.of(new Condition(KubeVirtConditions.LIVE_MIGRATABLE,
                migratable ? "True" : "False", migratable ? null : "NotMigratable", null)));
        if (marked) {
            status.setEvacuationNodeName(NODE);
        }
        vmi.setStatus(status);
        return vmi;
    }

    /** The launcher pod of {@code vmiName} on {@code node}. */
    static Pod launcher(String vmiName, String node) {
        return new PodBuilder()
                .withMetadata(new ObjectMetaBuilder()
                        .withNamespace(NAMESPACE)
                        .withName("virt-launcher-" + vmiName + "-abcde")
                        .addToLabels(KubeVirtLabels.APP, KubeVirtLabels.APP_VIRT_LAUNCHER)
                        .addToLabels(KubeVirtLabels.CREATED_BY, "uid-" + vmiName)
                        .addToAnnotations(KubeVirtAnnotations.DOMAIN, vmiName)
                        .build())
                .withNewSpec().withNodeName(node).endSpec()
                .build();
    }

    static EvictionRequest evictionOf(Pod pod, boolean dryRun) {
        return new EvictionRequest(pod.getMetadata().getNamespace(), pod.getMetadata().getName(), dryRun);
    }
}
