package dev.drainboard.ops;

import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceMigration;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.http.HttpResponse;

import java.util.List;
import java.util.Objects;

/**
 * An operator's actions on one VirtualMachine: start, stop and restart through virt-api's
 * {@code PUT /apis/subresources.kubevirt.io/v1/namespaces/{ns}/virtualmachines/{name}/start|stop|restart}, as
 * {@code virtctl} does, so virt-api decides what the run strategy allows and its refusal is shown as it came; and
 * migrating a VMI to a chosen node. A refusal is an {@link OpsException} of kind REFUSED and writes nothing.
 */
public final class VmOps {

    /** What the console and the CLI can ask of a VM. */
    public enum Action {
        START("start", "StartOptions", "started"),
        STOP("stop", "StopOptions", "stopped"),
        RESTART("restart", "RestartOptions", "restarted");

        private final String path;
        private final String kind;
        private final String done;

        Action(String path, String kind, String done) {
            this.path = path;
            this.kind = kind;
            this.done = done;
        }

        public String path() {
            return path;
        }
    }

    private final KubernetesClient client;

    public VmOps(KubernetesClient client) {
        this.client = Objects.requireNonNull(client);
    }

    /** Asks virt-api to start, stop or restart the VM; its answer 202 means the request is queued or the run strategy switched. */
    public VmiChange act(String namespace, String name, Action action) {
        HttpResponse<String> response = VirtApi.put(client, namespace, "virtualmachine", name, action.path,
                VirtApi.options(action.kind));
        if (response.code() / 100 != 2) {
            String message = VirtApi.message(response);
            throw new OpsException(VirtApi.refusalKind(response), message.isEmpty() ? "virtualmachine \"" + name + "\": "
                    + action.path + " answered " + response.code() : message, null);
        }
        return new VmiChange(namespace, name, true, "virtualmachine/" + name + " " + action.done);
    }

    /** Where the VMI could go, node by node ({@link MigrationTargets#fits}). */
    public List<MigrationTargets.Fit> targets(String namespace, String vmiName) {
        VirtualMachineInstance vmi = vmi(namespace, vmiName);
        PlacementInputs cluster = ClusterReads.placement(client);
        return MigrationTargets.fits(vmi, cluster.nodes(), cluster.pods());
    }

    /**
     * Creates a VMIM with {@code addedNodeSelector: {kubernetes.io/hostname: node}} (KubeVirt 1.6+), after
     * {@link VmiRules#migrateRefusal} and after {@link PlacementDecision} says the target fits there; otherwise
     * refused with the reason, nothing written.
     */
    public VmiChange migrateTo(String namespace, String vmiName, String node) {
        var profile = ClusterReads.clusterConfig(client).profile();
        if (!profile.migratesToAChosenNode()) {
            throw new OpsException(OpsException.Kind.REFUSED, "migrating to a chosen node needs KubeVirt 1.6 or later "
                    + "(the migration's addedNodeSelector); this cluster runs " + profile.label(), null);
        }
        VirtualMachineInstance vmi = vmi(namespace, vmiName);
        List<VirtualMachineInstanceMigration> migrations;
        try {
            migrations = client.resources(VirtualMachineInstanceMigration.class).inNamespace(namespace).list().getItems();
        } catch (KubernetesClientException e) {
            throw OpsException.from("virtualmachineinstancemigrations in namespace " + namespace, e);
        }
        VmiRules.migrateRefusal(vmi, migrations).ifPresent(why -> {
            throw new OpsException(OpsException.Kind.REFUSED, why, null);
        });
        if (node.equals(vmi.getStatus() == null ? null : vmi.getStatus().getNodeName())) {
            throw new OpsException(OpsException.Kind.REFUSED, "virtualmachineinstance \"" + vmiName + "\" already runs on node " + node, null);
        }
        PlacementInputs cluster = ClusterReads.placement(client);
        if (cluster.nodes().stream().noneMatch(n -> n.getMetadata().getName().equals(node))) {
            throw new OpsException(OpsException.Kind.NOT_FOUND, "node \"" + node + "\" not found", null);
        }
        MigrationTargets.Fit fit = MigrationTargets.fit(vmi, node, cluster.nodes(), cluster.pods());
        if (!fit.fits()) {
            throw new OpsException(OpsException.Kind.REFUSED, "virtualmachineinstance \"" + vmiName + "\" does not fit on node "
                    + node + ": " + fit.why(), null);
        }
        VirtualMachineInstanceMigration created;
        try {
            created = client.resources(VirtualMachineInstanceMigration.class).inNamespace(namespace)
                    .resource(MigrationTargets.migrationTo(namespace, vmiName, node)).create();
        } catch (KubernetesClientException e) {
            throw OpsException.from("virtualmachineinstancemigration for VMI \"" + vmiName + "\"", e);
        }
        return new VmiChange(namespace, created.getMetadata().getName(), true, "virtualmachineinstancemigration/"
                + created.getMetadata().getName() + " created (to node " + node + ")");
    }

    private VirtualMachineInstance vmi(String namespace, String name) {
        return VirtApi.vmi(client, namespace, name);
    }
}
