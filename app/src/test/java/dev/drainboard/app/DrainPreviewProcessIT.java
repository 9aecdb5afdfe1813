package dev.drainboard.app;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.drainboard.testing.KubectlRequirement;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import static org.awaitility.Awaitility.await;

/**
 * As a new user tries it: {@code ./drainboard serve} on the demo, then {@code ./drainboard drain node03} as processes.
 * node03 runs the {@code workers} replica set, pinned to it: the dry run exits 3 naming them, the drain refuses and
 * kubectl sees node03 still schedulable.
 */
@DisplayName("./drainboard drain on the served demo: blockers refuse the drain")
class DrainPreviewProcessIT {

    @TempDir
    Path workDir;

    record Run(int exit, String out, String err) {
    }

    @Test
    void node03sWorkersBlockItsDrain() throws Exception {
        Path kubeconfig = workDir.resolve("kubeconfig");
        Process serve = launch("serve", "--port", "0", "--kubeconfig-out", kubeconfig.toString());
        List<String> served = new CopyOnWriteArrayList<>();
        Thread.ofPlatform().daemon().start(() -> {
            try (var in = new BufferedReader(new InputStreamReader(serve.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = in.readLine()) != null; ) {
                    served.add(line);
                }
            } catch (IOException ignored) {
                // the process ended
            }
        });
        try {
            await().atMost(90, SECONDS).until(() -> served.stream().anyMatch(l -> l.startsWith("ready ")) || !serve.isAlive());
            assertThat(served).anyMatch(l -> l.startsWith("ready "));
            String kc = kubeconfig.toString();

            // The demo's VMIs start after serve is ready: ask until the three workers are there.
            AtomicReference<Run> dryRun = new AtomicReference<>();
            await().atMost(120, SECONDS).pollInterval(1, SECONDS).until(() -> {
                Run run = run("drain", "node03", "--dry-run", "-o", "json", "--ignore-daemonsets", "--delete-emptydir-data",
                        "--kubeconfig", kc);
                dryRun.set(run);
                return run.exit() == 3 && workersBlocked(run.out()) == 3;
            });
            JsonNode root = new ObjectMapper().readTree(dryRun.get().out());
            assertThat(fields(root)).containsExactly("nodes", "estimateSeconds");
            assertThat(fields(root.path("nodes").get(0))).containsExactly("name", "pods", "blockers", "estimateSeconds");
            // The demo's External VMI may land on node03 too (the scheduler picks its node): look at the workers' blockers.
            assertThat(root.path("nodes").get(0).path("blockers")).filteredOn(b -> b.path("name").asText().startsWith("workers"))
                    .hasSize(3)
                    .allSatisfy(b -> assertThat(b.path("reason").asText()).contains(
                            "0/4 nodes are available: 1 node(s) were unschedulable, 3 node(s) didn't match Pod's node affinity/selector."));

            Run drain = run("drain", "node03", "--ignore-daemonsets", "--delete-emptydir-data", "--kubeconfig", kc);
            assertThat(drain.exit()).as(drain.out() + drain.err()).isEqualTo(3);
            assertThat(drain.err()).startsWith("error: cannot drain node/node03: ").contains("VirtualMachineInstance demo/workers");

            Optional<Path> kubectl = KubectlRequirement.ifInstalled();
            if (kubectl.isPresent()) {
                Process get = new ProcessBuilder(kubectl.get().toString(), "--kubeconfig=" + kc, "--cache-dir=" + workDir.resolve("kube-cache"),
                        "get", "node", "node03", "-o", "jsonpath={.spec.unschedulable}").start();
                String unschedulable = new String(get.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                assertThat(get.waitFor(60, TimeUnit.SECONDS)).isTrue();
                assertThat(get.exitValue()).isZero();
                assertThat(unschedulable).as("node03 not cordoned").isEmpty();
            }

            serve.destroy();
            assertThat(serve.waitFor(15, TimeUnit.SECONDS)).isTrue();
        } finally {
            serve.destroyForcibly();
        }
    }

    private static int workersBlocked(String json) {
        try {
            int n = 0;
            for (JsonNode b : new ObjectMapper().readTree(json).path("nodes").get(0).path("blockers")) {
                n += b.path("name").asText().startsWith("workers") ? 1 : 0;
            }
            return n;
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    private static List<String> fields(JsonNode node) {
        List<String> names = new ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }

    private Run run(String... arguments) throws Exception {
        Process process = launch(arguments);
        var err = new java.util.concurrent.CompletableFuture<String>();
        Thread.ofPlatform().daemon().start(() -> {
            try {
                err.complete(new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8));
            } catch (IOException e) {
                err.complete("");
            }
        });
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return new Run(process.exitValue(), out, err.get(10, TimeUnit.SECONDS));
    }

    private Process launch(String... arguments) throws IOException {
        String launcher = System.getProperty("drainboard.launcher");
        assumeTrue(launcher != null, "run through maven-failsafe, which names the ./drainboard launcher");
        List<String> command = new ArrayList<>(List.of(launcher));
        command.addAll(List.of(arguments));
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().put("HOME", workDir.toString());
        return builder.start();
    }
}
