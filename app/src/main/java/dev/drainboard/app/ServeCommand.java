package dev.drainboard.app;

import dev.drainboard.cluster.EmbeddedCluster;
import dev.drainboard.cluster.EmbeddedClusterOptions;
import dev.drainboard.cluster.virtapi.KubeVirtVersion;
import dev.drainboard.kubevirt.ProfileChoice;
import dev.drainboard.cluster.scenario.ScenarioException;
import dev.drainboard.controlplane.LocalControlPlane;
import io.fabric8.kubernetes.client.Config;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;

/** {@code drainboard serve}: the embedded cluster, headless, until SIGTERM or Ctrl-C. */
@Command(name = "serve", mixinStandardHelpOptions = true,
        description = {
                "Run the embedded cluster headless.",
                "A Kubernetes API server on 127.0.0.1 with simulated nodes. Prints a line starting with "
                        + "'ready' naming the URL and the kubeconfig once it serves; SIGTERM or Ctrl-C stops it."})
public final class ServeCommand implements Callable<Integer> {

    static final Path DEFAULT_KUBECONFIG = Path.of(System.getProperty("user.home"), ".drainboard", "embedded-kubeconfig");

    @Spec
    CommandSpec spec;

    @Option(names = "--scenario", paramLabel = "demo|pressure|maintenance|FILE|DIR", defaultValue = "demo",
            description = "Objects to start with: the built-in 'demo', 'pressure' (node-pressure eviction) or 'maintenance' (a rolling maintenance to run), a YAML file or a folder of YAML files, "
                    + "such as one 'drainboard snapshot' wrote (default: ${DEFAULT-VALUE}).")
    String scenario;

    @Option(names = "--time-scale", paramLabel = "N", defaultValue = "1",
            description = {"Run the simulated world N times faster than real time (a decimal above 0, at most 1000): boots, "
                    + "guest shutdowns, grace periods, live-migration transfers and KubeVirt's migration timeouts, "
                    + "consistently (docs/embedded-cluster.md, \"Time scale\"). Default: ${DEFAULT-VALUE}."})
    String timeScale;

    @Option(names = "--port", paramLabel = "N", defaultValue = "6443",
            description = "HTTPS port on 127.0.0.1; 0 picks a free port (default: ${DEFAULT-VALUE}).")
    int port;

    @Option(names = "--kubeconfig-out", paramLabel = "PATH",
            description = "Where to write the kubeconfig for kubectl (default: ~/.drainboard/embedded-kubeconfig).")
    Path kubeconfigOut;

    @Option(names = "--kubevirt-version", paramLabel = "VERSION",
            description = "The KubeVirt release the cluster says it runs (its KubeVirt CR's status.observedKubeVirtVersion), "
                    + "e.g. v1.4.0, v1.5.0, v1.6.0, v1.8.0, v1.9.0: the drain path follows it (default: what the scenario says).")
    String kubeVirtVersion;

    @Option(names = "--no-controllers",
            description = "Only the API server and the simulated nodes: do not run the KubeVirt controllers in-process.")
    boolean noControllers;

