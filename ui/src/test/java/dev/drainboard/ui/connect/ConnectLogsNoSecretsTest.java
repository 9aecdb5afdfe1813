package dev.drainboard.ui.connect;

import dev.drainboard.testing.OperatorKubeconfig;
import dev.drainboard.cluster.EmbeddedCluster;
import dev.drainboard.cluster.EmbeddedClusterOptions;
import io.fabric8.kubernetes.client.internal.KubeConfigUtils;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The console's connection code ({@link Connector}, the live {@code ClusterModel}, the controllers it starts in Control
 * mode, the embedded cluster it starts by default) with every logger at its most verbose: slf4j-simple at TRACE into a
 * file, java.util.logging at ALL. No log line, and nothing on stdout or stderr, holds the bearer token or the client
 * key of the kubeconfig, nor the embedded cluster's token. The connections run in a child JVM
 * ({@link ConsoleConnectChild}) because slf4j-simple reads its settings once per JVM.
 */
@DisplayName("The console's connections log no credential, even at TRACE")
class ConnectLogsNoSecretsTest {

    @TempDir
    Path dir;

    @Test
    @DisplayName("kubeconfig context in Control mode, then the embedded cluster: no token, no client key, no 'Bearer <token>'")
    void connectionsLogNoSecret() throws Exception {
        OperatorKubeconfig operator;
        Path embeddedKubeconfig = dir.resolve("embedded-kubeconfig-copy");
        Path log = dir.resolve("console.log");
        Path stdout = dir.resolve("console.out");
        Path stderr = dir.resolve("console.err");
        try (EmbeddedCluster cluster = EmbeddedCluster.start(EmbeddedClusterOptions.defaults().withScenario("demo").withPort(0)
                .withKubeconfigOut(dir.resolve("cluster-kubeconfig")))) {
            operator = OperatorKubeconfig.write(dir.resolve("operator-kubeconfig"), cluster.url(), cluster.caPem(), cluster.token());
            Path julConfig = dir.resolve("jul-all.properties");
            Files.writeString(julConfig, """
                    handlers=java.util.logging.ConsoleHandler
                    .level=ALL
                    java.util.logging.ConsoleHandler.level=ALL
                    """);
            List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "--enable-native-access=ALL-UNNAMED",
                    "-Dorg.slf4j.simpleLogger.defaultLogLevel=trace",
                    "-Dorg.slf4j.simpleLogger.logFile=" + log,
                    "-Djava.util.logging.config.file=" + julConfig,
                    "-Duser.home=" + dir));
            // Headless JavaFX as this module's tests run it (the surefire configuration in ui/pom.xml).
            for (String property : List.of("glass.platform", "monocle.platform", "prism.order", "headless.geometry",
                    "java.awt.headless")) {
                if (System.getProperty(property) != null) {
                    command.add("-D" + property + "=" + System.getProperty(property));
                }
            }
            command.addAll(List.of("-cp", System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")),
                    ConsoleConnectChild.class.getName(), dir.toString(), operator.file().toString(), embeddedKubeconfig.toString()));
            ProcessBuilder builder = new ProcessBuilder(command).redirectOutput(stdout.toFile()).redirectError(stderr.toFile());
            builder.environment().remove("KUBECONFIG");
            Process child = builder.start();
            try {
                if (!child.waitFor(240, TimeUnit.SECONDS)) {
                    // Where it hangs: a thread dump (SIGQUIT) on its stdout.
                    new ProcessBuilder("kill", "-QUIT", Long.toString(child.pid())).start().waitFor(5, TimeUnit.SECONDS);
                    org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(10))
                            .until(() -> read(stdout).contains("Full thread dump"));
                    throw new AssertionError("the console's connections did not finish within 240 s; thread dump:\n"
                            + read(stdout) + "\nstderr ends with:\n" + tail(read(stderr)) + "\nlog ends with:\n" + tail(read(log)));
                }
                assertThat(child.exitValue()).as("exit code; stderr ends with:\n" + tail(read(stderr))).isZero();
            } finally {
                child.destroyForcibly();
            }
        }

        List<String> secrets = new ArrayList<>(operator.secrets());
        String embeddedToken = KubeConfigUtils.parseConfigFromString(Files.readString(embeddedKubeconfig))
                .getUsers().getFirst().getUser().getToken();
        secrets.addAll(List.of(embeddedToken, "Bearer " + embeddedToken));
        String logText = read(log);
        // Not vacuous: TRACE was on, and fabric8 wrote each request's headers.
        assertThat(logText.contains(" TRACE ") && logText.contains("HttpLoggingInterceptor - > Authorization: "))
                .as("the log (" + log + ") has fabric8's TRACE lines of request headers").isTrue();
        for (Map.Entry<String, String> output : Map.of("log file", logText, "stdout", read(stdout), "stderr", read(stderr)).entrySet()) {
            assertThat(OperatorKubeconfig.leaks(output.getValue(), secrets))
                    .as(output.getKey() + ": lines holding a secret (shown as <secret N>)").isEmpty();
        }
    }

    private static String read(Path file) throws java.io.IOException {
        return Files.exists(file) ? Files.readString(file, StandardCharsets.ISO_8859_1) : "";
    }

    private static String tail(String text) {
        return text.length() <= 4000 ? text : text.substring(text.length() - 4000);
    }
}
