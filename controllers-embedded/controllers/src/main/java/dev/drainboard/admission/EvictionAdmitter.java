package dev.drainboard.admission;

import dev.drainboard.architecture.Pure;
import dev.drainboard.controller.vmi.LauncherPodState;
import dev.drainboard.kubevirt.KubeVirtAnnotations;
import dev.drainboard.kubevirt.KubeVirtLabels;
import dev.drainboard.kubevirt.KubeVirtMessages;
import dev.drainboard.kubevirt.api.EvictionStrategy;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.kubevirt.config.ClusterConfig;
import io.fabric8.kubernetes.api.model.Pod;

import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The eviction decision of KubeVirt's virt-api ({@code PodEvictionAdmitter.Admit} in
 * {@code pkg/virt-api/webhooks/validating-webhook/admitters/pod-eviction-admitter.go}; the table is in
 * docs/behaviour.md, "Eviction webhook", and docs/kubevirt-versions.md): pure, so tests check it row by row. Reading
 * the pod and VMI and writing the mark are the caller's job ({@link EvictionAdmission}); this only decides.
 *
 * <p>Up to v1.4 the webhook fails open ({@code failurePolicy: Ignore}) and lets every eviction it does not turn
 * into an evacuation go on to the PodDisruptionBudgets, including repeated evictions of a VMI already marked:
 * the PDB KubeVirt keeps for such VMIs refuses them until the VMI has moved. From v1.5
 * ({@link dev.drainboard.kubevirt.KubeVirtProfile#webhookDeniesRepeats()}) the webhook itself refuses those:
 * {@code Evacuation in progress: …} for a marked VMI, {@code Eviction request for target Pod} for a pod off the
 * VMI's node.
 */
@Pure
public final class EvictionAdmitter {

    private EvictionAdmitter() {
    }

    /** The name of the VMI whose eviction policy applies to this pod, if it is a launcher pod that names one. */
    public static Optional<String> vmiNameOf(Pod pod) {
        if (pod == null || !isLauncher(pod)) {
            return Optional.empty();
        }
        Map<String, String> annotations = pod.getMetadata().getAnnotations();
        return Optional.ofNullable(annotations == null ? null : annotations.get(KubeVirtAnnotations.DOMAIN));
    }

    /**
     * The VMI {@link #decide} needs read for this pod: the one {@link #vmiNameOf} names, unless the pod has completed
     * (its eviction goes through whatever the VMI says).
     */
    public static Optional<String> vmiToRead(Pod pod) {
        return pod == null || LauncherPodState.isFinished(pod) ? Optional.empty() : vmiNameOf(pod);
    }

    /**
     * Decides one eviction.
     *
     * @param request the eviction asked for
     * @param pod     the pod as read from the API, null when it could not be read
     * @param vmi     the VMI {@link #vmiNameOf} names, as read ({@link VmiLookup.NotNeeded} when it names none)
     * @param config  the cluster configuration (its eviction strategy applies to VMIs without their own)
     */
    public static EvictionDecision decide(EvictionRequest request, Pod pod, VmiLookup vmi, ClusterConfig config) {
        Objects.requireNonNull(request, "request");
        Objects.requireNonNull(vmi, "vmi");
        Objects.requireNonNull(config, "config");
        if (pod == null) {
            return allow(EvictionDecision.Why.POD_NOT_READ);
        }
        if (!isLauncher(pod)) {
            return allow(EvictionDecision.Why.NOT_A_LAUNCHER_POD);
        }
        // A launcher pod that has ended holds no VM: KubeVirt lets it go, so a drain can clear it off the node
        // (isCompleted in pkg/virt-api/webhooks/validating-webhook/admitters/pod-eviction-admitter.go).
        if (LauncherPodState.isFinished(pod)) {
            return allow(EvictionDecision.Why.COMPLETED_POD);
        }
        if (vmiNameOf(pod).isEmpty()) {
            return allow(EvictionDecision.Why.NO_DOMAIN_ANNOTATION);
        }
        VirtualMachineInstance found = switch (vmi) {
            case VmiLookup.Found f -> f.vmi();
            case VmiLookup.Failed f -> null;
            case VmiLookup.NotNeeded n -> throw new IllegalArgumentException(
                    "pod " + request.namespace() + "/" + request.podName() + " names a VMI that was not looked up");
        };
        if (found == null) {
            return new EvictionDecision.Deny(EvictionDecision.Why.VMI_NOT_READ,
                    KubeVirtMessages.failedGettingVmi(((VmiLookup.Failed) vmi).error()));
        }
        EvictionStrategy strategy = config.evictionStrategyFor(found);
        if (strategy == EvictionStrategy.LIVE_MIGRATE && !found.isMigratable()) {
            return new EvictionDecision.Deny(EvictionDecision.Why.NOT_LIVE_MIGRATABLE,
                    KubeVirtMessages.notLiveMigratable(found.getMetadata().getName()));
        }
        if (!wantsEvacuation(strategy, found.isMigratable())) {
            return allow(EvictionDecision.Why.NO_EVACUATION_WANTED);
        }
        boolean deniesRepeats = config.profile().webhookDeniesRepeats();
        if (found.isMarkedForEviction()) {
            return deniesRepeats
                    ? new EvictionDecision.Deny(EvictionDecision.Why.ALREADY_MARKED, KubeVirtMessages.evacuationInProgress(
                            found.getMetadata().getNamespace(), found.getMetadata().getName()))
                    : allow(EvictionDecision.Why.ALREADY_MARKED);
        }
        String vmiNode = found.getStatus() == null ? "" : Objects.requireNonNullElse(found.getStatus().getNodeName(), "");
        String podNode = pod.getSpec() == null ? "" : Objects.requireNonNullElse(pod.getSpec().getNodeName(), "");
        // Both empty would "match" in KubeVirt and write an empty mark, which marks nothing; up to v1.4 an unscheduled
        // pod is not protected by its PDB anyway, so it goes on to be evicted; from v1.5 it is refused as a target.
        if (vmiNode.isEmpty() || !vmiNode.equals(podNode)) {
            return deniesRepeats
                    ? new EvictionDecision.Deny(EvictionDecision.Why.NOT_ON_VMI_NODE, KubeVirtMessages.EVICTION_OF_TARGET_POD)
                    : allow(EvictionDecision.Why.NOT_ON_VMI_NODE);
        }
        String namespace = found.getMetadata().getNamespace();
        String name = found.getMetadata().getName();
        boolean hasAnnotations = found.getMetadata().getAnnotations() != null && !found.getMetadata().getAnnotations().isEmpty();
        MarkForEvacuation mark = new MarkForEvacuation(namespace, name, vmiNode, request.dryRun(), request.byDescheduler(), hasAnnotations);
        return new EvictionDecision.Mark(mark, namespace, name);
    }

    /** The answer when writing the mark failed with {@code error}. */
    public static EvictionDecision.Deny markFailed(String error) {
        return new EvictionDecision.Deny(EvictionDecision.Why.MARK_FAILED, KubeVirtMessages.failedMarkingVmi(error));
    }

    /** Label {@code kubevirt.io=virt-launcher}. */
    public static boolean isLauncher(Pod pod) {
        Map<String, String> labels = pod.getMetadata() == null ? null : pod.getMetadata().getLabels();
        return labels != null && KubeVirtLabels.APP_VIRT_LAUNCHER.equals(labels.get(KubeVirtLabels.APP));
    }

    /**
     * Whether an eviction under this strategy becomes an evacuation (the VMI is marked): {@code LiveMigrate}
     * (when migratable; otherwise it is refused before), {@code LiveMigrateIfPossible} when migratable, and
     * {@code External} always.
     */
    public static boolean wantsEvacuation(EvictionStrategy strategy, boolean migratable) {
        return switch (strategy) {
            case LIVE_MIGRATE, LIVE_MIGRATE_IF_POSSIBLE -> migratable;
            case EXTERNAL -> true;
            case NONE -> false;
        };
    }

    private static EvictionDecision allow(EvictionDecision.Why why) {
        return new EvictionDecision.Allow(why);
    }
}