    @Option(names = "--inject-faults", paramLabel = "SHARE", defaultValue = "0",
            description = {"For chaos tests: answer this share (0 to 1) of the API writes that come over HTTPS with a 409 "
                    + "conflict, a 500, or a 504 after doing the write (docs/reliability.md). Default: none."})
    double injectFaults;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (port < 0 || port > 65535) {
            err.println("drainboard serve: --port must be between 0 and 65535, got " + port);
            return 2;
        }
        if (!(injectFaults >= 0 && injectFaults <= 1)) {
            err.println("drainboard serve: --inject-faults must be a share between 0 and 1, got " + injectFaults);
            return 2;
        }
        if (kubeVirtVersion != null && ProfileChoice.override(kubeVirtVersion).isEmpty()) {
            err.println("drainboard serve: --kubevirt-version must name a KubeVirt release such as v1.6.0, got '" + kubeVirtVersion + "'");
            return 2;
        }
        java.util.Optional<Double> scale = dev.drainboard.kubevirt.config.ClusterConfig.parseTimeScale(timeScale);
        if (scale.isEmpty()) {
            err.println("drainboard serve: --time-scale must be a number above 0 and at most "
                    + (long) dev.drainboard.kubevirt.config.ClusterConfig.MAX_TIME_SCALE + ", got '" + timeScale + "'");
            return 2;
        }
        EmbeddedClusterOptions options = EmbeddedClusterOptions.defaults()
                .withTimeScale(scale.get())
                .withScenario(scenario)
                .withPort(port)
                .withKubeconfigOut(kubeconfigOut == null ? DEFAULT_KUBECONFIG : kubeconfigOut);
        EmbeddedCluster cluster;
        try {
            cluster = EmbeddedCluster.start(options);
        } catch (ScenarioException e) {
            err.println("drainboard serve: scenario refused: " + e.getMessage());
            return 1;
        } catch (IOException | IllegalStateException e) {
            err.println("drainboard serve: cannot start: " + e.getMessage()
                    + (port != 0 ? " (is port " + port + " in use? --port 0 picks a free one)" : ""));
            return 1;
        }
        if (kubeVirtVersion != null) {
            try {
                cluster.setKubeVirtVersion(kubeVirtVersion);
            } catch (RuntimeException e) {
                cluster.close();
                err.println("drainboard serve: cannot set the KubeVirt version: " + e.getMessage());
                return 1;
            }
        }
        LocalControlPlane plane;
        try {
            plane = startControlPlane(cluster, !noControllers);
        } catch (IOException | RuntimeException e) {
            cluster.close();
            err.println("drainboard serve: cannot start the controllers: " + e.getMessage());
            return 1;
        }
        CountDownLatch stopRequested = new CountDownLatch(1);
        AtomicBoolean closed = new AtomicBoolean();
        Runnable closeOnce = () -> {
            if (closed.compareAndSet(false, true)) {
                if (plane != null) {
                    plane.close(); // controllers first: they hand their Lease back while the API still answers
                }
                cluster.close();
            }
        };
        // Any other way the JVM shuts down (SIGHUP, System.exit elsewhere) still closes the cluster.
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            closeOnce.run();
            stopRequested.countDown();
        }, "drainboard-shutdown"));
        Signals.onStop(stopRequested::countDown);
        if (injectFaults > 0) {
            cluster.faults().setShare(injectFaults);
            err.printf(java.util.Locale.ROOT, "Injecting faults into %.1f %% of the API writes over HTTPS (409, 500, 504 after the write)%n",
                    injectFaults * 100);
        }
        out.println("ready url=" + cluster.url() + " kubeconfig=" + cluster.kubeconfig());
        out.println("kubevirt: " + ProfileChoice.resolve(KubeVirtVersion.reported(cluster.api()).orElse(null), null).describe());
        out.flush();
        if (cluster.timeScale() != 1.0) {
            err.println("Time runs " + dev.drainboard.cluster.virtapi.KubeVirtTimeScale.format(cluster.timeScale())
                    + " times faster than real time (annotation drainboard.dev/time-scale on the KubeVirt CR): multiply the durations you measure by it");
        }
        err.println("Point kubectl at it with: export KUBECONFIG=" + cluster.kubeconfig());
        err.flush();
        try {
            stopRequested.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        closeOnce.run();
        return 0;
    }

    /**
     * The KubeVirt controllers in-process, talking to the embedded cluster through its API like any other
     * client, with leader election as always (another Drainboard may be pointed at this cluster); and the
     * node handler of the simulated nodes.
     */
    private static LocalControlPlane startControlPlane(EmbeddedCluster cluster, boolean controllers) throws IOException {
        return LocalControlPlane.start(Config.fromKubeconfig(java.nio.file.Files.readString(cluster.kubeconfig())),
                cluster.hypervisors(), controllers);
    }
}
