package dev.drainboard.cluster.e2e;

import dev.drainboard.cluster.EmbeddedCluster;
import dev.drainboard.cluster.EmbeddedClusterOptions;
import dev.drainboard.testing.KubectlRequirement;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * One embedded cluster on a free port with a kubectl pointed at it, for one test class. A class whose tests all run
 * kubectl carries {@link dev.drainboard.testing.RequiresKubectl} and starts it with {@link #startWithKubectl}; a class
 * whose tests need no kubectl starts it with {@link #start}, so they run where kubectl is missing (its methods that do
 * run kubectl carry {@code @RequiresKubectl}).
 */
final class E2eCluster implements AutoCloseable {

    private final EmbeddedCluster cluster;
    private final Kubectl kubectl;

    private E2eCluster(EmbeddedCluster cluster, Kubectl kubectl) {
        this.cluster = cluster;
        this.kubectl = kubectl;
    }

    /**
     * Starts a cluster with the given scenario ("demo", or a test resource under {@code /e2e/}) for tests that all
     * run kubectl: where kubectl is missing the calling test class is skipped before the cluster starts (or fails,
     * see {@link KubectlRequirement}).
     */
    static E2eCluster startWithKubectl(String scenario, Path workDir) throws Exception {
        KubectlRequirement.require();
        return start(scenario, workDir);
    }

    /** Starts a cluster with the given scenario ("demo", or a test resource under {@code /e2e/}); needs no kubectl. */
    static E2eCluster start(String scenario, Path workDir) throws Exception {
        return start(scenario, EmbeddedClusterOptions.defaults(), workDir);
    }

    /** As {@link #start(String, Path)}, with other options (a small change log, say). */
    static E2eCluster start(String scenario, EmbeddedClusterOptions options, Path workDir) throws Exception {
        EmbeddedCluster cluster = EmbeddedCluster.start(options
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

    /** The kubectl pointed at this cluster; skips (or fails) the calling test where kubectl is missing. */
    Kubectl kubectl() {
        KubectlRequirement.require();
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
