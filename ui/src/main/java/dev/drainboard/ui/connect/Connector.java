package dev.drainboard.ui.connect;

import dev.drainboard.cluster.EmbeddedCluster;
import dev.drainboard.cluster.EmbeddedClusterOptions;
import dev.drainboard.controlplane.Kubeconfigs;
import dev.drainboard.admission.WebhookCallers;
import dev.drainboard.controlplane.LocalControlPlane;
import dev.drainboard.controlplane.WebhookAddress;
import dev.drainboard.kubevirt.api.KubeVirt;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceMigration;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceReplicaSet;
import dev.drainboard.kubevirt.crd.CrdInstaller;
import dev.drainboard.ui.model.ClusterModel;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Makes a {@link Session}: starts the embedded cluster or reads the kubeconfig, checks that the server answers and
 * lets us read, looks for KubeVirt's API and for a virt-controller, then starts the live model. Blocking: call it
 * off the FX thread. Every failure comes back as a {@link Failure} with a {@link ConnectError}.
 */
public final class Connector {

    /** What to do when the cluster does not serve the kubevirt.io API. */
    public enum MissingCrds { FAIL, INSTALL, IGNORE }

    /** A failed connection; nothing it started is left running. */
    public static final class Failure extends Exception {
        private final ConnectError error;

        public Failure(ConnectError error) {
            super(error.headline());
            this.error = error;
        }

        public ConnectError error() {
            return error;
        }
    }

    private final Map<String, String> env;
    private final Path home;
    /**
     * Embedded clusters kept running after their session closed, by scenario (see {@link #keepEmbeddedClusters()}):
     * connecting to the same scenario again reconnects to it, with its cordons, taints and placements.
     */
    private final Map<String, EmbeddedCluster> kept = new java.util.concurrent.ConcurrentHashMap<>();
    private volatile boolean keepEmbedded;

    public Connector() {
        this(System.getenv(), Path.of(System.getProperty("user.home")));
    }

    public Connector(Map<String, String> env, Path home) {
        this.env = env;
        this.home = home;
    }

    /**
     * From now on an embedded cluster outlives its session: a disconnect leaves it running and the next connection
     * to the same scenario reconnects to it, until {@link #close()} (the console quitting).
     */
    public Connector keepEmbeddedClusters() {
        keepEmbedded = true;
        return this;
    }

    /** Whether an embedded cluster of this scenario is running from an earlier session. */
    public boolean hasRunningEmbedded(String scenario) {
        return kept.containsKey(new ConnectTarget.Embedded(scenario).key());
    }

    /** Stops the embedded clusters kept running (blocking). */
    public void close() {
        kept.values().forEach(EmbeddedCluster::close);
        kept.clear();
    }

    /** Connects with the eviction webhook's host chosen for the cluster. */
    public Session connect(ConnectTarget target, ModeChoice choice, MissingCrds missingCrds, Consumer<String> progress)
            throws Failure {
        return connect(target, choice, missingCrds, Optional.empty(), progress);
    }

    /**
     * As {@link #connect(ConnectTarget, ModeChoice, MissingCrds, Consumer)}, with the eviction webhook's host for
     * this connection ({@code webhookHost}, empty: chosen for the cluster).
     */
    public Session connect(ConnectTarget target, ModeChoice choice, MissingCrds missingCrds, Optional<String> webhookHost,
                           Consumer<String> progress) throws Failure {
        return connect(target, choice, missingCrds, webhookHost, WebhookCallers.anyone(), progress);
    }

