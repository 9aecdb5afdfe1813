package dev.drainboard.ops;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drainboard.admission.MarkForEvacuation;
import dev.drainboard.kubevirt.DrainboardAnnotations;
import dev.drainboard.kubevirt.KubeVirtLabels;
import dev.drainboard.kubevirt.KubeVirtValues;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceMigration;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceMigrationSpec;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.http.HttpResponse;

import java.util.List;
import java.util.Objects;

/**
 * An operator's actions on one VMI: cancel its evacuation, migrate it, cancel a migration. Each reads what it
 * depends on, asks {@link VmiRules}, and writes once; a refusal is an {@link OpsException} of kind REFUSED
 * and writes nothing.
 */
public final class VmiOps {

    private final KubernetesClient client;

    public VmiOps(KubernetesClient client) {
        this.client = Objects.requireNonNull(client);
    }

    /**
     * Clears {@code status.evacuationNodeName}. The VMI CRD has no status subresource, so this is a JSON patch of
     * the VMI that tests the mark it read: a mark changed meanwhile fails the patch instead of being lost.
     */
    public VmiChange cancelEvacuation(String namespace, String name) {
        VirtualMachineInstance vmi = vmi(namespace, name);
        if (!vmi.isMarkedForEviction()) {
            return new VmiChange(namespace, name, false, "virtualmachineinstance/" + name + " is not marked for evacuation");
        }
        String marked = vmi.getStatus().getEvacuationNodeName();
        var config = ClusterReads.clusterConfig(client);
        String taintKey = config.migrations().nodeDrainTaintKey();
        VmiRules.cancelEvacuationRefusal(vmi, node(marked), taintKey).ifPresent(why -> {
            throw new OpsException(OpsException.Kind.REFUSED, why, null);
        });
        if (config.profile().servesEvacuateCancel()) {
            return evacuateCancel(namespace, name, marked);
        }
        ArrayNode patch = VirtApi.JSON.createArrayNode();
        patch.addObject().put("op", "test").put("path", MarkForEvacuation.PATH).put("value", marked);
        patch.addObject().put("op", "remove").put("path", MarkForEvacuation.PATH);
        try {
            client.resources(VirtualMachineInstance.class).inNamespace(namespace).withName(name)
                    .patch(PatchContext.of(PatchType.JSON), patch.toString());
        } catch (KubernetesClientException e) {
            if (e.getCode() == 409 || e.getCode() == 422) {
                throw new OpsException(OpsException.Kind.REFUSED, "virtualmachineinstance \"" + name
                        + "\": its evacuation mark changed meanwhile; look again", e);
            }
            throw OpsException.from("virtualmachineinstance \"" + name + "\"", e);
        }
        return new VmiChange(namespace, name, true,
                "virtualmachineinstance/" + name + " evacuation from node " + marked + " cancelled");
    }

    /** The VMIs marked for evacuation from {@code node}, sorted by namespace and name. */
    public List<VirtualMachineInstance> markedForEvacuation(String node) {
        try {
            return client.resources(VirtualMachineInstance.class).inAnyNamespace().list().getItems().stream()
                    .filter(v -> v.getStatus() != null && node.equals(v.getStatus().getEvacuationNodeName()))
                    .sorted(java.util.Comparator.comparing((VirtualMachineInstance v) -> v.getMetadata().getNamespace())
                            .thenComparing(v -> v.getMetadata().getName()))
                    .toList();
        } catch (KubernetesClientException e) {
            throw OpsException.from("virtualmachineinstances", e);
        }
    }

    /**
     * Clears every mark for {@code node}. The node's drain taint is checked once before anything is written, so a
     * refusal leaves every mark as it was.
     */
    public List<VmiChange> clearEvacuationMarks(String node) {
        List<VirtualMachineInstance> marked = markedForEvacuation(node);
        if (marked.isEmpty()) {
            return List.of();
        }
        String taintKey = ClusterReads.clusterConfig(client).migrations().nodeDrainTaintKey();
        VmiRules.cancelEvacuationRefusal(marked.getFirst(), node(node), taintKey).ifPresent(why -> {
            throw new OpsException(OpsException.Kind.REFUSED, why, null);
        });
        List<VmiChange> changes = new java.util.ArrayList<>();
        for (VirtualMachineInstance vmi : marked) {
            changes.add(cancelEvacuation(vmi.getMetadata().getNamespace(), vmi.getMetadata().getName()));
        }
        return changes;
    }

