package dev.drainboard.controlplane;

import dev.drainboard.controller.informers.SharedInformers;
import dev.drainboard.admission.EvictionWebhookServer;
import dev.drainboard.admission.WebhookCallers;
import dev.drainboard.controller.disruptionbudget.DisruptionBudgetController;
import dev.drainboard.controller.evacuation.EvacuationController;
import dev.drainboard.controller.history.EvacuationRecorder;
import dev.drainboard.controller.maintenance.MaintenanceController;
import dev.drainboard.controller.migration.MigrationController;
import dev.drainboard.controller.migration.MigrationTimings;
import dev.drainboard.controller.pool.PoolController;
import dev.drainboard.controller.replicaset.ReplicaSetController;
import dev.drainboard.controller.vm.VmController;
import dev.drainboard.controller.vmi.VmiController;
import dev.drainboard.kubevirt.config.ClusterConfigSource;
import dev.drainboard.runtime.ControllerFigures;
import dev.drainboard.runtime.ControllerManager;
import dev.drainboard.runtime.LeaderElection;
import dev.drainboard.runtime.LeaderState;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Drainboard's KubeVirt control plane for one cluster: a {@link ControllerManager} (client, shared informers, event
 * recorders, leader election) with the VMI, VM, disruption-budget, evacuation, migration, replica-set and pool
 * controllers, plus the live KubeVirt configuration. The same for a real cluster ({@code drainboard controllers}) and the embedded one ({@code drainboard serve}, the console).
 *
 * <p>More controllers plug in as {@link Component}s given to the {@link Builder}; each is installed after the
 * built-in ones and before anything starts, so its informers start with the rest:
 * <pre>{@code
 * ControlPlane plane = ControlPlane.builder(config)
 *         .component(p -> NodeHandler.register(p.manager(), p.informers(), p.clusterConfig()))
 *         .build();
 * plane.start();
 * }</pre>
 */
public final class ControlPlane implements AutoCloseable {

    /** A part of the control plane installed at build time: registers its loops with {@code plane.manager()}. */
    @FunctionalInterface
    public interface Component {
        void install(ControlPlane plane);
    }

    private static final Logger LOG = LoggerFactory.getLogger(ControlPlane.class);

    private final ControllerManager manager;
    private final SharedInformers informers;
    private final ClusterConfigSource clusterConfig;
    private final boolean evictionWebhook;
    private final String webhookHost;
    private final String webhookBindAddress;
    private final int webhookPort;
    private final WebhookCallers webhookCallers;
    /** The eviction webhook, served (and registered) only while this process leads: whoever registers last wins. */
    private volatile EvictionWebhookServer webhook;
    private boolean started;
    private volatile boolean closed;
    /** Evacuations by anyone recorded in the drain history while this process leads. */
    private final EvacuationRecorder evacuations;
    /** Maintenance plans executed while this process leads. */
    private final MaintenanceController maintenance;

    private ControlPlane(Builder b) {
        this.manager = new ControllerManager(b.client, b.election);
        this.informers = new SharedInformers(manager.client(), manager.informers());
        this.clusterConfig = ClusterConfigSource.start(b.client);
        VmiController.register(manager, informers, clusterConfig);
        VmController.register(manager, informers);
        DisruptionBudgetController.register(manager, informers.vmis(), informers.pods(), informers.migrations(), clusterConfig);
        EvacuationController.register(manager, informers, clusterConfig);
        MigrationController.register(manager, informers, clusterConfig, b.migrationTimings);
        ReplicaSetController.register(manager, informers);
        PoolController.register(manager, informers);
        // The webhook's registration follows the cluster's KubeVirt release (failure policy, match condition).
        clusterConfig.addListener(c -> {
            EvictionWebhookServer served = webhook;
            if (served != null) {
                Thread.ofVirtual().name("webhook-reregister").start(served::profileChanged);
            }
        });
        this.evacuations = EvacuationRecorder.register(manager, informers.vmis(), informers.migrations());
        // Maintenance plans are followed by the leader only (docs/maintenance.md).
        dev.drainboard.controller.maintenance.MaintenanceActions maintenanceActions =
                new dev.drainboard.ops.maintenance.MaintenanceOps(manager.client(), clusterConfig);
        this.maintenance = MaintenanceController.register(manager, informers.migrations(), informers.maintenancePlans(),
                b.maintenanceActions == null ? maintenanceActions : b.maintenanceActions.apply(maintenanceActions));
        this.evictionWebhook = b.evictionWebhook;
        this.webhookHost = b.webhookHost;
        this.webhookBindAddress = b.webhookBindAddress == null ? b.webhookHost : b.webhookBindAddress;
        this.webhookPort = b.webhookPort;
        this.webhookCallers = b.webhookCallers;
        if (evictionWebhook) {
            manager.onLeadershipChange(this::serveWebhookWhileLeader);
        }
        for (Component component : b.components) {
            component.install(this);
        }
    }

