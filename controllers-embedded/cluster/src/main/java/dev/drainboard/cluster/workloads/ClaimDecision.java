package dev.drainboard.cluster.workloads;

import com.fasterxml.jackson.databind.JsonNode;
import dev.drainboard.architecture.Pure;
import dev.drainboard.cluster.apiserver.Json;

/**
 * Who a pod (or ReplicaSet) belongs to, as {@code BaseControllerRefManager.ClaimObject}
 * ({@code pkg/controller/controller_ref_manager.go}) decides it for one owner: its own when it already controls it and
 * still selects it; released when it controls it but no longer selects it (unless the owner is being deleted);
 * adopted when it is an orphan the owner selects (unless the owner or the orphan is being deleted); otherwise not its
 * business.
 */
@Pure
public final class ClaimDecision {

    public enum Claim {
        /** Already controlled by the owner and selected: counted. */
        OWNED,
        /** An orphan the owner selects: add the owner's controller reference, then count it. */
        ADOPT,
        /** Controlled by the owner, no longer selected: remove the reference, do not count it. */
        RELEASE,
        /** Someone else's, or nothing to do with the owner. */
        IGNORE
    }

    private ClaimDecision() {
    }

    /**
     * @param owner   the claiming controller object (its uid, namespace and deletion state count)
     * @param object  the candidate
     * @param matches whether the owner's selector (and any further filter, e.g. a StatefulSet's name) picks it
     */
    public static Claim decide(JsonNode owner, JsonNode object, boolean matches) {
        JsonNode ref = Pods.controllerRef(object);
        boolean ownerDeleting = Pods.isTerminating(owner);
        if (ref != null) {
            if (!ref.path("uid").asText().equals(Json.uid(owner))) {
                return Claim.IGNORE;
            }
            if (matches) {
                return Claim.OWNED;
            }
            return ownerDeleting ? Claim.IGNORE : Claim.RELEASE;
        }
        if (ownerDeleting || !matches || Pods.isTerminating(object)) {
            return Claim.IGNORE;
        }
        if (!Json.namespace(owner).isEmpty() && !Json.namespace(owner).equals(Json.namespace(object))) {
            return Claim.IGNORE;
        }
        return Claim.ADOPT;
    }
}
