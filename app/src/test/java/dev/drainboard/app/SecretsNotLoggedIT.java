package dev.drainboard.app;

import dev.drainboard.testing.OperatorKubeconfig;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.internal.KubeConfigUtils;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The packaged {@code ./drainboard serve} and {@code ./drainboard drain} with every logger at its most verbose
 * (slf4j-simple at TRACE into a file, java.util.logging at ALL): neither the bearer token nor the client key of the
 * kubeconfig reaches a log, stdout or stderr. Runs after {@code package}.
 */
@DisplayName("./drainboard serve and drain log no credential, even at TRACE")
class SecretsNotLoggedIT {

    /**
     * A VMI that live-migrates and a pod a ReplicaSet owns, both on node01 (node02 is cordoned until they run there):
     * draining node01 goes through the eviction webhook, a migration and a plain eviction.
     */
    private static final String SCENARIO = """
            apiVersion: v1
            kind: Namespace
            metadata: {name: secrets}
            ---
            apiVersion: v1
            kind: Node
            metadata: {name: node01, labels: {kubernetes.io/hostname: node01}}
            ---
            apiVersion: v1
            kind: Node
            metadata: {name: node02, labels: {kubernetes.io/hostname: node02}}
            spec: {unschedulable: true}
            ---
            apiVersion: kubevirt.io/v1
            kind: VirtualMachineInstance
            metadata: {name: vm1, namespace: secrets}
            spec:
              evictionStrategy: LiveMigrate
              networks: [{name: default, pod: {}}]
              domain: {memory: {guest: 128Mi}, devices: {interfaces: [{name: default, masquerade: {}}]}}
              volumes: [{name: rootdisk, containerDisk: {image: quay.io/containerdisks/alpine:3.20}}]
            ---
            apiVersion: apps/v1
            kind: ReplicaSet
            metadata: {name: web, namespace: secrets, uid: 00000000-0000-0000-0000-000000000001}
            spec:
              replicas: 1
              selector: {matchLabels: {app: web}}
              template: {metadata: {labels: {app: web}}, spec: {containers: [{name: c, image: nginx}]}}
            ---
            apiVersion: v1
            kind: Pod
            metadata:
              name: web-1
              namespace: secrets
              labels: {app: web}
              ownerReferences: [{apiVersion: apps/v1, kind: ReplicaSet, name: web, uid: 00000000-0000-0000-0000-000000000001, controller: true}]
            spec: {nodeName: node01, terminationGracePeriodSeconds: 1, containers: [{name: c, image: nginx}]}
            """;

    @TempDir
    Path workDir;

    @Test
    @DisplayName("serve and a drain against it, all loggers at TRACE: no token, no client key, no 'Bearer <token>' anywhere")
    void serveAndDrainLogNoSecret() throws Exception {
        Path serveKubeconfig = workDir.resolve("serve-kubeconfig");
        Path scenario = workDir.resolve("scenario.yaml");
        Files.writeString(scenario, SCENARIO);
        Traced serve = Traced.launch(workDir, "serve", "serve", "--port", "0", "--scenario", scenario.toString(),
                "--kubeconfig-out", serveKubeconfig.toString());
        try {
            await().atMost(180, SECONDS).until(() -> serve.stdout().contains("ready url=") || !serve.process().isAlive());
            assertThat(serve.stdout()).as("serve's ready line; stderr:\n" + serve.stderr()).contains("ready url=");

            Config served = Config.fromKubeconfig(null, serveKubeconfig.toFile());
            String token = KubeConfigUtils.parseConfigFromString(Files.readString(serveKubeconfig))
                    .getUsers().getFirst().getUser().getToken();
            assertThat(token).as("the token serve wrote into its kubeconfig").hasSizeGreaterThan(20);

            // The operator's kubeconfig carries a client certificate and key besides the token, as many do.
            String caPem = served.getCaCertData() != null ? decode(served.getCaCertData())
                    : Files.readString(Path.of(served.getCaCertFile()));
            OperatorKubeconfig operator = OperatorKubeconfig.write(workDir.resolve("operator-kubeconfig"),
                    served.getMasterUrl(), caPem, token);
            Path operatorKubeconfig = operator.file();

            try (KubernetesClient client = new KubernetesClientBuilder().withConfig(served).build()) {
                await().atMost(120, SECONDS).until(() -> liveMigratableOnNode01(client));
                client.nodes().withName("node02").edit(n -> new NodeBuilder(n).editSpec().withUnschedulable(false).endSpec().build());
            }
            Traced drain = Traced.launch(workDir, "drain", "drain", "node01", "--kubeconfig", operatorKubeconfig.toString(),
                    "--ignore-daemonsets", "--delete-emptydir-data", "--timeout", "150s");
            assertThat(drain.process().waitFor(240, TimeUnit.SECONDS)).as("drain finished").isTrue();
            assertThat(drain.process().exitValue()).as("drain's exit code; stderr:\n" + tail(drain.stderr()))
                    .isZero();
            assertThat(drain.stdout()).contains("node/node01 drained");

            serve.process().destroy(); // SIGTERM
            assertThat(serve.process().waitFor(30, TimeUnit.SECONDS)).as("serve stopped").isTrue();

            List<String> secrets = operator.secrets();
            for (Traced run : List.of(serve, drain)) {
                String log = run.log();
                // Not vacuous: TRACE was on and fabric8 wrote each request's headers.
                assertThat(log.contains(" TRACE ") && log.contains("HttpLoggingInterceptor - > Authorization: "))
                        .as(run.name() + "'s log (" + run.logFile() + ") has fabric8's TRACE lines of request headers").isTrue();
                for (Map.Entry<String, String> output : Map.of("log file", log, "stdout", run.stdout(),
                        "stderr", run.stderr()).entrySet()) {
                    assertThat(OperatorKubeconfig.leaks(output.getValue(), secrets)).as(run.name() + " " + output.getKey()
                            + ": lines holding a secret (shown as <secret N>)").isEmpty();
                }
            }
        } finally {
            serve.process().destroyForcibly();
        }
    }

