package dev.drainboard.controlplane;

import dev.drainboard.admission.WebhookCallers;
import dev.drainboard.hypervisor.HypervisorRegistry;
import dev.drainboard.handler.NodeHandler;
import dev.drainboard.kubevirt.KubeVirtValues;
import io.fabric8.kubernetes.api.model.authentication.TokenRequest;
import io.fabric8.kubernetes.api.model.authentication.TokenRequestBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;

import java.util.Optional;

/**
 * What this Drainboard process runs against one cluster: the KubeVirt controllers (leader-elected,
 * when in control) and, for the embedded cluster, the node handler of its simulated nodes (whose
 * hypervisors live in this process, so it is never leader-elected).
 */
public final class LocalControlPlane implements AutoCloseable {

    private final ControlPlane controllers;
    private final NodeHandler nodeHandler;
    private final KubernetesClient handlerClient;

    private LocalControlPlane(ControlPlane controllers, NodeHandler nodeHandler, KubernetesClient handlerClient) {
        this.controllers = controllers;
        this.nodeHandler = nodeHandler;
        this.handlerClient = handlerClient;
    }

    /**
     * Starts what is asked for and returns at once.
     *
     * @param config       the cluster to talk to (only through its API)
     * @param hypervisors  the simulated nodes' hypervisors, or null for a real cluster
     * @param controllers  whether to run the controllers (Control mode) or only observe
     */
    public static LocalControlPlane start(Config config, HypervisorRegistry hypervisors, boolean controllers) {
        return start(config, hypervisors, controllers, WebhookAddress.LOOPBACK);
    }

    /**
     * As {@link #start(Config, HypervisorRegistry, boolean)}, with the eviction webhook served at {@code webhook}.
     * With simulated nodes (the embedded cluster) the webhook answers only its API server (the client CA the cluster
     * publishes); otherwise anyone, see {@link #start(Config, HypervisorRegistry, boolean, WebhookAddress, WebhookCallers)}.
     */
    public static LocalControlPlane start(Config config, HypervisorRegistry hypervisors, boolean controllers,
                                          WebhookAddress webhook) {
        return start(config, hypervisors, controllers, webhook,
                hypervisors != null ? WebhookCallers.clusterClientCa() : WebhookCallers.anyone());
    }

    /** As {@link #start(Config, HypervisorRegistry, boolean, WebhookAddress)}, answering only {@code callers}. */
    public static LocalControlPlane start(Config config, HypervisorRegistry hypervisors, boolean controllers,
                                          WebhookAddress webhook, WebhookCallers callers) {
        ControlPlane plane = controllers ? ControlPlane.builder(hypervisors != null ? asVirtController(config) : config)
                .webhookHost(webhook.host()).webhookBindAddress(webhook.bindAddress()).webhookCallers(callers).build() : null;
        KubernetesClient client = hypervisors == null ? null
                : new KubernetesClientBuilder().withConfig(ControlPlane.withoutRequestRetries(config)).build();
        NodeHandler handler = client == null ? null : new NodeHandler(client, hypervisors);
        LocalControlPlane local = new LocalControlPlane(plane, handler, client);
        try {
            if (handler != null) {
                handler.start();
            }
            if (plane != null) {
                plane.start();
            }
            return local;
        } catch (RuntimeException e) {
            local.close();
            throw e;
        }
    }

    /**
     * The embedded cluster's credentials for the controllers: a TokenRequest token of virt-controller's service
     * account ({@code kubevirt/kubevirt-controller}, which the embedded cluster installs as KubeVirt's operator would),
     * so that virt-api's "only virt-controller may" checks (a migration's {@code spec.priority}) see Drainboard's
     * controllers as KubeVirt's own and the kubeconfig's user as a user. A cluster without that account, or a user
     * who may not request its tokens: unchanged.
     */
    public static Config asVirtController(Config config) {
        try (KubernetesClient admin = new KubernetesClientBuilder().withConfig(config).build()) {
            TokenRequest request = new TokenRequestBuilder().withNewSpec()
                    .withExpirationSeconds(VIRT_CONTROLLER_TOKEN_SECONDS).endSpec().build();
            TokenRequest answer = admin.serviceAccounts().inNamespace(KubeVirtValues.DEFAULT_INSTALL_NAMESPACE)
                    .withName(KubeVirtValues.CONTROLLER_SERVICE_ACCOUNT).tokenRequest(request);
            String token = answer == null || answer.getStatus() == null ? null : answer.getStatus().getToken();
            return token == null ? config : new ConfigBuilder(config).withOauthToken(token).build();
        } catch (KubernetesClientException e) {
            if (e.getCode() == 404 || e.getCode() == 403) {
                return config; // no such account, or not ours to use: the controllers run as the kubeconfig's user
            }
            throw e;
        }
    }

    /** Ten years: the embedded cluster lives only as long as this process. */
    private static final long VIRT_CONTROLLER_TOKEN_SECONDS = 10L * 365 * 24 * 3600;

    /** The controllers, when this process runs them. */
    public Optional<ControlPlane> controllers() {
        return Optional.ofNullable(controllers);
    }

    public Optional<NodeHandler> nodeHandler() {
        return Optional.ofNullable(nodeHandler);
    }

    @Override
    public void close() {
        if (controllers != null) {
            controllers.close();
        }
        if (nodeHandler != null) {
            nodeHandler.close();
        }
        if (handlerClient != null) {
            handlerClient.close();
        }
    }
}
