package dev.drainboard.app;

import dev.drainboard.admission.WebhookCallers;
import dev.drainboard.controlplane.ControlPlane;
import dev.drainboard.controlplane.Kubeconfigs;
import dev.drainboard.controlplane.Kubeconfigs.InvalidKubeconfigException;
import dev.drainboard.controlplane.WebhookAddress;
import dev.drainboard.runtime.LeaderElection;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;

/**
 * {@code drainboard controllers}: the KubeVirt controllers, headless, against any cluster, with leader election so
 * that of several Drainboards only one acts. Exit 0 after SIGTERM or Ctrl-C, 1 when the kubeconfig or the cluster
 * cannot be used, 2 for a wrong invocation.
 */
@Command(name = "controllers", mixinStandardHelpOptions = true,
        description = {
                "Run Drainboard's KubeVirt controllers headless against a cluster.",
                "Stands for leader on a Lease; only the leader runs the controllers. Prints a line when it becomes "
                        + "leader and when it stops being leader; SIGTERM or Ctrl-C stops it and hands leadership over."})
public final class ControllersCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--kubeconfig", paramLabel = "FILE", required = true,
            description = "Kubeconfig of the cluster to run against.")
    Path kubeconfig;

    @Option(names = "--context", paramLabel = "NAME",
            description = "Context of the kubeconfig to use (default: its current context).")
    String context;

    @Option(names = "--lease-namespace", paramLabel = "NS", defaultValue = LeaderElection.Options.DEFAULT_NAMESPACE,
            description = "Namespace of the leader election Lease '" + LeaderElection.Options.DEFAULT_LEASE_NAME
                    + "' (default: ${DEFAULT-VALUE}).")
    String leaseNamespace;

    @Option(names = "--webhook-host", paramLabel = "HOST",
            description = "Address the cluster's API server calls the eviction webhook at, put in its registration and "
                    + "certificate (default: 127.0.0.1 when the API server runs on this machine, else this machine's "
                    + "address on the route to it; give an address of this machine the API server can reach).")
    String webhookHost;

    @Option(names = "--webhook-bind", paramLabel = "ADDRESS",
            description = "Address the webhook listens on (default: the --webhook-host), e.g. 0.0.0.0.")
    String webhookBind;

    @Option(names = "--webhook-port", paramLabel = "PORT", defaultValue = "0",
            description = "Port the webhook listens on (default: any free port).")
    int webhookPort;

    @Option(names = "--webhook-client-ca", paramLabel = "FILE",
            description = {"CA (PEM) of the client certificate the cluster's API server presents to webhooks (its "
                    + "AdmissionConfiguration's kubeconfig): the eviction webhook then refuses every other caller in "
                    + "the TLS handshake.",
                    "Without it the webhook answers anyone who can reach it, and this command says so when it starts."})
    Path webhookClientCa;

    @Option(names = "--no-eviction-webhook",
            description = "Do not serve or register the eviction webhook (evictions then go straight to the PDBs, "
                    + "and no eviction starts an evacuation).")
    boolean noEvictionWebhook;

    /** Released by SIGTERM, Ctrl-C or {@link #requestStop()}. */
    private final CountDownLatch stopRequested = new CountDownLatch(1);

    /** Stops a running command as SIGTERM would (for tests and embedding). */
    void requestStop() {
        stopRequested.countDown();
    }

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (webhookPort < 0 || webhookPort > 65535) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(),
                    "Invalid value for option '--webhook-port': " + webhookPort + " is not a port (0-65535)");
        }
        if (webhookHost != null) {
            WebhookAddress.problem(webhookHost).ifPresent(problem -> {
                throw new picocli.CommandLine.ParameterException(spec.commandLine(),
                        "Invalid value for option '--webhook-host': " + problem);
            });
        }
        WebhookCallers callers = UiCommand.webhookCallers(spec.commandLine(), webhookClientCa);
        Config config;
        try {
            config = Kubeconfigs.load(kubeconfig, context);
        } catch (InvalidKubeconfigException e) {
            err.println("drainboard controllers: " + e.getMessage());
            return 1;
        }
        String unreachable = checkReachable(config);
        if (unreachable != null) {
            err.println("drainboard controllers: cannot reach the cluster at " + config.getMasterUrl() + ": " + unreachable);
            return 1;
        }
        LeaderElection.Options election = LeaderElection.Options.defaults().withNamespace(leaseNamespace);
        WebhookAddress webhook = webhookHost != null ? WebhookAddress.given(webhookHost)
                : WebhookAddress.forApiServer(config.getMasterUrl());
        String bindAddress = webhookBind != null ? webhookBind : webhook.bindAddress();
        ControlPlane.Builder builder = ControlPlane.builder(config).leaderElection(election)
                .evictionWebhook(!noEvictionWebhook).webhookHost(webhook.host()).webhookPort(webhookPort)
                .webhookBindAddress(bindAddress).webhookCallers(callers);
        ControlPlane plane = builder.build();
        String lease = leaseNamespace + "/" + election.leaseName();
        plane.onLeadershipChange(leading -> {
            out.println(leading
                    ? "leader: " + election.identity() + " runs the controllers (lease " + lease + ")"
                    : "standby: " + election.identity() + " is no longer the leader; controllers stopped");
            out.flush();
        });

        Signals.onStop(stopRequested::countDown);
        Thread hook = new Thread(() -> {
            plane.close();
            stopRequested.countDown();
        }, "drainboard-controllers-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);

        // The KubeVirt release the cluster reports decides the drain path (docs/kubevirt-versions.md): say which, and when it changes.
        java.util.concurrent.atomic.AtomicReference<String> said = new java.util.concurrent.atomic.AtomicReference<>();
        java.util.function.Consumer<dev.drainboard.kubevirt.config.ClusterConfig> say = c -> {
            String text = "kubevirt: " + c.profileChoice().describe();
            if (!text.equals(said.getAndSet(text))) {
                out.println(text);
                out.flush();
            }
        };
        plane.clusterConfig().addListener(say);
        plane.start();
        // Once the KubeVirt CRs have been listed: the profile in force even when it is the default (no CR, no change).
        Thread.ofVirtual().name("kubevirt-profile").start(() -> {
            for (int i = 0; i < 300 && !plane.clusterConfig().hasSynced(); i++) {
                try {
                    Thread.sleep(100);
                } catch (InterruptedException e) {
                    return;
                }
            }
            say.accept(plane.clusterConfig().current());
        });
        out.println("started: " + election.identity() + " against " + config.getMasterUrl()
                + "; standing for leader of " + lease);
        if (!noEvictionWebhook) {
            out.println("eviction webhook: the API server calls it at " + webhook.host() + " (" + webhook.how()
                    + "), served while leading; " + (callers.authenticated()
                    ? "callers need a TLS client certificate from " + callers.origin() : "UNAUTHENTICATED"));
            if (!callers.authenticated()) {
                err.println("drainboard controllers: WARNING: " + WebhookCallers.unauthenticatedWarning(bindAddress));
                err.flush();
            }
        }
        out.flush();
        try {
            stopRequested.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        plane.close();
        out.println("stopped");
        out.flush();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
            // already shutting down
        }
        return 0;
    }

    /** Null when the API server answers; else why not. */
    private static String checkReachable(Config config) {
        Config once = new io.fabric8.kubernetes.client.ConfigBuilder(config).withRequestRetryBackoffLimit(1).build();
        try (KubernetesClient client = new KubernetesClientBuilder().withConfig(once).build()) {
            client.getKubernetesVersion();
            return null;
        } catch (KubernetesClientException e) {
            return Kubeconfigs.rootMessage(e);
        }
    }
}
