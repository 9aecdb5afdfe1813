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
 * {@code replicas ≥ 0}. And what the schemas of KubeVirt's CRDs require (our CRDs keep every field, so the API server
 * cannot check it from them): a VirtualMachineInstance and a VirtualMachine have a {@code spec} (KubeVirt's Go types
 * declare it {@code json:"spec" valid:"required"}), a VirtualMachine's spec a {@code template}. A bad one is refused
 * with 422 Invalid, worded as kube-apiserver words a schema violation, and never stored; a scenario holding one is
 * refused.
 */
final class KubeVirtValidators {

    static final String REPLICA_SETS = "virtualmachineinstancereplicasets.kubevirt.io";
    static final String INSTANCES = "virtualmachineinstances.kubevirt.io";
    static final String MACHINES = "virtualmachines.kubevirt.io";
    private static final ObjectMapper JSON = new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

    private KubeVirtValidators() {
    }

    static void install(ApiServer api) {
        api.addValidator(REPLICA_SETS, KubeVirtValidators::replicaSet);
        api.addValidator(INSTANCES, object -> required(object, "spec"));
        api.addValidator(MACHINES, object -> {
            List<ObjectValidator.Violation> spec = required(object, "spec");
            return spec.isEmpty() ? required((ObjectNode) object.get("spec"), "template", "spec.template") : spec;
        });
    }

    /** An object field the schema requires: missing or null is "Required value", another type "must be of type object". */
    static List<ObjectValidator.Violation> required(ObjectNode object, String field) {
        return required(object, field, field);
    }

    private static List<ObjectValidator.Violation> required(ObjectNode object, String field, String path) {
        var value = object.get(field);
        // An empty "spec:" line of YAML reaches us as "" (the scenario reader), as null through kubectl.
        if (value == null || value.isNull() || (value.isTextual() && value.asText().isEmpty())) {
            return List.of(new ObjectValidator.Violation(path, "Required value"));
        }
        if (!value.isObject()) {
            String type = value.isArray() ? "array" : value.isTextual() ? "string" : value.isBoolean() ? "boolean"
                    : value.isIntegralNumber() ? "integer" : "number";
            return List.of(new ObjectValidator.Violation(path, "Invalid value: \"" + type + "\": " + path
                    + " in body must be of type object: \"" + type + "\""));
        }
        return List.of();
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
