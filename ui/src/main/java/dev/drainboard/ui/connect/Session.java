package dev.drainboard.ui.connect;

import dev.drainboard.controlplane.WebhookAddress;

import dev.drainboard.cluster.EmbeddedCluster;
import dev.drainboard.controlplane.LocalControlPlane;
import dev.drainboard.ui.model.ClusterModel;
import dev.drainboard.ui.model.ControlPlaneStatus;
import io.fabric8.kubernetes.client.KubernetesClient;

import java.util.Optional;

/**
 * One live connection: the client, the live model the views read, and the embedded cluster when it is one.
 * Closing it closes all three, the embedded cluster unless the connector keeps it running (blocking: call it off
 * the FX thread).
 */
public final class Session implements AutoCloseable {

    /**
     * What the status bar shows of a connection.
     *
     * @param cluster the kubeconfig cluster name (or "embedded")
     * @param kubeVirt whether the cluster serves kubevirt.io
     */
    /** @param webhook where the cluster calls this process's eviction webhook (in Control mode) */
    public record Info(String cluster, String context, String server, String kubernetesVersion, boolean embedded,
                       boolean kubeVirt, Mode mode, String modeReason, ConnectTarget target, WebhookAddress webhook) {
    }

    private final KubernetesClient client;
    private final EmbeddedCluster embedded;
    /** The embedded cluster when this session stops it on close; null when the connector keeps it running. */
    private final EmbeddedCluster owned;
    private final LocalControlPlane plane;
    private final ClusterModel model;
    private final ControlPlaneStatus controlPlaneStatus;
    private final Info info;

    Session(KubernetesClient client, EmbeddedCluster embedded, EmbeddedCluster owned, LocalControlPlane plane,
            ClusterModel model, Info info) {
        this.client = client;
        this.embedded = embedded;
        this.owned = owned;
        this.plane = plane;
        this.model = model;
        this.info = info;
        this.controlPlaneStatus = ControlPlaneStatus.start(Optional.ofNullable(plane));
    }

    public ClusterModel model() {
        return model;
    }

    public Info info() {
        return info;
    }

    /** For wiring controllers and ops (app module); views read {@link #model()} and never the client. */
    public KubernetesClient client() {
        return client;
    }

    /** The controllers and node handler this process runs for the connection, if any. */
    public Optional<LocalControlPlane> controlPlane() {
        return Optional.ofNullable(plane);
    }

    /** The controllers' figures and the leader, live, for the Controllers screen and the status bar. */
    public ControlPlaneStatus controlPlaneStatus() {
        return controlPlaneStatus;
    }

    public Optional<EmbeddedCluster> embeddedCluster() {
        return Optional.ofNullable(embedded);
    }

    /**
     * For the embedded cluster: sets the KubeVirt release it reports (its KubeVirt CR's status, docs/kubevirt-versions.md);
     * empty for other clusters, whose own KubeVirt says which release runs.
     */
    public Optional<java.util.function.Consumer<String>> kubeVirtVersionSetter() {
        return embeddedCluster().map(c -> c::setKubeVirtVersion);
    }

    @Override
    public void close() {
        controlPlaneStatus.close();
        model.close();
        if (plane != null) {
            plane.close(); // before the cluster: the controllers hand their Lease back while the API still answers
        }
        client.close();
        if (owned != null) {
            owned.close();
        }
    }
}