    /**
     * As {@link #connect(ConnectTarget, ModeChoice, MissingCrds, Optional, Consumer)}; the eviction webhook answers
     * only {@code callers} on a cluster from a kubeconfig, and only its API server (the client CA it publishes) on the
     * embedded cluster.
     */
    public Session connect(ConnectTarget target, ModeChoice choice, MissingCrds missingCrds, Optional<String> webhookHost,
                           WebhookCallers callers, Consumer<String> progress) throws Failure {
        EmbeddedCluster embedded = null;
        KubernetesClient client = null;
        LocalControlPlane plane = null;
        try {
            Config config;
            String clusterName;
            String context;
            String user;
            if (target instanceof ConnectTarget.Embedded e) {
                EmbeddedCluster running = keepEmbedded ? kept.get(e.key()) : null;
                progress.accept(running != null ? "Reconnecting to the embedded cluster (" + e.subtitle() + ")…"
                        : "Starting the embedded cluster (" + e.subtitle() + ")…");
                try {
                    embedded = running != null ? running
                            : EmbeddedCluster.start(EmbeddedClusterOptions.defaults().withScenario(e.scenario())
                            .withTimeScale(e.timeScale()));
                    if (keepEmbedded) {
                        kept.put(e.key(), embedded);
                    }
                    config = Config.fromKubeconfig(Files.readString(embedded.kubeconfig()));
                } catch (Exception ex) {
                    throw new Failure(new ConnectError(ConnectError.Kind.EMBEDDED_FAILED,
                            "The embedded cluster did not start.", KubeconfigCatalog.rootMessage(ex)));
                }
                clusterName = "embedded";
                context = Objects.toString(config.getCurrentContext() == null ? null : config.getCurrentContext().getName(), "drainboard");
                user = "";
            } else {
                ConnectTarget.Kubeconfig k = (ConnectTarget.Kubeconfig) target;
                progress.accept("Reading the kubeconfig…");
                KubeconfigSource source = k.file().map(KubeconfigCatalog::readFile)
                        .orElseGet(() -> KubeconfigCatalog.readDefault(env, home));
                if (source.problem().isPresent() && source.contexts().isEmpty()) {
                    throw new Failure(new ConnectError(ConnectError.Kind.UNREADABLE_KUBECONFIG,
                            "The kubeconfig cannot be used.", source.problem().get()));
                }
                KubeContext ctx = source.contexts().stream().filter(c -> c.name().equals(k.context())).findFirst()
                        .orElseThrow(() -> new Failure(new ConnectError(ConnectError.Kind.UNREADABLE_KUBECONFIG,
                                "There is no context \"" + k.context() + "\" in " + source.label() + ".",
                                "Contexts there: " + String.join(", ", source.contexts().stream().map(KubeContext::name).toList()))));
                try {
                    // A file's context is checked whole (its cluster and user there): fabric8 would fall back to
                    // in-cluster defaults for a missing one.
                    config = k.file().isPresent() ? Kubeconfigs.load(k.file().get(), k.context())
                            : Config.autoConfigure(k.context());
                } catch (Kubeconfigs.InvalidKubeconfigException ex) {
                    throw new Failure(new ConnectError(ConnectError.Kind.UNREADABLE_KUBECONFIG,
                            "Context \"" + k.context() + "\" cannot be used.", ex.getMessage()));
                } catch (RuntimeException ex) {
                    throw new Failure(new ConnectError(ConnectError.Kind.UNREADABLE_KUBECONFIG,
                            "Context \"" + k.context() + "\" cannot be used.", KubeconfigCatalog.rootMessage(ex)));
                }
                clusterName = ctx.cluster();
                context = ctx.name();
                user = ctx.user();
            }
            // The controllers get the configuration as it is; the first checks fail fast instead.
            Config controllerConfig = new ConfigBuilder(config).build();
            // Fail fast on the first attempt; the informers retry on their own once connected.
            config.setRequestRetryBackoffLimit(0);
            config.setConnectionTimeout(5_000);
            config.setRequestTimeout(15_000);
            String server = config.getMasterUrl().replaceAll("/$", "");
            client = new KubernetesClientBuilder().withConfig(config).build();

            progress.accept("Contacting " + server + "…");
            String version;
            try {
                version = client.getKubernetesVersion().getGitVersion();
                progress.accept("Checking access…");
                client.nodes().list(new ListOptionsBuilder().withLimit(1L).build());
            } catch (RuntimeException ex) {
                throw new Failure(ConnectErrors.classify(ex, server, user));
            }

            progress.accept("Looking for KubeVirt…");
            boolean kubeVirt = servesKubeVirt(client);
            if (!kubeVirt) {
                switch (missingCrds) {
                    case FAIL -> throw new Failure(new ConnectError(ConnectError.Kind.MISSING_CRDS,
                            "The cluster at " + server + " does not serve KubeVirt's API (kubevirt.io/v1).",
                            "Its CustomResourceDefinitions (VirtualMachineInstance, VirtualMachine, migrations, replica sets, KubeVirt) "
                                    + "are not installed. Drainboard can install them, or connect without KubeVirt views."));
                    case INSTALL -> {
                        progress.accept("Installing KubeVirt's CRDs…");
                        List<CrdInstaller.Result> results = new CrdInstaller(client).installKubeVirtCrds(false);
                        List<String> failed = results.stream().filter(r -> r.outcome() == CrdInstaller.Outcome.FAILED)
                                .map(r -> r.name() + ": " + r.message()).toList();
                        if (!failed.isEmpty()) {
                            throw new Failure(new ConnectError(ConnectError.Kind.MISSING_CRDS,
                                    "Installing KubeVirt's CRDs failed.", String.join("\n", failed)));
                        }
                        kubeVirt = true;
                    }
                    case IGNORE -> { }
                }
            }

            ModePolicy.VirtControllerProbe probe = embedded != null ? ModePolicy.VirtControllerProbe.absent()
                    : probeVirtController(client, progress);
            ModePolicy.Decision decision = ModePolicy.decide(choice, embedded != null, probe);

            boolean control = decision.mode() == Mode.CONTROL && kubeVirt;
            // The embedded cluster's API server is in this process; any other must be able to reach the webhook.
            WebhookAddress webhook = embedded != null ? WebhookAddress.LOOPBACK
                    : webhookHost.map(WebhookAddress::given).orElseGet(() -> WebhookAddress.forApiServer(server));
            if (control || embedded != null) {
                progress.accept(control ? "Starting the controllers…" : "Starting the simulated nodes…");
                plane = LocalControlPlane.start(controllerConfig, embedded == null ? null : embedded.hypervisors(), control, webhook,
                        embedded != null ? WebhookCallers.clusterClientCa() : callers);
            }
            progress.accept("Starting live views…");
            ClusterModel model = ClusterModel.start(client, kubeVirt);
            Session.Info info = new Session.Info(clusterName, context, server, version, embedded != null, kubeVirt,
                    decision.mode(), decision.reason(), target, webhook);
            return new Session(client, embedded, keepEmbedded ? null : embedded, plane, model, info);
        } catch (Failure | RuntimeException e) {
            if (plane != null) {
                plane.close();
            }
            if (client != null) {
                client.close();
            }
            if (embedded != null && !keepEmbedded) {
                embedded.close();
            }
            if (e instanceof Failure f) {
                throw f;
            }
            throw new Failure(ConnectErrors.classify(e, "the cluster", ""));
        }
    }

