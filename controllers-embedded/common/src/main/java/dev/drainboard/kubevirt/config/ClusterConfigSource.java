package dev.drainboard.kubevirt.config;

import dev.drainboard.kubevirt.KubeVirtValues;
import dev.drainboard.kubevirt.api.KubeVirt;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * Follows the KubeVirt CRs of a cluster (in any namespace) with an informer and keeps the {@link ClusterConfig}
 * they make current, so a configuration change applies without a restart. Until the first list arrives, and
 * while the cluster has no KubeVirt CR (or not even the CRD), {@link #current()} is KubeVirt's defaults.
 */
public final class ClusterConfigSource implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ClusterConfigSource.class);

    private final KubernetesClient client;
    private final String installNamespace;
    private final SharedIndexInformer<KubeVirt> informer;
    private final AtomicReference<ClusterConfig> current = new AtomicReference<>(ClusterConfig.defaults());
    private final List<Consumer<ClusterConfig>> listeners = new CopyOnWriteArrayList<>();

    private ClusterConfigSource(KubernetesClient client, String installNamespace) {
        this.client = client;
        this.installNamespace = installNamespace;
        this.informer = client.resources(KubeVirt.class).inAnyNamespace().runnableInformer(0);
        informer.addEventHandler(new ResourceEventHandler<>() {
            @Override
            public void onAdd(KubeVirt kubeVirt) {
                recompute();
            }

            @Override
            public void onUpdate(KubeVirt before, KubeVirt after) {
                recompute();
            }

            @Override
            public void onDelete(KubeVirt kubeVirt, boolean finalStateUnknown) {
                recompute();
            }
        });
        // A cluster without the KubeVirt CRD yet: keep retrying instead of giving up, defaults meanwhile.
        informer.exceptionHandler((started, error) -> {
            LOG.debug("KubeVirt CR watch failed, retrying: {}", error.toString());
            return true;
        });
    }

    /** Starts following the KubeVirt CRs, preferring the one in {@value KubeVirtValues#DEFAULT_INSTALL_NAMESPACE}. */
    public static ClusterConfigSource start(KubernetesClient client) {
        return start(client, KubeVirtValues.DEFAULT_INSTALL_NAMESPACE);
    }

    /** Starts following the KubeVirt CRs, preferring one in {@code installNamespace} (see {@link ClusterConfig#select}). */
    public static ClusterConfigSource start(KubernetesClient client, String installNamespace) {
        ClusterConfigSource source = new ClusterConfigSource(client, installNamespace);
        source.informer.start();
        return source;
    }

    /** The configuration in force now (never null). */
    public ClusterConfig current() {
        return current.get();
    }

    /** True once the informer has listed the KubeVirt CRs at least once. */
    public boolean hasSynced() {
        return informer.hasSynced();
    }

    /**
     * Calls {@code listener} with every new configuration (on the informer's thread; keep it short). Returns a
     * handle whose {@code close()} removes it.
     */
    public AutoCloseable addListener(Consumer<ClusterConfig> listener) {
        listeners.add(Objects.requireNonNull(listener));
        return () -> listeners.remove(listener);
    }

    private synchronized void recompute() {
        Optional<KubeVirt> chosen = ClusterConfig.select(informer.getStore().list(), installNamespace);
        ClusterConfig after;
        try {
            after = chosen.isPresent() ? ClusterConfig.from(chosen.get(), virtControllerImage(chosen.get())) : ClusterConfig.defaults();
        } catch (InvalidClusterConfigException e) {
            // As KubeVirt does: an invalid configuration is refused and the last good one stays in force.
            LOG.warn("KubeVirt CR {} has an invalid configuration, keeping the previous one: {}",
                    chosen.get().key(), e.getMessage());
            return;
        }
        if (after.equals(current.get())) {
            return;
        }
        current.set(after);
        LOG.info("KubeVirt configuration from {}: evictionStrategy={}, migrations={}, featureGates={}, nodePressureAssist={}, profile={}",
                after.source().orElse("defaults"), after.evictionStrategy().value(), after.migrations(), after.featureGates(),
                after.nodePressureAssist().value(), after.profileChoice().describe());
        for (Consumer<ClusterConfig> listener : listeners) {
            try {
                listener.accept(after);
            } catch (RuntimeException e) {
                LOG.warn("cluster configuration listener failed", e);
            }
        }
    }

    /** Read only when the CR reports no version: the Deployment in the CR's (install) namespace. */
    private String virtControllerImage(KubeVirt kubeVirt) {
        if (ClusterConfig.reportsVersion(kubeVirt)) {
            return null;
        }
        return VirtControllerImage.read(client, kubeVirt.getMetadata().getNamespace()).orElse(null);
    }

    @Override
    public void close() {
        informer.close();
    }
}