    /** A control plane on this client (taken over: closed by {@link #close()}). Leader election is on by default. */
    public static Builder builder(KubernetesClient client) {
        return new Builder(client);
    }

    /** A control plane on a new client for this configuration (see {@link Kubeconfigs#load}). */
    public static Builder builder(Config config) {
        return new Builder(new KubernetesClientBuilder().withConfig(withoutRequestRetries(config)).build());
    }

    /**
     * The configuration with fabric8's own request retries off: each write is sent once, as client-go sends it, and
     * a failed one goes back to the controller's queue, which retries with its back-off after looking again. fabric8
     * would resend a create that timed out after it was done (a 504 after the write), and a create with a
     * {@code generateName} then makes a second object: two target pods for one migration (which let a PDB expanded
     * to two allow the source's eviction), two PDBs for one VMI. Found by the chaos test (docs/reliability.md).
     */
    public static Config withoutRequestRetries(Config config) {
        return new io.fabric8.kubernetes.client.ConfigBuilder(config).withRequestRetryBackoffLimit(0).build();
    }

    /** Starts the informers and stands for leader; returns at once. */
    public synchronized void start() {
        if (started || closed) {
            return;
        }
        started = true;
        manager.start();
        informers.startOptional();
    }

    public ControllerManager manager() {
        return manager;
    }

    public SharedInformers informers() {
        return informers;
    }

    public ClusterConfigSource clusterConfig() {
        return clusterConfig;
    }

    public KubernetesClient client() {
        return manager.client();
    }

    public List<ControllerFigures> figures() {
        return manager.figures();
    }

    public LeaderState leaderState() {
        return manager.leaderState();
    }

    public boolean isLeader() {
        return manager.isLeader();
    }

    /** See {@link ControllerManager#onLeadershipChange}. */
    public AutoCloseable onLeadershipChange(Consumer<Boolean> listener) {
        return manager.onLeadershipChange(listener);
    }

    /** Stops the controllers, hands leadership over (releases the Lease), stops the informers, closes the client. */
    @Override
    public void close() {
        // Not under this object's lock while the manager stops: a leadership won at this moment calls back into
        // serveWebhookWhileLeader (which locks this) from fabric8's elector, whose lock the manager's stop waits for.
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        evacuations.close();
        maintenance.close();
        informers.close();
        manager.close();
        stopWebhook();
        clusterConfig.close();
    }

    private synchronized void serveWebhookWhileLeader(boolean leader) {
        if (leader && webhook == null && !closed) {
            EvictionWebhookServer server = EvictionWebhookServer.builder(manager.client())
                    .clusterConfig(clusterConfig::current)
                    .vmiCache(informers.vmis())
                    .podCache(informers.pods())
                    .bindAddress(webhookBindAddress)
                    .advertisedHost(webhookHost)
                    .port(webhookPort)
                    .callers(webhookCallers)
                    .build();
            try {
                server.start();
            } catch (RuntimeException e) {
                // Never serve with less authentication than asked for; evictions meanwhile go to the PDBs.
                server.close();
                LOG.error("eviction webhook not served: {}", e.getMessage());
                return;
            }
            webhook = server;
        } else if (!leader) {
            stopWebhook();
        }
    }

