package dev.drainboard.benchmarks;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The drain an operator runs from a terminal, cold: {@code ./drainboard drain NODE --kubeconfig F} launched as a new
 * process against {@code ./drainboard serve} (another process), timed from launching the drain until it exits.
 *
 * <p>The node holds {@code --vmis} LiveMigrate VMIs of {@code --memory} each; every node's link moves
 * {@code --link-speed} ({@code sim.drainboard.dev/link-speed}); three empty schedulable nodes take them; default
 * migration limits (2 outbound per node, 5 per cluster). The physical ideal is the time the links need to move the
 * guests' memory with both of the node's slots always busy: {@code vmis × memory / link / 2}. With the defaults,
 * 12 × 128 MiB at 16 MiB/s: 12 × 8 s / 2 = 48 s.
 *
 * <p>{@code --kubevirt-version=v1.9.0} runs it on that KubeVirt release's drain path (on v1.9: the migration priority
 * queue; see {@link DrainFixtures#kubeVirtVersion()}).
 *
 * <p>Run from the repository root after {@code mvn -DskipTests package}:
 * {@code java -cp benchmarks/target/classes:$(cat benchmarks/target/classpath.txt) dev.drainboard.benchmarks.ColdDrainBenchmark}
 */
public final class ColdDrainBenchmark {

    static final String NAMESPACE = "bench";

    record Sizes(int vmis, long memoryMiB, long linkMiBPerSecond, int runs, boolean trace) {
        static Sizes smoke() {
            return new Sizes(2, 16, 64, 1, false);
        }
    }

    /** One cold drain: its wall time and where it went. */
    record Run(double wallSeconds, double idealSeconds, double firstMigrationSeconds, double spanSeconds,
               double tailSeconds, int migrations) {
        double ratio() {
            return wallSeconds / idealSeconds;
        }
    }

    private ColdDrainBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        DrainFixtures.kubeVirtVersionArg(args);
        Sizes sizes = new Sizes(intArg(args, "vmis", 12), intArg(args, "memory-mib", 128),
                intArg(args, "link-mib", 16), intArg(args, "runs", 3),
                List.of(args).contains("--trace"));
        Path drainboard = Path.of(stringArg(args, "drainboard", "./drainboard"));
        List<Run> runs = run(sizes, drainboard, System.out);
        System.out.printf(Locale.ROOT, "cold drain, wall / physical ideal: %s (goal ≤ 1.03)%n",
                runs.stream().map(r -> String.format(Locale.ROOT, "%.3f", r.ratio())).toList());
        System.exit(0);
    }

    static List<Run> run(Sizes sizes, Path drainboard, PrintStream out) throws Exception {
        List<Run> runs = new ArrayList<>();
        for (int i = 1; i <= sizes.runs(); i++) {
            out.printf(Locale.ROOT, "run %d of %d%n", i, sizes.runs());
            runs.add(once(sizes, drainboard, out));
        }
        return runs;
    }

    private static Run once(Sizes sizes, Path drainboard, PrintStream out) throws Exception {
        Path dir = Files.createTempDirectory("cold-drain-bench");
        Path kubeconfig = dir.resolve("kubeconfig");
        Files.writeString(dir.resolve("scenario.yaml"), scenario(sizes));
        Process serve = new ProcessBuilder(drainboard.toString(), "serve", "--scenario", dir.resolve("scenario.yaml").toString(),
                "--port", "0", "--kubeconfig-out", kubeconfig.toString())
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.PIPE).start();
        try {
            awaitReady(serve);
            Config config = Config.fromKubeconfig(Files.readString(kubeconfig));
            try (KubernetesClient client = new KubernetesClientBuilder().withConfig(config).build()) {
                place(client, sizes);
                for (String node : List.of("node02", "node03", "node04")) {
                    client.nodes().withName(node).edit(n -> {
                        n.getSpec().setUnschedulable(false);
                        return n;
                    });
                }
                PhysicalIdeal ideal = PhysicalIdeal.of(client, NAMESPACE, List.of("node01"));
                out.println("physical ideal: " + ideal.describe());
                try (MigrationTimeline timeline = new MigrationTimeline(client);
                     DrainTrace steps = sizes.trace() ? new DrainTrace(client, NAMESPACE, out) : null) {
                    Path log = dir.resolve("drain.log");
                    if (steps != null) {
                        steps.mark("drain process launched");
                    }
                    long start = System.nanoTime();
                    ProcessBuilder launch = new ProcessBuilder(drainboard.toString(), "drain", "node01", "--kubeconfig", kubeconfig.toString(),
                            "--ignore-daemonsets", "--delete-emptydir-data")
                            .redirectErrorStream(true).redirectOutput(log.toFile());
                    if (sizes.trace()) {
                        launch.environment().put("DRAINBOARD_JAVA_OPTS", "-Dorg.slf4j.simpleLogger.log.dev.drainboard=debug "
                                + "-Dorg.slf4j.simpleLogger.showDateTime=true -Dorg.slf4j.simpleLogger.dateTimeFormat=HH:mm:ss.SSS");
                    }
                    Process drain = launch.start();
                    int exit = drain.waitFor();
                    long end = System.nanoTime();
                    if (steps != null) {
                        steps.mark("drain process exited " + exit + " at " + java.time.LocalTime.now());
                        Files.readAllLines(log).stream().filter(l -> l.contains("DEBUG") || l.contains("INFO")).forEach(out::println);
                    }
                    if (exit != 0) {
                        throw new IllegalStateException("drain exited " + exit + ":\n" + Files.readString(log));
                    }
                    DrainFixtures.waitUntil("every migration seen ending", () -> timeline.ended().size() >= sizes.vmis());
                    List<MigrationTimeline.Interval> ended = timeline.ended();
                    long firstStart = ended.stream().mapToLong(MigrationTimeline.Interval::startNanos).min().orElse(start);
                    long lastEnd = ended.stream().mapToLong(MigrationTimeline.Interval::endNanos).max().orElse(end);
                    Run run = new Run((end - start) / 1e9, ideal.seconds(), (firstStart - start) / 1e9,
                            (lastEnd - firstStart) / 1e9, (end - lastEnd) / 1e9, ended.size());
                    out.printf(Locale.ROOT, "cold drain of %d VMIs × %d MiB at %d MiB/s: %.2f s from launch to exit; "
                                    + "physical ideal %.2f s; ratio %.3f%n",
                            sizes.vmis(), sizes.memoryMiB(), sizes.linkMiBPerSecond(), run.wallSeconds(), run.idealSeconds(), run.ratio());
                    out.printf(Locale.ROOT, "  launch → first migration starts %.2f s; migrations span %.2f s (%d, mean %.2f s, "
                                    + "%d at most in flight); last migration ends → exit %.2f s%n",
                            run.firstMigrationSeconds(), run.spanSeconds(), run.migrations(),
                            ended.stream().mapToDouble(MigrationTimeline.Interval::seconds).average().orElse(Double.NaN),
                            MigrationTimeline.mostInFlight(ended), run.tailSeconds());
                    return run;
                }
            }
        } finally {
            serve.destroy();
            if (!serve.waitFor(20, TimeUnit.SECONDS)) {
                serve.destroyForcibly();
            }
        }
    }

    /** Four nodes, every one cordoned but node01; every node's link as given. */
    static String scenario(Sizes sizes) {
        StringBuilder yaml = new StringBuilder("apiVersion: v1\nkind: Namespace\nmetadata: {name: " + NAMESPACE + "}\n");
        for (int n = 1; n <= 4; n++) {
            String name = String.format(Locale.ROOT, "node%02d", n);
            yaml.append("---\napiVersion: v1\nkind: Node\nmetadata:\n  name: ").append(name)
                    .append("\n  labels: {kubernetes.io/hostname: ").append(name).append("}")
                    .append("\n  annotations: {sim.drainboard.dev/link-speed: ").append(sizes.linkMiBPerSecond()).append("Mi}")
                    .append("\nspec: {unschedulable: ").append(n != 1).append("}\n");
        }
        return yaml.append(DrainFixtures.kubeVirtScenario()).toString();
    }

    private static void awaitReady(Process serve) throws Exception {
        BufferedReader lines = new BufferedReader(new InputStreamReader(serve.getInputStream(), StandardCharsets.UTF_8));
        CompletableFuture<Void> ready = new CompletableFuture<>();
        Thread.ofPlatform().daemon().start(() -> {
            try {
                for (String line; (line = lines.readLine()) != null; ) {
                    if (line.startsWith("ready ")) {
                        ready.complete(null);
                    }
                }
                ready.completeExceptionally(new IllegalStateException("serve ended before it was ready"));
            } catch (IOException e) {
                ready.completeExceptionally(e);
            }
        });
        ready.get(2, TimeUnit.MINUTES);
    }

    /** The VMIs on node01, Running, migratable and protected by a settled budget. */
    private static void place(KubernetesClient client, Sizes sizes) throws Exception {
        for (int i = 0; i < sizes.vmis(); i++) {
            GenericKubernetesResource vmi = new GenericKubernetesResource();
            vmi.setApiVersion("kubevirt.io/v1");
            vmi.setKind("VirtualMachineInstance");
            vmi.setMetadata(new ObjectMetaBuilder().withName("vm" + i).withNamespace(NAMESPACE).build());
            vmi.setAdditionalProperty("spec", Map.of(
                    "evictionStrategy", "LiveMigrate",
                    "domain", Map.of("memory", Map.of("guest", sizes.memoryMiB() + "Mi"), "devices", Map.of("interfaces",
                            List.of(Map.of("name", "default", "masquerade", Map.of())))),
                    "networks", List.of(Map.of("name", "default", "pod", Map.of())),
                    "volumes", List.of(Map.of("name", "rootdisk",
                            "containerDisk", Map.of("image", "quay.io/containerdisks/alpine:3.20")))));
            client.genericKubernetesResources("kubevirt.io/v1", "VirtualMachineInstance").inNamespace(NAMESPACE)
                    .resource(vmi).create();
        }
        DrainFixtures.waitUntil(sizes.vmis() + " VMIs Running and migratable on node01", () -> vmiStatuses(client).stream()
                .filter(s -> "node01".equals(s.get("nodeName")) && DrainFixtures.migratable(s)).count() == sizes.vmis());
        if (DrainFixtures.budgetsExpected()) {
            DrainFixtures.waitUntil("their disruption budgets settled", () -> client.policy().v1().podDisruptionBudget().inNamespace(NAMESPACE)
                    .list().getItems().stream().filter(DrainFixtures::settled).count() >= sizes.vmis());
        }
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> vmiStatuses(KubernetesClient client) {
        return client.genericKubernetesResources("kubevirt.io/v1", "VirtualMachineInstance").inNamespace(NAMESPACE)
                .list().getItems().stream()
                .map(v -> (Map<String, Object>) v.getAdditionalProperties().getOrDefault("status", Map.of())).toList();
    }




    private static int intArg(String[] args, String name, int fallback) {
        String value = stringArg(args, name, null);
        return value == null ? fallback : Integer.parseInt(value);
    }

    private static String stringArg(String[] args, String name, String fallback) {
        for (String a : args) {
            if (a.startsWith("--" + name + "=")) {
                return a.substring(name.length() + 3);
            }
        }
        return fallback;
    }
}
