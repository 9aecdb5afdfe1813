package dev.drainboard.kubevirt;

import dev.drainboard.kubevirt.KubeVirtAnnotations;
import dev.drainboard.architecture.Pure;
import io.fabric8.kubernetes.api.model.HasMetadata;

import java.util.Map;

/**
 * How KubeVirt and the descheduler (https://github.com/kubernetes-sigs/descheduler) tell each other about evictions,
 * read and written in one place. The names are in {@link Annotations}.
 *
 * <pre>
 * on                  annotation                                            written by           means
 * launcher pod        descheduler.alpha.kubernetes.io/request-evict-only "" the VMI controller   evict through the API only: KubeVirt migrates
 * launcher pod        descheduler.alpha.kubernetes.io/eviction-in-progress  the migration        an evacuation is moving this pod's VMI away
 *                     "true"                                                controller
 * Eviction            requested-by: sigs.k8s.io/descheduler                 the descheduler      the descheduler sent this eviction
 * VMI                 kubevirt.io/eviction-source: descheduler              the eviction webhook the evacuation began with such an eviction:
 *                                                                                                its VMIM gets priority system-maintenance
 * </pre>
 *
 * <p>Sources: KubeVirt's pkg/virt-api/webhooks/validating-webhook/admitters/pod-eviction-admitter.go (the Eviction's
 * {@code requested-by} turned into the VMI's {@code eviction-source}), pkg/virt-controller/watch/drain/evacuation/
 * evacuation.go (the VMIM's priority), pkg/virt-handler/migration-target.go (the mark removed once the VMI moved).
 * The descheduler's own {@code evict} and {@code prefer-no-eviction} annotations need nothing here: a VM's
 * annotations reach its launcher pod like any other.
 */
@Pure
public final class DeschedulerAnnotations {

    private DeschedulerAnnotations() {
    }

    /** An Eviction with these annotations (null: none) was sent by the descheduler. */
    public static boolean isDeschedulerEviction(Map<String, String> evictionAnnotations) {
        return evictionAnnotations != null
                && KubeVirtAnnotations.REQUESTED_BY_DESCHEDULER.equals(evictionAnnotations.get(KubeVirtAnnotations.REQUESTED_BY));
    }

    /** The VMI's evacuation began with an eviction the descheduler sent. */
    public static boolean evictedByDescheduler(HasMetadata vmi) {
        Map<String, String> annotations = vmi.getMetadata().getAnnotations();
        return annotations != null && KubeVirtAnnotations.EVICTION_SOURCE_DESCHEDULER.equals(annotations.get(KubeVirtAnnotations.EVICTION_SOURCE));
    }

    /** The VMI names what its eviction came from (taken off again once the VMI has moved). */
    public static boolean hasEvictionSource(HasMetadata vmi) {
        Map<String, String> annotations = vmi.getMetadata().getAnnotations();
        return annotations != null && annotations.containsKey(KubeVirtAnnotations.EVICTION_SOURCE);
    }

    /** The launcher pod is marked as being evacuated. */
    public static boolean evictionInProgress(HasMetadata pod) {
        Map<String, String> annotations = pod.getMetadata().getAnnotations();
        return annotations != null && annotations.containsKey(KubeVirtAnnotations.DESCHEDULER_EVICTION_IN_PROGRESS);
    }

    /** A JSON merge patch that marks a launcher pod as being evacuated, or takes the mark off. */
    public static String evictionInProgressPatch(boolean inProgress) {
        String value = inProgress ? "\"" + KubeVirtAnnotations.DESCHEDULER_EVICTION_IN_PROGRESS_VALUE + "\"" : "null";
        return "{\"metadata\":{\"annotations\":{\"" + KubeVirtAnnotations.DESCHEDULER_EVICTION_IN_PROGRESS + "\":" + value + "}}}";
    }

    /** Adds what every launcher pod carries for the descheduler to {@code podAnnotations}. */
    public static void addLauncherAnnotations(Map<String, String> podAnnotations) {
        podAnnotations.put(KubeVirtAnnotations.DESCHEDULER_REQUEST_EVICT_ONLY, "");
    }
}
