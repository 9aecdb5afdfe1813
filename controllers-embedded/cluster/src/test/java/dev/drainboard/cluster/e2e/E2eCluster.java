package dev.drainboard.cluster.e2e;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.drainboard.cluster.EmbeddedCluster;
import dev.drainboard.cluster.EmbeddedClusterOptions;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

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
        assumeTrue(Kubectl.isInstalled(), "kubectl is not installed at " + Kubectl.BINARY);
        EmbeddedCluster cluster = EmbeddedCluster.start(EmbeddedClusterOptions.defaults()
                .withScenario(scenarioLocation(scenario))
                .withPort(0)
                .withKubeconfigOut(workDir.resolve("kubeconfig")));
        return new E2eCluster(cluster, new Kubectl(cluster.kubeconfig(), workDir.resolve("kube-cache")));
    }

    private static String scenarioLocation(String scenario) throws IOException {
        if (scenario == null || scenario.equals("demo")) {
            return scenario;
        }
        // Copied to a file: the integration tests read it from this module's test-jar once it is packaged.
        try (InputStream in = E2eCluster.class.getResourceAsStream("/e2e/" + scenario)) {
            if (in == null) {
                throw new IllegalArgumentException("no test scenario /e2e/" + scenario);
            }
            Path copy = Files.createTempFile("e2e-", "-" + scenario);
            copy.toFile().deleteOnExit();
            Files.copy(in, copy, StandardCopyOption.REPLACE_EXISTING);
            return copy.toString();
        }
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
