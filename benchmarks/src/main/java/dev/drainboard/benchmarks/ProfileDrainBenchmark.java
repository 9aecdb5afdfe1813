package dev.drainboard.benchmarks;

import dev.drainboard.cluster.EmbeddedCluster;
import dev.drainboard.cluster.EmbeddedClusterOptions;
import dev.drainboard.controlplane.LocalControlPlane;
import dev.drainboard.kubevirt.KubeVirtProfile;
import dev.drainboard.kubevirt.ProfileChoice;
import dev.drainboard.ops.DrainOptions;
import dev.drainboard.ops.DrainResult;
import dev.drainboard.ops.Ops;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code kubectl drain} against {@code drainboard drain} ({@link Ops#drain}) of the same node, per KubeVirt release the
 * cluster reports (docs/kubevirt-versions.md): for each profile, two fresh embedded clusters with Drainboard's control
 * plane, the same {@code --vmis} LiveMigrate VMIs on node01 and two nodes to go to; one drained by kubectl (it retries a
 * refused eviction every 5 s), one by Drainboard (it retries when the pod, its VMI or a PDB changes). Prints each time
 * and {@code kubectl / drainboard} (goal > 1 on every profile).
 *
 * <p>Arguments: {@code --vmis=10 --memory=1Gi --kubectl=/usr/bin/kubectl --versions=v1.4.1,v1.5.2,v1.6.0,v1.8.1,v1.9.0};
 * {@code --smoke} for 2 VMIs of 128 MiB.
 */
public final class ProfileDrainBenchmark {

    static final String NAMESPACE = "bench";
    static final List<String> VERSIONS = List.of("v1.4.1", "v1.5.2", "v1.6.0", "v1.8.1", "v1.9.0");

    public record Sizes(int vmis, String memory, String kubectl, List<String> versions) {
        static Sizes smoke(String kubectl) {
            return new Sizes(2, "128Mi", kubectl, VERSIONS);
        }
    }

    /** One profile's figures. */
    public record Row(String version, KubeVirtProfile profile, double kubectlSeconds, double drainboardSeconds) {
        public double ratio() {
            return kubectlSeconds / drainboardSeconds;
        }
    }

    private ProfileDrainBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        boolean smoke = List.of(args).contains("--smoke");
        String kubectl = DrainBenchmark.stringArg(args, "kubectl", "/usr/bin/kubectl");
        Sizes sizes = smoke ? Sizes.smoke(kubectl) : new Sizes(DrainBenchmark.intArg(args, "vmis", 10), DrainBenchmark.stringArg(args, "memory", "1Gi"), kubectl,
                List.of(DrainBenchmark.stringArg(args, "versions", String.join(",", VERSIONS)).split(",")));
        run(sizes, System.out);
        System.exit(0);
    }

    public static List<Row> run(Sizes sizes, PrintStream out) throws Exception {
        List<Row> rows = new ArrayList<>();
        for (String version : sizes.versions()) {
            KubeVirtProfile profile = ProfileChoice.override(version).orElseThrow().profile();
            double kubectl = kubectlDrain(sizes, version, out);
            double drainboard = drainboardDrain(sizes, version, out);
            Row row = new Row(version, profile, kubectl, drainboard);
            out.printf(Locale.ROOT, "%s (%s), %d VMIs: kubectl drain %.2f s / drainboard drain %.2f s = %.2f%n",
                    version, profile.label(), sizes.vmis(), kubectl, drainboard, row.ratio());
            rows.add(row);
        }
        out.println("| KubeVirt | profile | VMIs | kubectl drain | drainboard drain | kubectl ÷ drainboard |");
        out.println("|---|---|---|---|---|---|");
        for (Row r : rows) {
            out.printf(Locale.ROOT, "| %s | %s | %d | %.2f s | %.2f s | %.2f |%n", r.version(), r.profile().label(), sizes.vmis(),
                    r.kubectlSeconds(), r.drainboardSeconds(), r.ratio());
        }
        return rows;
    }

    private static double kubectlDrain(Sizes sizes, String version, PrintStream out) throws Exception {
        try (Bench bench = Bench.start(version, sizes)) {
            Path cache = Files.createTempDirectory("profile-bench-kubectl-cache");
            Path log = Files.createTempFile("profile-bench-kubectl", ".log");
            long start = System.nanoTime();
            Process process = new ProcessBuilder(sizes.kubectl(), "drain", "node01", "--ignore-daemonsets",
                    "--delete-emptydir-data", "--timeout=10m", "--kubeconfig", bench.cluster.kubeconfig().toString(),
                    "--cache-dir", cache.toString())
                    .redirectErrorStream(true).redirectOutput(log.toFile()).start();
            int exit = process.waitFor();
            double seconds = (System.nanoTime() - start) / 1e9;
            List<String> lines = Files.readAllLines(log);
            if (exit != 0) {
                throw new IllegalStateException("kubectl drain exited " + exit + ": " + String.join("\n", lines));
            }
            out.printf(Locale.ROOT, "%s kubectl drain: %.2f s (last line: %s)%n", version, seconds, lines.isEmpty() ? "" : lines.getLast());
            return seconds;
        }
    }

    private static double drainboardDrain(Sizes sizes, String version, PrintStream out) throws Exception {
        try (Bench bench = Bench.start(version, sizes)) {
            DrainOptions options = DrainOptions.defaults().withIgnoreDaemonSets(true).withDeleteEmptyDirData(true)
                    .withTimeout(Duration.ofMinutes(10));
            long start = System.nanoTime();
            DrainResult result = bench.ops.drain("node01", options, progress -> { }).await();
            double seconds = (System.nanoTime() - start) / 1e9;
            if (result.status() != DrainResult.Status.DRAINED) {
                throw new IllegalStateException("drain of node01 ended " + result.status() + ": " + result.why());
            }
            out.printf(Locale.ROOT, "%s drainboard drain: %.2f s%n", version, seconds);
            return seconds;
        }
    }

    /** An embedded cluster reporting {@code version}, its control plane, and the VMIs on node01 ready to be drained. */
    private static final class Bench implements AutoCloseable {
        final EmbeddedCluster cluster;
        final LocalControlPlane plane;
        final KubernetesClient client;
        final Ops ops;

        private Bench(EmbeddedCluster cluster) throws Exception {
            this.cluster = cluster;
            Config config = Config.fromKubeconfig(Files.readString(cluster.kubeconfig()));
            this.plane = LocalControlPlane.start(config, cluster.hypervisors(), true);
            this.client = new KubernetesClientBuilder().withConfig(config).build();
            this.ops = Ops.connect(config);
        }

        static Bench start(String version, Sizes sizes) throws Exception {
            Path dir = Files.createTempDirectory("profile-bench");
            StringBuilder yaml = new StringBuilder("apiVersion: v1\nkind: Namespace\nmetadata: {name: " + NAMESPACE + "}\n");
            for (String node : List.of("node01", "node02", "node03")) {
                yaml.append("---\napiVersion: v1\nkind: Node\nmetadata: {name: ").append(node)
                        .append(", labels: {kubernetes.io/hostname: ").append(node).append("}}\nspec: {unschedulable: ")
                        .append(!node.equals("node01")).append("}\n");
            }
            Files.writeString(dir.resolve("scenario.yaml"), yaml);
            EmbeddedCluster cluster = EmbeddedCluster.start(EmbeddedClusterOptions.defaults()
                    .withScenario(dir.resolve("scenario.yaml").toString()).withPort(0).withKubeconfigOut(dir.resolve("kubeconfig")));
            cluster.setKubeVirtVersion(version);
            Bench bench = new Bench(cluster);
            try {
                bench.ready(ProfileChoice.override(version).orElseThrow().profile(), sizes);
            } catch (Exception | Error e) {
                bench.close();
                throw e;
            }
            return bench;
        }

        /** Waits for the release's webhook registration, places the VMIs on node01, then opens the other nodes. */
        private void ready(KubeVirtProfile profile, Sizes sizes) throws Exception {
            String policy = profile.webhookFailsClosed() ? "Fail" : "Ignore";
            DrainFixtures.waitUntil("the webhook registered as " + profile.label() + " does", () -> plane.controllers().orElseThrow().isLeader()
                    && webhookPolicy().equals(policy));
            for (int i = 0; i < sizes.vmis(); i++) {
                GenericKubernetesResource vmi = new GenericKubernetesResource();
                vmi.setApiVersion("kubevirt.io/v1");
                vmi.setKind("VirtualMachineInstance");
                vmi.setMetadata(new ObjectMetaBuilder().withName("vm" + i).withNamespace(NAMESPACE).build());
                vmi.setAdditionalProperty("spec", Map.of(
                        "evictionStrategy", "LiveMigrate",
                        "domain", Map.of("memory", Map.of("guest", sizes.memory()), "devices", Map.of("interfaces",
                                List.of(Map.of("name", "default", "masquerade", Map.of())))),
                        "networks", List.of(Map.of("name", "default", "pod", Map.of())),
                        "volumes", List.of(Map.of("name", "rootdisk",
                                "containerDisk", Map.of("image", "quay.io/containerdisks/alpine:3.20")))));
                client.genericKubernetesResources("kubevirt.io/v1", "VirtualMachineInstance").inNamespace(NAMESPACE).resource(vmi).create();
            }
            DrainFixtures.waitUntil(sizes.vmis() + " VMIs Running and migratable", () -> migratable() == sizes.vmis());
            if (profile.protectsWithPdbs()) {
                DrainFixtures.waitUntil("their disruption budgets settled", () -> client.policy().v1().podDisruptionBudget()
                        .inNamespace(NAMESPACE).list().getItems().stream().filter(DrainFixtures::settled).count() >= sizes.vmis());
            }
            ops.uncordon("node02");
            ops.uncordon("node03");
        }

        private String webhookPolicy() {
            var configuration = client.admissionRegistration().v1().validatingWebhookConfigurations().withName("virt-api-validator").get();
            return configuration == null || configuration.getWebhooks() == null || configuration.getWebhooks().isEmpty() ? ""
                    : String.valueOf(configuration.getWebhooks().getFirst().getFailurePolicy());
        }

        @SuppressWarnings("unchecked")
        private long migratable() {
            return client.genericKubernetesResources("kubevirt.io/v1", "VirtualMachineInstance").inNamespace(NAMESPACE)
                    .list().getItems().stream()
                    .map(v -> (Map<String, Object>) v.getAdditionalProperties().getOrDefault("status", Map.of()))
                    .filter(s -> "node01".equals(s.get("nodeName")) && DrainFixtures.migratable(s)).count();
        }

        @Override
        public void close() {
            ops.close();
            client.close();
            plane.close();
            cluster.close();
        }
    }
}