    private static boolean servesKubeVirt(KubernetesClient client) {
        try {
            return client.supports(VirtualMachineInstance.class) && client.supports(VirtualMachineInstanceMigration.class)
                    && client.supports(VirtualMachineInstanceReplicaSet.class) && client.supports(KubeVirt.class);
        } catch (KubernetesClientException e) {
            return false;
        }
    }

    /** A virt-controller Deployment (or its pods) in any namespace means KubeVirt's own controllers run there. */
    private static ModePolicy.VirtControllerProbe probeVirtController(KubernetesClient client, Consumer<String> progress) {
        progress.accept("Looking for KubeVirt's virt-controller…");
        try {
            Optional<Deployment> deployment = client.apps().deployments().inAnyNamespace()
                    .withField("metadata.name", "virt-controller").list().getItems().stream().findFirst();
            if (deployment.isPresent()) {
                return ModePolicy.VirtControllerProbe.found("Deployment " + deployment.get().getMetadata().getNamespace() + "/virt-controller");
            }
            var pods = client.pods().inAnyNamespace().withLabel("kubevirt.io", "virt-controller").list().getItems();
            if (!pods.isEmpty()) {
                return ModePolicy.VirtControllerProbe.found("pod " + pods.getFirst().getMetadata().getNamespace() + "/"
                        + pods.getFirst().getMetadata().getName());
            }
            return ModePolicy.VirtControllerProbe.absent();
        } catch (KubernetesClientException e) {
            return ModePolicy.VirtControllerProbe.unknown();
        }
    }
}
