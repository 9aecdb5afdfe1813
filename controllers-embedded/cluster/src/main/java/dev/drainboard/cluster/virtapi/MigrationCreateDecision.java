package dev.drainboard.cluster.virtapi;

import com.fasterxml.jackson.databind.JsonNode;
import dev.drainboard.architecture.Pure;

import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * virt-api's migration create admitter (pkg/virt-api/webhooks/validating-webhook/admitters/migration-create-admitter.go),
 * in its order: {@code spec.vmiName} is required; {@code spec.priority} is virt-controller's alone (v1.7–v1.8: and
 * only with the {@code MigrationPriorityQueue} gate; before v1.7 the field did not exist); the VMI must exist,
 * must not be final (Succeeded, Failed), must not be {@code LiveMigratable=False} (a decentralized migration tolerates
 * {@code DisksNotLiveMigratable}); no other migration of the VMI may be in flight (not Succeeded or Failed); a
 * decentralized migration needs the {@code DecentralizedLiveMigration} feature gate. A VMI that is still Pending or
 * Scheduling is accepted, as KubeVirt accepts it (the migration then fails in the controller).
 */
@Pure
public final class MigrationCreateDecision {

    private static final Set<String> FINAL = Set.of("Succeeded", "Failed");

    private MigrationCreateDecision() {
    }

    /**
     * What the KubeVirt release makes of {@code spec.priority}: {@code NO_FIELD} before v1.7 (no check),
     * {@code GATE_OFF} in v1.7–v1.8 without the {@code MigrationPriorityQueue} gate (refused for everyone),
     * {@code CONTROLLER_ONLY} with the queue on (virt-controller's service account alone may set it).
     */
    public enum PriorityRule {
        NO_FIELD, GATE_OFF, CONTROLLER_ONLY
    }

    /** A user that is not virt-controller, on the current release (v1.9: the queue is GA). */
    public static Optional<Denial> decide(JsonNode migration, JsonNode vmi, List<? extends JsonNode> migrations,
                                          boolean priorityAllowed, boolean decentralizedGate) {
        return decide(migration, vmi, migrations, PriorityRule.CONTROLLER_ONLY, priorityAllowed, decentralizedGate);
    }

    /**
     * @param vmi        the VMI named by {@code spec.vmiName}, null when there is none
     * @param migrations the VMIMs in the namespace labelled {@code kubevirt.io/vmi-name=<vmiName>}
     * @param priority   what the release makes of {@code spec.priority}
     * @param fromController whether the requester is virt-controller: a KubeVirt service account of the install
     *                   namespace whose name ends in {@code kubevirt-controller} ({@link #isVirtController})
     * @param decentralizedGate whether the {@code DecentralizedLiveMigration} feature gate is on
     */
    public static Optional<Denial> decide(JsonNode migration, JsonNode vmi, List<? extends JsonNode> migrations,
                                          PriorityRule priority, boolean fromController, boolean decentralizedGate) {
        String webhook = VirtApiWebhooks.MIGRATION_CREATE_VALIDATOR;
        JsonNode spec = migration.path("spec");
        String vmiName = spec.path("vmiName").asText("");
        if (vmiName.isEmpty()) {
            return Optional.of(Denial.invalid(webhook, List.of(new Cause(Cause.REQUIRED, "vmiName is missing", "spec.vmiName"))));
        }
        if (spec.hasNonNull("priority") && priority == PriorityRule.GATE_OFF) {
            return Optional.of(Denial.invalid(webhook, List.of(new Cause("FieldValueForbidden",
                    "MigrationPriorityQueue feature gate is not enabled in kubevirt resource", "spec.migrationPriority"))));
        }
        if (spec.hasNonNull("priority") && priority == PriorityRule.CONTROLLER_ONLY && !fromController) {
            return Optional.of(Denial.invalid(webhook, List.of(new Cause("FieldValueForbidden",
                    "Migration priority queue, only virt-controller is allowed to set priority field", "spec.migrationPriority"))));
        }
        String namespace = migration.path("metadata").path("namespace").asText("");
        if (vmi == null) {
            return Optional.of(Denial.error(webhook, "the VMI \"" + namespace + "/" + vmiName + "\" does not exist"));
        }
        if (FINAL.contains(vmi.path("status").path("phase").asText(""))) {
            return Optional.of(Denial.error(webhook, "Cannot migrate VMI in finalized state."));
        }
        boolean decentralized = spec.hasNonNull("sendTo") || spec.hasNonNull("receive");
        for (JsonNode c : vmi.path("status").path("conditions")) {
            if (c.path("type").asText().equals("LiveMigratable") && c.path("status").asText().equals("False")) {
                String reason = c.path("reason").asText("");
                if (reason.equals("DisksNotLiveMigratable") && decentralized) {
                    continue;
                }
                return Optional.of(Denial.error(webhook, "Cannot migrate VMI, Reason: " + reason + ", Message: "
                        + c.path("message").asText("")));
            }
        }
        for (JsonNode other : migrations) {
            String phase = other.path("status").path("phase").asText("");
            if (FINAL.contains(phase)) {
                continue;
            }
            return Optional.of(Denial.error(webhook, "in-flight migration detected. Active migration job ("
                    + other.path("metadata").path("uid").asText("") + ") is currently already in progress for VMI "
                    + other.path("spec").path("vmiName").asText("") + "."));
        }
        if (decentralized) {
            if (!decentralizedGate) {
                return Optional.of(Denial.invalid(webhook, List.of(new Cause(Cause.NOT_SUPPORTED,
                        "DecentralizedLiveMigration feature gate is not enabled in kubevirt resource", null))));
            }
            String sendTo = spec.path("sendTo").path("migrationID").asText("");
            String receive = spec.path("receive").path("migrationID").asText("");
            if (spec.hasNonNull("sendTo") && spec.hasNonNull("receive") && !sendTo.equals(receive)) {
                return Optional.of(Denial.invalid(webhook, List.of(new Cause(Cause.INVALID,
                        "sendTo migrationID " + sendTo + " does not match receive migrationID " + receive, null))));
            }
        }
        return Optional.empty();
    }

    /**
     * Whether a request's user is virt-controller as the admitter checks it ({@code hasRequestOriginatedFromVirtController}
     * with {@code webhooks.KubeVirtServiceAccounts}): one of KubeVirt's service accounts of its install namespace
     * ({@code kubevirt-apiserver}, {@code kubevirt-controller}, {@code kubevirt-handler},
     * {@code kubevirt-synchronization-controller}) whose name ends in {@code kubevirt-controller}.
     */
    public static boolean isVirtController(String username, String installNamespace) {
        String prefix = "system:serviceaccount:" + installNamespace + ":";
        Set<String> kubeVirtAccounts = Set.of(prefix + "kubevirt-apiserver", prefix + "kubevirt-controller",
                prefix + "kubevirt-handler", prefix + "kubevirt-synchronization-controller");
        return username != null && kubeVirtAccounts.contains(username) && username.endsWith("kubevirt-controller");
    }
}
