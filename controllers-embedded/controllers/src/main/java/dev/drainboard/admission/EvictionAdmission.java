package dev.drainboard.admission;

import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.kubevirt.config.ClusterConfig;
import io.fabric8.kubernetes.api.model.Pod;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Objects;
import java.util.function.Supplier;

/**
 * The eviction webhook's work for one request: read the pod and its VMI, let {@link EvictionAdmitter} decide,
 * and write the mark when it says so. A mark decided on a cached VMI is decided again on a fresh read first, so
 * a cache a few milliseconds behind never marks twice (a repeated eviction of a marked VMI must go on to its PDB).
 */
public final class EvictionAdmission {

    private static final Logger LOG = LoggerFactory.getLogger(EvictionAdmission.class);

    private final AdmissionCluster cluster;
    private final Supplier<ClusterConfig> config;

    public EvictionAdmission(AdmissionCluster cluster, Supplier<ClusterConfig> config) {
        this.cluster = Objects.requireNonNull(cluster, "cluster");
        this.config = Objects.requireNonNull(config, "config");
    }

    /** The final answer: an {@link EvictionDecision.Allow} or a {@link EvictionDecision.Deny}, never a Mark. */
    public EvictionDecision admit(EvictionRequest request) {
        Pod pod;
        try {
            pod = cluster.pod(request.namespace(), request.podName());
        } catch (Exception e) {
            LOG.debug("reading pod {}/{} failed, letting the eviction through: {}", request.namespace(), request.podName(), e.toString());
            pod = null;
        }
        ClusterConfig clusterConfig = config.get();
        Decided first = decide(request, pod, false, clusterConfig);
        EvictionDecision decision = first.decision() instanceof EvictionDecision.Mark && first.fromCache()
                ? decide(request, pod, true, clusterConfig).decision()
                : first.decision();
        if (decision instanceof EvictionDecision.Mark m) {
            try {
                cluster.mark(m.mark());
            } catch (Exception e) {
                LOG.warn("marking VMI {}/{} for evacuation failed: {}", m.vmiNamespace(), m.vmiName(), e.getMessage());
                return EvictionAdmitter.markFailed(e.getMessage());
            }
            LOG.info("eviction of pod {}/{} triggered evacuation of VMI {}/{} from {}{}", request.namespace(),
                    request.podName(), m.vmiNamespace(), m.vmiName(), m.mark().nodeName(), request.dryRun() ? " (dry run)" : "");
            return m.denial();
        }
        return decision;
    }

    private record Decided(EvictionDecision decision, boolean fromCache) {
    }

    private Decided decide(EvictionRequest request, Pod pod, boolean live, ClusterConfig clusterConfig) {
        VmiLookup lookup = VmiLookup.notNeeded();
        boolean cached = false;
        var vmiName = EvictionAdmitter.vmiToRead(pod);
        if (vmiName.isPresent()) {
            try {
                AdmissionCluster.Source<VirtualMachineInstance> read = cluster.vmi(request.namespace(), vmiName.get(), live);
                lookup = VmiLookup.found(read.object());
                cached = read.cached();
            } catch (Exception e) {
                lookup = VmiLookup.failed(String.valueOf(e.getMessage()));
            }
        }
        return new Decided(EvictionAdmitter.decide(request, pod, lookup, clusterConfig), cached);
    }
}
