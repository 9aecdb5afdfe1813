package dev.drainboard.cluster.e2e;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.drainboard.cluster.EmbeddedCluster;
import dev.drainboard.cluster.EmbeddedClusterOptions;

import java.net.URISyntaxException;
import java.nio.file.Path;

/** One embedded cluster on a free port with a kubectl pointed at it, for one test class. */
final class E2eCluster implements AutoCloseable {

    private final EmbeddedCluster cluster;
    private final Kubectl kubectl;

    private E2eCluster(EmbeddedCluster cluster, Kubectl kubectl) {
        this.cluster = cluster;
        this.kubectl = kubectl;
    }

    /**
     * Starts a cluster with the given scenario ("demo", or a test resource under {@code /e2e/})
     * and skips the calling test class when kubectl is not installed.
     */
    static E2eCluster start(String scenario, Path workDir) throws Exception {
        return start(scenario, EmbeddedClusterOptions.defaults(), workDir);
    }

    /** As {@link #start(String, Path)}, with other options (a small change log, say). */
    static E2eCluster start(String scenario, EmbeddedClusterOptions options, Path workDir) throws Exception {
        assumeTrue(Kubectl.isInstalled(), "kubectl is not installed at " + Kubectl.BINARY);
        EmbeddedCluster cluster = EmbeddedCluster.start(options
                .withScenario(scenarioLocation(scenario))
                .withPort(0)
                .withKubeconfigOut(workDir.resolve("kubeconfig")));
        return new E2eCluster(cluster, new Kubectl(cluster.kubeconfig(), workDir.resolve("kube-cache")));
    }

    private static String scenarioLocation(String scenario) throws URISyntaxException {
        if (scenario == null || scenario.equals("demo")) {
            return scenario;
        }
        var resource = E2eCluster.class.getResource("/e2e/" + scenario);
        if (resource == null) {
            throw new IllegalArgumentException("no test scenario /e2e/" + scenario);
        }
        return Path.of(resource.toURI()).toString();
    }

    Kubectl kubectl() {
        return kubectl;
    }

    EmbeddedCluster cluster() {
        return cluster;
    }

    @Override
    public void close() {
        cluster.close();
    }
}
