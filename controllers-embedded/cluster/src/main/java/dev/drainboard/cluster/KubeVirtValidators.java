package dev.drainboard.cluster;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drainboard.cluster.apiserver.ApiServer;
import dev.drainboard.cluster.apiserver.ObjectValidator;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceReplicaSet;
import dev.drainboard.kubevirt.replicaset.ReplicaSetValidation;

import java.util.List;

/**
 * The checks KubeVirt's virt-api webhooks make on create and update, built into the embedded API server (which has
 * no virt-api): a VMIRS needs a template, a selector that parses and matches the template's labels, and
 * {@code replicas ≥ 0}. A bad one is refused with 422 Invalid and never stored.
 */
final class KubeVirtValidators {

    static final String REPLICA_SETS = "virtualmachineinstancereplicasets.kubevirt.io";
    private static final ObjectMapper JSON = new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

    private KubeVirtValidators() {
    }

    static void install(ApiServer api) {
        api.addValidator(REPLICA_SETS, KubeVirtValidators::replicaSet);
    }

    static List<ObjectValidator.Violation> replicaSet(ObjectNode object) {
        var replicas = object.path("spec").path("replicas");
        if (!replicas.isMissingNode() && !replicas.isNull() && !(replicas.isIntegralNumber() && replicas.canConvertToInt())) {
            return List.of(new ObjectValidator.Violation("spec.replicas", "Invalid value: " + replicas + ": must be an integer"));
        }
        VirtualMachineInstanceReplicaSet rs;
        try {
            rs = JSON.convertValue(object, VirtualMachineInstanceReplicaSet.class);
        } catch (IllegalArgumentException e) {
            // Another field of the wrong type (selector: "app=web"): say so, as the schema check of a real CRD would.
            return List.of(new ObjectValidator.Violation("spec", "Invalid value: cannot be read: " + firstLine(e.getMessage())));
        }
        return ReplicaSetValidation.validate(rs).stream()
                .map(e -> new ObjectValidator.Violation(e.field(), e.message()))
                .toList();
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "malformed";
        }
        int newline = message.indexOf('\n');
        return newline < 0 ? message : message.substring(0, newline);
    }
}
