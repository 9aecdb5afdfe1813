package dev.drainboard.app;

import dev.drainboard.testing.KubectlRequirement;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The packaged {@code ./drainboard serve} as an operator runs it: it prints its ready line, kubectl
 * can use the kubeconfig it wrote, and SIGTERM stops it cleanly. Runs after {@code package}.
 */
@DisplayName("./drainboard serve as a process")
class ServeCommandIT {

    private static final Pattern READY = Pattern.compile("^ready url=(https://127\\.0\\.0\\.1:\\d+) kubeconfig=(\\S+)$");

    @TempDir
    Path workDir;

    @Test
    @DisplayName("serve prints its ready line, answers kubectl, and exits 0 on SIGTERM")
    void servesUntilSigterm() throws Exception {
        Path kubeconfig = workDir.resolve("kubeconfig");
        Process serve = launch("serve", "--port", "0", "--kubeconfig-out", kubeconfig.toString());
        Output stdout = Output.of(serve.getInputStream());
        Output stderr = Output.of(serve.getErrorStream());
        try {
            await().atMost(90, SECONDS).until(() -> stdout.lines().stream().anyMatch(l -> READY.matcher(l).matches())
                    || !serve.isAlive());
            String readyLine = stdout.lines().stream().filter(l -> READY.matcher(l).matches()).findFirst()
                    .orElseThrow(() -> new AssertionError("no ready line; stdout:\n" + stdout.text() + "\nstderr:\n" + stderr.text()));
            Matcher ready = READY.matcher(readyLine);
            assertThat(ready.matches()).isTrue();
            assertThat(Path.of(ready.group(2))).isEqualTo(kubeconfig);
            assertThat(kubeconfig).isRegularFile();

            Optional<Path> kubectlBinary = KubectlRequirement.ifInstalled(); // left out where kubectl is missing
            if (kubectlBinary.isPresent()) {
                Process kubectl = new ProcessBuilder(kubectlBinary.get().toString(), "--kubeconfig=" + kubeconfig,
                        "--cache-dir=" + workDir.resolve("kube-cache"), "get", "nodes", "-o", "name")
                        .redirectErrorStream(true).start();
                Output kubectlOutput = Output.of(kubectl.getInputStream());
                assertThat(kubectl.waitFor(60, TimeUnit.SECONDS)).as("kubectl finished").isTrue();
                assertThat(kubectl.exitValue()).as(kubectlOutput.text()).isZero();
                assertThat(kubectlOutput.await()).contains("node/node01", "node/node04");
            }

            serve.destroy(); // SIGTERM
            assertThat(serve.waitFor(15, TimeUnit.SECONDS)).as("serve stopped within 15 s").isTrue();
            assertThat(serve.exitValue()).as("exit code after SIGTERM; stderr:\n" + stderr.text()).isZero();
        } finally {
            serve.destroyForcibly();
        }
    }

    @Test
    @DisplayName("serve --bogus exits 2 and names the unknown option")
    void unknownOptionExitsTwo() throws Exception {
        Process serve = launch("serve", "--bogus");
        Output stdout = Output.of(serve.getInputStream());
        Output stderr = Output.of(serve.getErrorStream());
        try {
            assertThat(serve.waitFor(60, TimeUnit.SECONDS)).as("serve --bogus finished").isTrue();
            assertThat(serve.exitValue()).isEqualTo(2);
            assertThat(stderr.await()).contains("Unknown option: '--bogus'", "Usage:");
            assertThat(stdout.await()).doesNotContain("ready");
        } finally {
            serve.destroyForcibly();
        }
    }

    private Process launch(String... arguments) throws IOException {
        String launcher = System.getProperty("drainboard.launcher");
        assumeTrue(launcher != null, "run through maven-failsafe, which names the ./drainboard launcher");
        List<String> command = new java.util.ArrayList<>(List.of(launcher));
        command.addAll(List.of(arguments));
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().put("HOME", workDir.toString());
        return builder.start();
    }

    /** Collects a process stream line by line on a daemon thread. */
    private static final class Output {
        private final List<String> lines = new java.util.concurrent.CopyOnWriteArrayList<>();
        private final Thread reader;

        private Output(InputStream stream) {
            reader = Thread.ofPlatform().daemon().start(() -> {
                try (var in = new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8))) {
                    for (String line; (line = in.readLine()) != null; ) {
                        lines.add(line);
                    }
                } catch (IOException e) {
                    lines.add("[stream failed: " + e.getMessage() + "]");
                }
            });
        }

        static Output of(InputStream stream) {
            return new Output(stream);
        }

        List<String> lines() {
            return List.copyOf(lines);
        }

        String text() {
            return String.join("\n", lines);
        }

        String await() throws InterruptedException {
            reader.join(10_000);
            return text();
        }
    }
}
