package dev.drainboard.controller.informers;

import io.fabric8.kubernetes.api.model.APIResourceList;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;

/**
 * Informers of kinds whose CRD a cluster may lack (KubeVirt's instancetype.kubevirt.io, migrations.kubevirt.io,
 * pool.kubevirt.io). Each starts once discovery ({@code /apis/<group>/<version>}) lists its kind; until then its cache
 * stays empty and the cluster is asked again every {@value #RECHECK_SECONDS} s. A plain informer on a missing kind
 * would fail its list and log a warning with a stack trace at every retry.
 */
final class OptionalInformers implements AutoCloseable {

    static final int RECHECK_SECONDS = 30;
    private static final Logger log = LoggerFactory.getLogger(OptionalInformers.class);

    private record Gated(String groupVersion, String plural, SharedIndexInformer<?> informer) {
    }

    private final KubernetesClient client;
    private final List<Gated> pending = new ArrayList<>();
    private final List<SharedIndexInformer<?>> all = new ArrayList<>();
    private Thread watcher;
    private boolean closed;

    OptionalInformers(KubernetesClient client) {
        this.client = client;
    }

    /** A not yet started informer on every namespace (or the cluster) for the type. */
    synchronized <T extends HasMetadata> SharedIndexInformer<T> add(Class<T> type) {
        SharedIndexInformer<T> informer = client.resources(type).inAnyNamespace().runnableInformer(0);
        // Once started, keep retrying through passing failures (an API server restart, the CRD re-installed).
        informer.exceptionHandler((started, error) -> true);
        pending.add(new Gated(HasMetadata.getApiVersion(type), HasMetadata.getPlural(type), informer));
        all.add(informer);
        return informer;
    }

    synchronized void start() {
        if (watcher != null || closed) {
            return;
        }
        watcher = Thread.ofVirtual().name("optional-informers").start(this::run);
    }

    private void run() {
        try {
            while (startServed()) {
                Thread.sleep(RECHECK_SECONDS * 1000L);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Starts the informers whose kind the cluster serves now; true while some are left. */
    private boolean startServed() {
        List<Gated> toCheck;
        synchronized (this) {
            if (closed) {
                return false;
            }
            toCheck = List.copyOf(pending);
        }
        for (Gated g : toCheck) {
            if (served(g)) {
                synchronized (this) {
                    if (closed) {
                        return false;
                    }
                    g.informer().start();
                    pending.remove(g);
                }
                log.info("{} served: informer started", g.plural() + "." + g.groupVersion());
            }
        }
        synchronized (this) {
            return !pending.isEmpty();
        }
    }

    private boolean served(Gated g) {
        try {
            APIResourceList resources = client.getApiResources(g.groupVersion());
            return resources != null && resources.getResources() != null
                    && resources.getResources().stream().anyMatch(r -> g.plural().equals(r.getName()));
        } catch (KubernetesClientException e) {
            log.debug("{} not served: {}", g.groupVersion(), e.getMessage());
            return false;
        }
    }

    @Override
    public synchronized void close() {
        closed = true;
        if (watcher != null) {
            watcher.interrupt();
        }
        all.forEach(SharedIndexInformer::stop);
    }
}
