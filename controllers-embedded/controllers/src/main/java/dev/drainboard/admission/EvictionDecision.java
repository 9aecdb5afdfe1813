package dev.drainboard.admission;

import dev.drainboard.architecture.Pure;
import dev.drainboard.kubevirt.KubeVirtMessages;
import dev.drainboard.kubevirt.KubeVirtValues;

import java.util.Objects;

/**
 * What the eviction webhook answers, with the reason it came to that answer (for logs, the drain preview and
 * the UI; the API server only sees allowed, code and message).
 */
@Pure
public sealed interface EvictionDecision {

    Why why();

    /** Why the webhook answered as it did. */
    enum Why {
        /** The pod could not be read: the webhook does not stand in the way (as KubeVirt's admitter). */
        POD_NOT_READ,
        /** Not a virt-launcher pod. */
        NOT_A_LAUNCHER_POD,
        /** A launcher pod that has completed (Succeeded or Failed): its VMI no longer runs in it. */
        COMPLETED_POD,
        /** A launcher pod without the {@code kubevirt.io/domain} annotation names no VMI. */
        NO_DOMAIN_ANNOTATION,
        /** The VMI the pod names could not be read. */
        VMI_NOT_READ,
        /** Strategy {@code None} (or {@code LiveMigrateIfPossible} on a non-migratable VMI): a plain eviction. */
        NO_EVACUATION_WANTED,
        /** {@code LiveMigrate} on a VMI that cannot migrate: the eviction is refused, nothing else happens. */
        NOT_LIVE_MIGRATABLE,
        /**
         * The VMI is already marked: up to v1.4 the PodDisruptionBudget decides (it holds the pod until the VMI has
         * moved); from v1.5 the webhook refuses ("Evacuation in progress").
         */
        ALREADY_MARKED,
        /**
         * The pod does not run on the VMI's node (a migration target, or not scheduled yet): the PDB decides up to
         * v1.4; from v1.5 the webhook refuses ("Eviction request for target Pod").
         */
        NOT_ON_VMI_NODE,
        /** The eviction was turned into an evacuation: the VMI is marked and the eviction refused. */
        EVACUATION_TRIGGERED,
        /** Marking the VMI failed; the evicting client retries. */
        MARK_FAILED
    }

    /** The webhook lets the eviction go on (the API server then checks PodDisruptionBudgets). */
    record Allow(Why why) implements EvictionDecision {
        public Allow {
            Objects.requireNonNull(why, "why");
        }
    }

    /** The eviction is refused with HTTP 429 and this message. */
    record Deny(Why why, String message) implements EvictionDecision {
        public Deny {
            Objects.requireNonNull(why, "why");
            Objects.requireNonNull(message, "message");
        }

        public int code() {
            return KubeVirtValues.DENIAL_CODE;
        }
    }

    /**
     * Mark the VMI for evacuation, then refuse the eviction: with {@link #denial()} when the mark was written,
     * with {@link EvictionAdmitter#markFailed} when it was not.
     */
    record Mark(MarkForEvacuation mark, String vmiNamespace, String vmiName) implements EvictionDecision {
        public Mark {
            Objects.requireNonNull(mark, "mark");
        }

        @Override
        public Why why() {
            return Why.EVACUATION_TRIGGERED;
        }

        /** The answer once the mark is written. */
        public Deny denial() {
            return new Deny(Why.EVACUATION_TRIGGERED,
                    KubeVirtMessages.evictionTriggeredEvacuation(vmiNamespace, vmiName));
        }
    }
}
