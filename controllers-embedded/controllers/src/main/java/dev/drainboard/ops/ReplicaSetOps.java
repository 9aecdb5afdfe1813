package dev.drainboard.ops;

import dev.drainboard.kubevirt.api.VirtualMachineInstanceReplicaSet;
import dev.drainboard.kubevirt.replicaset.ReplicaSetValidation;
import io.fabric8.kubernetes.api.model.autoscaling.v1.Scale;
import io.fabric8.kubernetes.api.model.autoscaling.v1.ScaleBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.Resource;

import java.util.List;
import java.util.Objects;

/**
 * An operator's actions on VirtualMachineInstanceReplicaSets: scale one through its scale subresource (as
 * {@code kubectl scale} and an autoscaler do), create one. Bad input is refused before anything is written, with the
 * checks the API applies (KubeVirt's VMIRS webhook; the embedded API server runs the same ones).
 */
public final class ReplicaSetOps {

    static final String RESOURCE = "virtualmachineinstancereplicaset";

    private final KubernetesClient client;

    public ReplicaSetOps(KubernetesClient client) {
        this.client = Objects.requireNonNull(client);
    }

    /**
     * Reads a replica count as the operator typed it: a whole number, 0 or more.
     *
     * @throws IllegalArgumentException saying what is wrong with it
     */
    public static int parseReplicas(String text) {
        String t = text == null ? "" : text.strip();
        if (!t.matches("[+-]?[0-9]+")) {
            throw new IllegalArgumentException("--replicas must be a whole number, 0 or more; got '" + text + "'");
        }
        long value;
        try {
            value = Long.parseLong(t);
        } catch (NumberFormatException e) {
            value = t.startsWith("-") ? Long.MIN_VALUE : Long.MAX_VALUE;
        }
        if (value < 0) {
            throw new IllegalArgumentException("--replicas must be 0 or more; got " + t);
        }
        if (value > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("--replicas must be at most " + Integer.MAX_VALUE + "; got " + t);
        }
        return (int) value;
    }

    /**
     * Sets {@code spec.replicas} through the scale subresource; the replica set controller creates or deletes VMIs.
     * A count already in place is reported unchanged. Negative counts are refused and nothing is written.
     */
    public ReplicaSetChange scale(String namespace, String name, int replicas) {
        if (replicas < 0) {
            throw new OpsException(OpsException.Kind.REFUSED, "--replicas must be 0 or more; got " + replicas, null);
        }
        String what = RESOURCE + " \"" + name + "\" in namespace " + namespace;
        Resource<VirtualMachineInstanceReplicaSet> resource = client.resources(VirtualMachineInstanceReplicaSet.class)
                .inNamespace(namespace).withName(name);
        Scale current;
        try {
            current = resource.scale();
        } catch (KubernetesClientException e) {
            throw OpsException.from(what, e);
        }
        if (current == null) {
            throw new OpsException(OpsException.Kind.NOT_FOUND, what + " not found", null);
        }
        int before = current.getSpec() == null || current.getSpec().getReplicas() == null ? 0 : current.getSpec().getReplicas();
        if (before == replicas) {
            return new ReplicaSetChange(namespace, name, false, before, replicas,
                    RESOURCE + "/" + name + " already has " + replicas + " replica" + (replicas == 1 ? "" : "s"));
        }
        Scale wanted = new ScaleBuilder()
                .withNewMetadata().withName(name).withNamespace(namespace).endMetadata()
                .withNewSpec().withReplicas(replicas).endSpec()
                .build();
        try {
            resource.scale(wanted);
        } catch (KubernetesClientException e) {
            throw OpsException.from(what, e);
        }
        return new ReplicaSetChange(namespace, name, true, before, replicas,
                RESOURCE + "/" + name + " scaled from " + before + " to " + replicas);
    }

    /** Creates a replica set after the checks the API makes; an invalid one is refused and nothing is written. */
    public ReplicaSetChange create(VirtualMachineInstanceReplicaSet rs) {
        String name = rs.getMetadata() == null ? null : rs.getMetadata().getName();
        List<ReplicaSetValidation.FieldError> errors = ReplicaSetValidation.validate(rs);
        if (!errors.isEmpty()) {
            throw new OpsException(OpsException.Kind.REFUSED, RESOURCE + " \"" + name + "\" is invalid: "
                    + ReplicaSetValidation.describe(errors), null);
        }
        String namespace = rs.getMetadata().getNamespace() == null ? "default" : rs.getMetadata().getNamespace();
        VirtualMachineInstanceReplicaSet created;
        try {
            created = client.resources(VirtualMachineInstanceReplicaSet.class).inNamespace(namespace).resource(rs).create();
        } catch (KubernetesClientException e) {
            throw OpsException.from(RESOURCE + " \"" + name + "\"", e);
        }
        int replicas = created.getSpec().getReplicas() == null ? 1 : created.getSpec().getReplicas();
        return new ReplicaSetChange(namespace, created.getMetadata().getName(), true, 0, replicas,
                RESOURCE + "/" + created.getMetadata().getName() + " created");
    }
}
