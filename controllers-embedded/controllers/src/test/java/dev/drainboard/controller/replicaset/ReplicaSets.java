package dev.drainboard.controller.replicaset;

import dev.drainboard.kubevirt.api.Condition;
import dev.drainboard.kubevirt.api.MigrationState;
import dev.drainboard.kubevirt.api.TemplateMetadata;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceReplicaSet;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceReplicaSetSpec;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceSpec;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceStatus;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceTemplateSpec;
import dev.drainboard.kubevirt.replicaset.ReplicaSetSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Builders of replica sets and VMIs for the pure tests. */
final class ReplicaSets {

    static final String RS_UID = "rs-uid";

    private ReplicaSets() {
    }

    static VirtualMachineInstanceReplicaSet rs(Integer replicas) {
        VirtualMachineInstanceReplicaSet rs = new VirtualMachineInstanceReplicaSet();
        rs.setMetadata(new ObjectMetaBuilder().withName("web").withNamespace("prod").withUid(RS_UID).build());
        VirtualMachineInstanceReplicaSetSpec spec = new VirtualMachineInstanceReplicaSetSpec();
        spec.setReplicas(replicas);
        spec.setSelector(new LabelSelectorBuilder().withMatchLabels(Map.of("app", "web")).build());
        VirtualMachineInstanceTemplateSpec template = new VirtualMachineInstanceTemplateSpec();
        TemplateMetadata meta = new TemplateMetadata();
        meta.setLabels(Map.of("app", "web"));
        template.setMetadata(meta);
        VirtualMachineInstanceSpec vmiSpec = new VirtualMachineInstanceSpec();
        vmiSpec.setEvictionStrategy("LiveMigrate");
        template.setSpec(vmiSpec);
        spec.setTemplate(template);
        rs.setSpec(spec);
        return rs;
    }

    static ReplicaSetSelector selector(VirtualMachineInstanceReplicaSet rs) {
        try {
            return ReplicaSetSelector.parse(rs.getSpec().getSelector());
        } catch (ReplicaSetSelector.InvalidSelectorException e) {
            throw new AssertionError(e);
        }
    }

    /** A VMI of the set: labelled app=web, controlled by it, in this phase (null: unset), Ready as given. */
    static VirtualMachineInstance vmi(String name, String phase, Boolean ready) {
        VirtualMachineInstance vmi = new VirtualMachineInstance();
        vmi.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace("prod").withUid("uid-" + name)
                .withLabels(Map.of("app", "web"))
                .withCreationTimestamp("2025-01-01T00:00:00Z")
                .withOwnerReferences(new OwnerReferenceBuilder().withApiVersion("kubevirt.io/v1")
                        .withKind("VirtualMachineInstanceReplicaSet").withName("web").withUid(RS_UID).withController(true).build())
                .build());
        VirtualMachineInstanceStatus status = new VirtualMachineInstanceStatus();
        status.setPhase(phase);
        if (ready != null) {
            status.setConditions(new ArrayList<>(List.of(new Condition("Ready", ready ? "True" : "False", null, null))));
        }
        if (phase != null && !phase.equals("Pending") && !phase.equals("Scheduling")) {
            status.setNodeName("node01");
        }
        vmi.setStatus(status);
        return vmi;
    }

    static VirtualMachineInstance running(String name) {
        return vmi(name, "Running", true);
    }

    static VirtualMachineInstance orphan(VirtualMachineInstance vmi) {
        vmi.getMetadata().setOwnerReferences(null);
        return vmi;
    }

    static VirtualMachineInstance ownedBy(VirtualMachineInstance vmi, String kind, String uid) {
        vmi.getMetadata().setOwnerReferences(List.of(new OwnerReferenceBuilder().withKind(kind).withName("other")
                .withUid(uid).withController(true).build()));
        return vmi;
    }

    static VirtualMachineInstance labels(VirtualMachineInstance vmi, Map<String, String> labels) {
        vmi.getMetadata().setLabels(labels);
        return vmi;
    }

    static VirtualMachineInstance deleting(VirtualMachineInstance vmi) {
        vmi.getMetadata().setDeletionTimestamp("2025-01-01T01:00:00Z");
        return vmi;
    }

    static VirtualMachineInstance created(VirtualMachineInstance vmi, String timestamp) {
        vmi.getMetadata().setCreationTimestamp(timestamp);
        return vmi;
    }

    static VirtualMachineInstance unscheduled(VirtualMachineInstance vmi) {
        vmi.getStatus().setNodeName(null);
        return vmi;
    }

    static VirtualMachineInstance migrating(VirtualMachineInstance vmi) {
        MigrationState m = new MigrationState();
        m.setMigrationUid("vmim-" + vmi.getMetadata().getName());
        m.setSourceNode("node01");
        m.setTargetNode("node02");
        vmi.getStatus().setMigrationState(m);
        return vmi;
    }

    static VirtualMachineInstance podTerminating(VirtualMachineInstance vmi) {
        vmi.getStatus().setConditions(new ArrayList<>(List.of(new Condition("Ready", "False", "PodTerminating", null))));
        return vmi;
    }

    static List<String> names(List<VirtualMachineInstance> vmis) {
        return vmis.stream().map(v -> v.getMetadata().getName()).toList();
    }
}