    /** vm1 runs on node01, live-migratable, and its disruption budget counts it healthy. */
    @SuppressWarnings("unchecked")
    private static boolean liveMigratableOnNode01(KubernetesClient client) {
        GenericKubernetesResource vmi = client.genericKubernetesResources("kubevirt.io/v1", "VirtualMachineInstance")
                .inNamespace("secrets").withName("vm1").get();
        if (vmi == null || !(vmi.getAdditionalProperties().get("status") instanceof Map<?, ?> status)
                || !"node01".equals(status.get("nodeName")) || !"Running".equals(status.get("phase"))
                || !(status.get("conditions") instanceof List<?> conditions)
                || conditions.stream().noneMatch(c -> c instanceof Map<?, ?> m && "LiveMigratable".equals(m.get("type"))
                && "True".equals(m.get("status")))) {
            return false;
        }
        return client.policy().v1().podDisruptionBudget().inNamespace("secrets").list().getItems().stream()
                .anyMatch(pdb -> pdb.getStatus() != null && pdb.getStatus().getCurrentHealthy() != null
                        && pdb.getStatus().getCurrentHealthy() >= 1);
    }

    private static String decode(String base64) {
        return new String(Base64.getDecoder().decode(base64), StandardCharsets.UTF_8);
    }

    private static String tail(String text) {
        return text.length() <= 4000 ? text : text.substring(text.length() - 4000);
    }

    /** One ./drainboard process with slf4j at TRACE into its own log file and java.util.logging at ALL on stderr. */
    record Traced(String name, Process process, Path logFile, Path stdoutFile, Path stderrFile) {

        static Traced launch(Path dir, String name, String... arguments) throws IOException {
            String launcher = System.getProperty("drainboard.launcher");
            assumeTrue(launcher != null, "run through maven-failsafe, which names the ./drainboard launcher");
            Path julConfig = dir.resolve("jul-all.properties");
            Files.writeString(julConfig, """
                    handlers=java.util.logging.ConsoleHandler
                    .level=ALL
                    java.util.logging.ConsoleHandler.level=ALL
                    """);
            Path log = dir.resolve(name + ".log");
            List<String> command = new ArrayList<>(List.of(launcher));
            command.addAll(List.of(arguments));
            ProcessBuilder builder = new ProcessBuilder(command)
                    .redirectOutput(dir.resolve(name + ".out").toFile())
                    .redirectError(dir.resolve(name + ".err").toFile());
            builder.environment().put("HOME", dir.toString());
            builder.environment().put("DRAINBOARD_JAVA_OPTS", String.join(" ",
                    "-Dorg.slf4j.simpleLogger.defaultLogLevel=trace",
                    "-Dorg.slf4j.simpleLogger.logFile=" + log,
                    "-Djava.util.logging.config.file=" + julConfig));
            return new Traced(name, builder.start(), log, dir.resolve(name + ".out"), dir.resolve(name + ".err"));
        }

        String log() throws IOException {
            return read(logFile);
        }

        String stdout() throws IOException {
            return read(stdoutFile);
        }

        String stderr() throws IOException {
            return read(stderrFile);
        }

        private static String read(Path file) throws IOException {
            return Files.exists(file) ? Files.readString(file, StandardCharsets.ISO_8859_1) : "";
        }
    }
}