    /**
     * Where the cluster's KubeVirt serves it (v1.8; Drainboard's 1.7–1.8 profile on), the cancel goes through virt-api's
     * {@code PUT …/virtualmachineinstances/{name}/evacuate/cancel} with {@code EvacuateCancelOptions} naming the node
     * the mark was read for, as {@code virtctl evacuate-cancel} does; virt-api then tests and removes the mark.
     */
    private VmiChange evacuateCancel(String namespace, String name, String marked) {
        ObjectNode body = VirtApi.options("EvacuateCancelOptions").put("evacuationNodeName", marked);
        HttpResponse<String> response = VirtApi.put(client, namespace, "virtualmachineinstance", name, "evacuate/cancel", body);
        if (response.code() != 200) {
            throw new OpsException(VirtApi.refusalKind(response), "virtualmachineinstance \"" + name
                    + "\": evacuate/cancel answered " + response.code() + ": " + VirtApi.message(response), null);
        }
        return new VmiChange(namespace, name, true,
                "virtualmachineinstance/" + name + " evacuation from node " + marked + " cancelled");
    }

    /** Creates a VMIM for a running, live-migratable VMI without one; the migration controller does the rest. */
    public VmiChange migrate(String namespace, String name) {
        VirtualMachineInstance vmi = vmi(namespace, name);
        List<VirtualMachineInstanceMigration> migrations;
        try {
            migrations = client.resources(VirtualMachineInstanceMigration.class).inNamespace(namespace).list().getItems();
        } catch (KubernetesClientException e) {
            throw OpsException.from("virtualmachineinstancemigrations in namespace " + namespace, e);
        }
        VmiRules.migrateRefusal(vmi, migrations).ifPresent(why -> {
            throw new OpsException(OpsException.Kind.REFUSED, why, null);
        });
        VirtualMachineInstanceMigration created;
        try {
            created = client.resources(VirtualMachineInstanceMigration.class).inNamespace(namespace)
                    .resource(newMigration(namespace, name)).create();
        } catch (KubernetesClientException e) {
            throw OpsException.from("virtualmachineinstancemigration for VMI \"" + name + "\"", e);
        }
        return new VmiChange(namespace, created.getMetadata().getName(), true,
                "virtualmachineinstancemigration/" + created.getMetadata().getName() + " created");
    }

    /**
     * Deletes a VMIM: the migration controller cancels it before the hand-off to the target or aborts it after,
     * and the VMI stays on its source node. A finished migration is left alone.
     */
    public VmiChange cancelMigration(String namespace, String name) {
        VirtualMachineInstanceMigration vmim;
        try {
            vmim = client.resources(VirtualMachineInstanceMigration.class).inNamespace(namespace).withName(name).get();
        } catch (KubernetesClientException e) {
            throw OpsException.from("virtualmachineinstancemigration \"" + name + "\"", e);
        }
        if (vmim == null) {
            throw new OpsException(OpsException.Kind.NOT_FOUND, "virtualmachineinstancemigration \"" + name + "\" not found", null);
        }
        if (vmim.isFinal()) {
            return new VmiChange(namespace, name, false, "virtualmachineinstancemigration/" + name
                    + " already finished (" + vmim.getStatus().getPhase() + "): nothing to cancel");
        }
        if (vmim.getMetadata().getDeletionTimestamp() != null) {
            return new VmiChange(namespace, name, false, "virtualmachineinstancemigration/" + name + " already being cancelled");
        }
        try {
            client.resources(VirtualMachineInstanceMigration.class).inNamespace(namespace).withName(name).delete();
        } catch (KubernetesClientException e) {
            throw OpsException.from("virtualmachineinstancemigration \"" + name + "\"", e);
        }
        return new VmiChange(namespace, name, true, "virtualmachineinstancemigration/" + name + " deleted (migration cancelled)");
    }

    /** A VMIM as {@code virtctl migrate} has the API create it ({@code kubevirt-migrate-vm-…}, no priority), with Drainboard's cause: a person asked for it. */
    static VirtualMachineInstanceMigration newMigration(String namespace, String vmiName) {
        VirtualMachineInstanceMigration m = new VirtualMachineInstanceMigration();
        m.setMetadata(new ObjectMetaBuilder()
                .withGenerateName(KubeVirtValues.VIRTCTL_MIGRATE_GENERATE_NAME)
                .withNamespace(namespace)
                .addToAnnotations(DrainboardAnnotations.MIGRATION_CAUSE, DrainboardAnnotations.CAUSE_USER_REQUEST)
                .addToLabels(KubeVirtLabels.MIGRATION_SELECTOR, vmiName)
                .build());
        m.setSpec(new VirtualMachineInstanceMigrationSpec(vmiName));
        return m;
    }

    private VirtualMachineInstance vmi(String namespace, String name) {
        return VirtApi.vmi(client, namespace, name);
    }

    /** The node, or null when it is gone. */
    private Node node(String name) {
        try {
            return client.nodes().withName(name).get();
        } catch (KubernetesClientException e) {
            throw OpsException.from("node \"" + name + "\"", e);
        }
    }
}
