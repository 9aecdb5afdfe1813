package dev.drainboard.controller.vmi;

import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceSpec;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceStatus;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;

/** VMIs and pods for decision tables. */
final class Fixtures {

    static final String UID = "6b1c0f8e-1111-2222-3333-444455556666";

    private Fixtures() {
    }

    static VirtualMachineInstance vmi(String name) {
        VirtualMachineInstance vmi = new VirtualMachineInstance();
        vmi.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace("prod").withUid(UID).withResourceVersion("7").build());
        vmi.setSpec(new VirtualMachineInstanceSpec());
        return vmi;
    }

    static VirtualMachineInstance vmi(String phase, boolean deleting, String nodeName, String evacuationNodeName) {
        VirtualMachineInstance vmi = vmi("db-01");
        if (deleting) {
            vmi.getMetadata().setDeletionTimestamp("2025-01-01T00:00:00Z");
        }
        if (phase != null || nodeName != null || evacuationNodeName != null) {
            VirtualMachineInstanceStatus status = new VirtualMachineInstanceStatus();
            status.setPhase(phase);
            status.setNodeName(nodeName);
            status.setEvacuationNodeName(evacuationNodeName);
            vmi.setStatus(status);
        }
        return vmi;
    }

    /** A launcher pod owned by {@link #UID}. */
    static Pod pod(String name, String node, String phase, boolean ready, boolean terminating) {
        PodBuilder b = new PodBuilder()
                .withNewMetadata().withName(name).withNamespace("prod").withCreationTimestamp("2025-01-01T00:00:00Z")
                    .addNewOwnerReference().withApiVersion("kubevirt.io/v1").withKind("VirtualMachineInstance")
                    .withName("db-01").withUid(UID).withController(true).endOwnerReference()
                .endMetadata()
                .withNewSpec().withNodeName(node).endSpec()
                .withNewStatus().withPhase(phase)
                    .withConditions(new PodConditionBuilder().withType("Ready").withStatus(ready ? "True" : "False").build())
                .endStatus();
        Pod pod = b.build();
        if (terminating) {
            pod.getMetadata().setDeletionTimestamp("2025-01-01T00:01:00Z");
        }
        return pod;
    }
}