    /** Stops serving; the registration stays, and its failurePolicy Ignore lets evictions through to the PDBs. */
    private synchronized void stopWebhook() {
        if (webhook != null) {
            webhook.close();
            webhook = null;
        }
    }

    /** Whom the eviction webhook answers (when this process serves it). */
    public WebhookCallers webhookCallers() {
        return webhookCallers;
    }

    /** Where the eviction webhook listens when this process serves it. */
    public String webhookBindAddress() {
        return webhookBindAddress;
    }

    /** Whether the leader serves the eviction webhook at all. */
    public boolean servesEvictionWebhook() {
        return evictionWebhook;
    }

    /** The eviction webhook while this process serves it (the leader), for figures and the drain preview. */
    public synchronized Optional<EvictionWebhookServer> evictionWebhook() {
        return Optional.ofNullable(webhook);
    }

    public static final class Builder {
        private final KubernetesClient client;
        private LeaderElection.Options election = LeaderElection.Options.defaults();
        private final List<Component> components = new ArrayList<>();
        private boolean evictionWebhook = true;
        private String webhookHost = "127.0.0.1";
        private String webhookBindAddress;
        private int webhookPort;
        private MigrationTimings migrationTimings = MigrationTimings.defaults();
        private WebhookCallers webhookCallers = WebhookCallers.anyone();
        private java.util.function.UnaryOperator<dev.drainboard.controller.maintenance.MaintenanceActions> maintenanceActions;

        private Builder(KubernetesClient client) {
            this.client = Objects.requireNonNull(client);
        }

        /** Leader election options (Lease namespace, name, identity, timing). */
        public Builder leaderElection(LeaderElection.Options options) {
            this.election = Objects.requireNonNull(options);
            return this;
        }

        /** Runs the controllers unconditionally: only when nothing else can run them on this cluster (tests, benchmarks). */
        /** Wraps what the maintenance-plan executor does to the cluster (for tests: a leader dying mid-turn). */
        public Builder maintenanceActions(java.util.function.UnaryOperator<dev.drainboard.controller.maintenance.MaintenanceActions> wrap) {
            this.maintenanceActions = wrap;
            return this;
        }

        public Builder withoutLeaderElection() {
            this.election = null;
            return this;
        }

        /** Whether the leader serves and registers the eviction webhook (on by default). */
        public Builder evictionWebhook(boolean serve) {
            this.evictionWebhook = serve;
            return this;
        }

        /**
         * The address the webhook listens on and the API server calls (127.0.0.1 by default, right for the
         * embedded cluster; a remote cluster's API server must be able to reach it).
         */
        public Builder webhookHost(String host) {
            this.webhookHost = Objects.requireNonNull(host);
            return this;
        }

        /** The address the webhook listens on when it differs from {@link #webhookHost} (e.g. {@code 0.0.0.0}). */
        public Builder webhookBindAddress(String address) {
            this.webhookBindAddress = Objects.requireNonNull(address);
            return this;
        }

        /** The webhook's port (0, the default: any free port). */
        public Builder webhookPort(int port) {
            if (port < 0 || port > 65535) {
                throw new IllegalArgumentException("webhook port must be 0-65535, got " + port);
            }
            this.webhookPort = port;
            return this;
        }

        /**
         * Whom the eviction webhook answers: {@link WebhookCallers#clusterClientCa()} for the embedded cluster, a CA
         * file for another ({@code --webhook-client-ca}); by default anyone who can connect.
         */
        public Builder webhookCallers(WebhookCallers callers) {
            this.webhookCallers = Objects.requireNonNull(callers);
            return this;
        }

        /** The migration controller's timeouts and back-off (KubeVirt's by default; tests shorten them). */
        public Builder migrationTimings(MigrationTimings timings) {
            this.migrationTimings = Objects.requireNonNull(timings);
            return this;
        }

        public Builder component(Component component) {
            components.add(Objects.requireNonNull(component));
            return this;
        }

        public ControlPlane build() {
            return new ControlPlane(this);
        }
    }
}
