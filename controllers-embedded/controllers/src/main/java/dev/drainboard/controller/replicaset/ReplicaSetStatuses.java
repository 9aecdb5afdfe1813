package dev.drainboard.controller.replicaset;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drainboard.kubevirt.KubeVirtConditions;
import dev.drainboard.kubevirt.KubeVirtMessages;
import dev.drainboard.kubevirt.api.Condition;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceReplicaSetStatus;

import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A replica set's status as it should be, and the merge patch that makes it so. Pure.
 *
 * <ul>
 *   <li>{@code replicas}, {@code readyReplicas}, {@code labelSelector}: from the plan (always written, 0 included,
 *       so {@code kubectl get vmirs} shows numbers);</li>
 *   <li>{@code ReplicaFailure} (as the examples of KubeVirt's {@code docs/replica-sets.md}; docs/behaviour.md,
 *       "Replica sets"): status True, reason {@code FailureCreate} or
 *       {@code FailureDelete}, the API error as message, {@code lastTransitionTime} when it became True (kept while it
 *       stays; reason and message follow the latest failure). Removed once a pass scales without error (or has
 *       nothing to scale); kept while scaling is not tried;</li>
 *   <li>{@code ReplicaPaused}: True, reason {@code Paused}, message {@code Controller got paused} while
 *       {@code spec.paused}; removed otherwise.</li>
 * </ul>
 * Other condition types are left as they are.
 */
public final class ReplicaSetStatuses {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private ReplicaSetStatuses() {
    }

    /** The conditions as they should be after this pass. */
    public static List<Condition> conditions(List<Condition> current, ScaleOutcome outcome, boolean paused, Instant now) {
        List<Condition> have = current == null ? List.of() : current;
        Optional<Condition> failure = find(have, KubeVirtConditions.REPLICA_FAILURE);
        Optional<Condition> pausedNow = find(have, KubeVirtConditions.REPLICA_PAUSED);
        List<Condition> result = new ArrayList<>();
        for (Condition c : have) {
            if (!KubeVirtConditions.REPLICA_FAILURE.equals(c.getType()) && !KubeVirtConditions.REPLICA_PAUSED.equals(c.getType())) {
                result.add(c);
            }
        }
        switch (outcome.kind()) {
            case NOT_ATTEMPTED -> failure.ifPresent(result::add);
            case SUCCEEDED -> {
            }
            case FAILED_CREATE, FAILED_DELETE -> {
                String reason = outcome.kind() == ScaleOutcome.Kind.FAILED_CREATE
                        ? KubeVirtConditions.REASON_FAILURE_CREATE : KubeVirtConditions.REASON_FAILURE_DELETE;
                Condition c = new Condition(KubeVirtConditions.REPLICA_FAILURE, KubeVirtConditions.STATUS_TRUE, reason, outcome.message());
                c.setLastTransitionTime(failure.filter(f -> KubeVirtConditions.STATUS_TRUE.equals(f.getStatus()))
                        .map(Condition::getLastTransitionTime).orElse(timestamp(now)));
                result.add(c);
            }
        }
        if (paused) {
            Condition c = new Condition(KubeVirtConditions.REPLICA_PAUSED, KubeVirtConditions.STATUS_TRUE, KubeVirtConditions.REASON_PAUSED, KubeVirtMessages.RS_CONTROLLER_PAUSED);
            c.setLastTransitionTime(pausedNow.map(Condition::getLastTransitionTime).orElse(timestamp(now)));
            result.add(c);
        }
        return result;
    }

    /** A merge patch for the status subresource, or null when nothing differs. */
    public static String patch(VirtualMachineInstanceReplicaSetStatus current, ReplicaSetPlan plan, List<Condition> conditions) {
        VirtualMachineInstanceReplicaSetStatus now = current == null ? new VirtualMachineInstanceReplicaSetStatus() : current;
        ObjectNode status = MAPPER.createObjectNode();
        if (!Objects.equals(now.getReplicas(), plan.active())) {
            status.put("replicas", plan.active());
        }
        if (!Objects.equals(now.getReadyReplicas(), plan.ready())) {
            status.put("readyReplicas", plan.ready());
        }
        if (!Objects.equals(now.getLabelSelector(), plan.labelSelector())) {
            status.put("labelSelector", plan.labelSelector());
        }
        List<Condition> have = now.getConditions() == null ? List.of() : now.getConditions();
        if (!sameConditions(have, conditions)) {
            if (conditions.isEmpty()) {
                status.putNull("conditions");
            } else {
                ArrayNode list = status.putArray("conditions");
                conditions.forEach(c -> list.add(MAPPER.valueToTree(c)));
            }
        }
        if (status.isEmpty()) {
            return null;
        }
        ObjectNode patch = MAPPER.createObjectNode();
        patch.set("status", status);
        return patch.toString();
    }

    private static boolean sameConditions(List<Condition> a, List<Condition> b) {
        if (a.size() != b.size()) {
            return false;
        }
        for (int i = 0; i < a.size(); i++) {
            Condition x = a.get(i);
            Condition y = b.get(i);
            if (!Objects.equals(x.getType(), y.getType()) || !Objects.equals(x.getStatus(), y.getStatus())
                    || !Objects.equals(x.getReason(), y.getReason()) || !Objects.equals(x.getMessage(), y.getMessage())
                    || !Objects.equals(x.getLastTransitionTime(), y.getLastTransitionTime())) {
                return false;
            }
        }
        return true;
    }

    private static Optional<Condition> find(List<Condition> conditions, String type) {
        return dev.drainboard.kubevirt.api.Conditions.find(conditions, type);
    }

    private static String timestamp(Instant now) {
        return DateTimeFormatter.ISO_INSTANT.format(now.truncatedTo(ChronoUnit.SECONDS));
    }
}
