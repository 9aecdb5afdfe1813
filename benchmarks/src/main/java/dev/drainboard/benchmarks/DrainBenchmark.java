package dev.drainboard.benchmarks;

import dev.drainboard.cluster.EmbeddedCluster;
import dev.drainboard.cluster.EmbeddedClusterOptions;
import dev.drainboard.controlplane.LocalControlPlane;
import dev.drainboard.handler.MigrationSync;
import dev.drainboard.kubevirt.api.KubeVirt;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.kubevirt.config.InvalidClusterConfigException;
import dev.drainboard.kubevirt.config.MigrationConfig;
import dev.drainboard.ops.DrainOperation;
import dev.drainboard.ops.DrainOptions;
import dev.drainboard.ops.DrainResult;
import dev.drainboard.ops.Ops;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;

import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * Drains of nodes full of migratable VMIs (issue 5), against an embedded cluster with Drainboard's control plane
 * (migration limits 2 per node, 5 per cluster; simulated live migration, a 1 GiB guest in about 2 s):
 * <ol>
 *   <li>one node with {@code --vmis} LiveMigrate VMIs drained by {@link Ops#drain}: its time to DRAINED over the
 *       physical ideal, every VMI's memory over the simulated link with the node's 2 slots always busy
 *       ({@link PhysicalIdeal}; goal ≤ 1.05), and for comparison over the ideal from observed migrations,
 *       {@code ceil(vmis / 2) × mean migration time};</li>
 *   <li>{@code --nodes} nodes with {@code --per-node} VMIs each drained at once by {@link Ops#drainAll}, two spare
 *       nodes: the physical ideal with the cluster's 5 slots always busy as a share of the time to all DRAINED
 *       (goal ≥ 95 %); for comparison the same over the ideal from observed migrations, and the share of
 *       {@code 5 × span} during which migrations were in flight;</li>
 *   <li>the node of part 1 drained by {@code kubectl drain} (a fresh cluster): its time over part 1's (skipped when
 *       {@code --kubectl=} is empty).</li>
 * </ol>
 * VMIs are placed by uncordoning one node at a time (all nodes start cordoned), so no VMI carries a nodeSelector
 * that would limit where it can migrate to; all nodes are uncordoned before a drain.
 *
 * The guests dirty no memory (no {@code sim.drainboard.dev/memory-dirty-rate}) and the nodes have no
 * {@code sim.drainboard.dev/link-speed}, so a transfer takes guest memory / {@link MigrationSync#DEFAULT_LINK_BYTES_PER_SECOND}.
 *
 * <p>Arguments: {@code --vmis=40 --nodes=4 --per-node=20 --memory=1Gi --kubectl=/usr/bin/kubectl
 * --warmup-vmis=20 --trace}; {@code --smoke} for tiny sizes; {@code --kubectl=} (empty) skips part 3,
 * {@code --skip-part2} skips part 2, {@code --warmup-vmis=0} skips the warm-up drain; {@code --kubevirt-version=v1.9.0}
 * runs it on that KubeVirt release's drain path (see {@link DrainFixtures#kubeVirtVersion()}).
 */
public final class DrainBenchmark {

    static final String NAMESPACE = "bench";
    /** The control plane's limits: the benchmark's clusters have no KubeVirt CR, so KubeVirt's defaults apply. */
    static final int PER_NODE_LIMIT = MigrationConfig.DEFAULT_PARALLEL_OUTBOUND_MIGRATIONS_PER_NODE;
    static final int CLUSTER_LIMIT = MigrationConfig.DEFAULT_PARALLEL_MIGRATIONS_PER_CLUSTER;
    /** {@code --trace}: print every change of part 1's VMIMs, pods and PDBs (see {@link DrainTrace}). */
    static boolean TRACE;

    /**
     * @param historyVmis VMIs migrated once in each measured cluster before its drain (0: none), so the drain's estimate
     *                    has recent migrations to learn their overhead from, as on a cluster in use
     */
    public record Sizes(int vmis, int nodes, int perNode, String memory, String kubectl, int warmupVmis, int historyVmis) {
        public Sizes(int vmis, int nodes, int perNode, String memory, String kubectl, int warmupVmis) {
            this(vmis, nodes, perNode, memory, kubectl, warmupVmis, 0);
        }

        /** Tiny, and without kubectl: its 5 s between refused evictions alone would take most of a smoke run. */
        static Sizes smoke() {
            return new Sizes(4, 2, 3, "128Mi", "", 0, 2);
        }
    }

    /**
     * The figures. {@code oneNodeRatio} and {@code allNodesObservedRatio} are over the ideal from observed migrations,
     * {@code oneNodePhysicalRatio} and {@code allNodesPhysicalRatio} over the physical ideal (the goals' figures);
     * part 2's are NaN when it is skipped.
     */
    public record Report(double oneNodeSeconds, double meanMigrationSeconds, double oneNodeRatio,
                         double allNodesSeconds, double busyShare, int mostInFlight,
                         double kubectlSeconds, double kubectlRatio,
                         double oneNodePhysicalIdealSeconds, double oneNodePhysicalRatio,
                         double allNodesObservedRatio, double allNodesPhysicalIdealSeconds, double allNodesPhysicalRatio,
                         double oneNodeEstimateSeconds, double allNodesEstimateSeconds) {

        /** How far the drain preview's estimate was off, as a share of the actual time (the goal: ≤ 10 %). */
        public double oneNodeEstimateError() {
            return Math.abs(oneNodeSeconds - oneNodeEstimateSeconds) / oneNodeSeconds;
        }

        public double allNodesEstimateError() {
            return Math.abs(allNodesSeconds - allNodesEstimateSeconds) / allNodesSeconds;
        }

        /** Part 2's goal figure: the physical ideal as a share of the time to all DRAINED. */
        public double allNodesPhysicalShare() {
            return 1 / allNodesPhysicalRatio;
        }
    }

    public static void main(String[] args) throws Exception {
        DrainFixtures.kubeVirtVersionArg(args);
        boolean smoke = List.of(args).contains("--smoke");
        TRACE = List.of(args).contains("--trace");
        Sizes base = smoke ? Sizes.smoke() : new Sizes(40, 4, 20, "1Gi", "/usr/bin/kubectl", 20);
        Sizes sizes = new Sizes(intArg(args, "vmis", base.vmis()), intArg(args, "nodes", base.nodes()),
                intArg(args, "per-node", base.perNode()), stringArg(args, "memory", base.memory()),
                stringArg(args, "kubectl", base.kubectl()), intArg(args, "warmup-vmis", base.warmupVmis()),
                intArg(args, "history-vmis", base.historyVmis()));
        run(sizes, !List.of(args).contains("--skip-part2"), System.out);
        System.exit(0);
    }

    public static Report run(Sizes sizes, PrintStream out) throws Exception {
        return run(sizes, true, out);
    }

    static Report run(Sizes sizes, boolean part2, PrintStream out) throws Exception {
        out.printf(Locale.ROOT, "load average at start: %.2f%n", ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        out.println("KubeVirt version the cluster reports: " + java.util.Objects.requireNonNullElse(DrainFixtures.kubeVirtVersion(),
                "none (the default profile)"));
        DrainOptions options = DrainOptions.defaults().withIgnoreDaemonSets(true).withDeleteEmptyDirData(true)
                .withTimeout(Duration.ofMinutes(10));

        // Warm-up: a drain on a throw-away cluster first, so part 1 measures a control plane that has run before (as in a
        // console that has been open a while), not the JIT compiling its first drain. Its figures are printed, not used.
        if (sizes.warmupVmis() > 0) {
            out.printf(Locale.ROOT, "warm-up: a drain of %d VMIs (not counted)%n", sizes.warmupVmis());
            oneNode("warm-up", sizes.warmupVmis(), 0, sizes.memory(), options, out, false);
        }

        // Part 1: one node.
        OneNode first = oneNode("one node", sizes.vmis(), sizes.historyVmis(), sizes.memory(), options, out, TRACE);
        double oneNode = first.seconds();
        double meanMigration = first.meanMigration();
        double oneNodeRatio = first.ratio();

        // Part 2: several nodes at once, two spare nodes to migrate to.
        AllNodes all = part2 ? allNodes(sizes, options, out)
                : new AllNodes(Double.NaN, Double.NaN, 0, Double.NaN, Double.NaN, Double.NaN, Double.NaN);
        double allNodes = all.seconds();
        double busy = all.busyShare();
        int most = all.mostInFlight();

        // Part 3: the node of part 1 drained by kubectl.
        double kubectl = Double.NaN;
        if (sizes.kubectl().isEmpty()) {
            out.println("kubectl drain: skipped (no --kubectl)");
        } else {
            kubectl = kubectlDrain(sizes, out);
        }
        double kubectlRatio = kubectl / oneNode;
        out.printf(Locale.ROOT, "kubectl drain / Ops.drain: %.2f s / %.2f s = %.2f%n", kubectl, oneNode, kubectlRatio);
        out.printf(Locale.ROOT, "load average at end: %.2f%n", ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        return new Report(oneNode, meanMigration, oneNodeRatio, allNodes, busy, most, kubectl, kubectlRatio,
                first.physicalIdeal(), first.physicalRatio(), all.observedRatio(), all.physicalIdeal(), all.physicalRatio(),
                first.estimate(), all.estimate());
    }

    private record OneNode(double seconds, double meanMigration, double ratio, double physicalIdeal, double physicalRatio,
                           double estimate) {
    }

    /**
     * Part 1 (and the warm-up): one node with {@code vmis} VMIs drained by {@link Ops#drain}; {@code label} starts
     * each printed line.
     */
    private static OneNode oneNode(String label, int vmis, int historyVmis, String memory, DrainOptions options, PrintStream out,
                                   boolean trace) throws Exception {
        double oneNode;
        double meanMigration;
        PhysicalIdeal physical;
        double estimate;
        try (Bench bench = Bench.start(5, out)) {
            bench.history(historyVmis, memory, options, out);
            bench.place("node01", vmis, memory);
            bench.uncordonAll();
            physical = bench.physicalIdeal(List.of("node01"));
            estimate = bench.ops.preview("node01", options).estimateSeconds();
            try (MigrationTimeline timeline = new MigrationTimeline(bench.client);
                 DrainTrace steps = trace ? new DrainTrace(bench.client, NAMESPACE, out) : null) {
                long start = System.nanoTime();
                if (steps != null) {
                    steps.mark("drain starts");
                }
                DrainResult result = bench.ops.drain("node01", options, progress -> {
                    if (steps != null) {
                        steps.mark("drain " + progress.phase() + ": " + progress.pods().stream()
                                .map(p -> p.state().name()).distinct().sorted().toList());
                    }
                }).await();
                oneNode = (System.nanoTime() - start) / 1e9;
                require(result);
                // The last launcher pod can be gone before the informer has its VMIM's final phase.
                DrainFixtures.waitUntil("every migration seen ending", () -> timeline.ended().size() >= vmis);
                List<MigrationTimeline.Interval> ended = timeline.ended();
                meanMigration = ended.stream().filter(MigrationTimeline.Interval::succeeded)
                        .mapToDouble(MigrationTimeline.Interval::seconds).average().orElse(Double.NaN);
                out.printf(Locale.ROOT, "%s, %d VMIs: DRAINED in %.2f s; %d migrations, mean %.2f s each, at most %d in flight%n",
                        label, vmis, oneNode, ended.size(), meanMigration, MigrationTimeline.mostInFlight(ended));
                long firstStart = ended.stream().mapToLong(MigrationTimeline.Interval::startNanos).min().orElse(start);
                long lastEnd = ended.stream().mapToLong(MigrationTimeline.Interval::endNanos).max().orElse(start);
                out.printf(Locale.ROOT, "%s: drain start → first migration %.2f s; last migration end → DRAINED %.2f s; "
                                + "slots busy %.1f %% of %d × span%n",
                        label, (firstStart - start) / 1e9, (start + (long) (oneNode * 1e9) - lastEnd) / 1e9,
                        MigrationTimeline.busyShare(ended, PER_NODE_LIMIT) * 100, PER_NODE_LIMIT);
                printEstimate(label, estimate, oneNode, historyVmis, out);
            }
        }
        double ideal = Math.ceil(vmis / (double) PER_NODE_LIMIT) * meanMigration;
        double ratio = oneNode / ideal;
        out.printf(Locale.ROOT, "%s: time / ideal from observed migrations (ceil(%d/%d) × %.2f s = %.2f s) = %.3f "
                        + "(for comparison: counts the control plane's own time per migration as ideal)%n",
                label, vmis, PER_NODE_LIMIT, meanMigration, ideal, ratio);
        double physicalRatio = oneNode / physical.seconds();
        out.printf(Locale.ROOT, "%s: physical ideal %s%n", label, physical.describe());
        out.printf(Locale.ROOT, "%s: time / physical ideal = %.2f s / %.2f s = %.3f%s%n", label, oneNode, physical.seconds(),
                physicalRatio, label.equals("warm-up") ? " (not counted)" : " (goal ≤ 1.05: the goal is on this ratio)");
        return new OneNode(oneNode, meanMigration, ratio, physical.seconds(), physicalRatio, estimate);
    }

    /** The preview's estimate against the time the drain took. */
    private static void printEstimate(String label, double estimate, double actual, int historyVmis, PrintStream out) {
        out.printf(Locale.ROOT, "%s: preview's estimate %.2f s (%s), actual %.2f s: |actual − estimate| / actual = %.1f %%%s%n",
                label, estimate, historyVmis > 0 ? historyVmis + " VMIs migrated before it" : "no migrations before it",
                actual, Math.abs(actual - estimate) / actual * 100, label.equals("warm-up") ? "" : " (goal ≤ 10 %)");
    }

    private record AllNodes(double seconds, double busyShare, int mostInFlight, double observedRatio,
                            double physicalIdeal, double physicalRatio, double estimate) {
    }

    /** Part 2: several nodes drained at once, two spare nodes to migrate to. */
    private static AllNodes allNodes(Sizes sizes, DrainOptions options, PrintStream out) throws Exception {
        try (Bench bench = Bench.start(sizes.nodes() + 2, out)) {
            bench.history(sizes.historyVmis(), sizes.memory(), options, out);
            List<String> drained = new ArrayList<>();
            for (int n = 1; n <= sizes.nodes(); n++) {
                String node = Bench.nodeName(n);
                bench.place(node, sizes.perNode(), sizes.memory());
                drained.add(node);
            }
            bench.uncordonAll();
            PhysicalIdeal physical = bench.physicalIdeal(drained);
            int slots = physical.slots(); // the cluster's 5 unless fewer nodes are drained than fill them at 2 each
            double estimate = bench.ops.previewAll(drained, options).stream()
                    .mapToDouble(p -> p.estimateSeconds() == null ? 0 : p.estimateSeconds()).max().orElse(0);
            try (MigrationTimeline timeline = new MigrationTimeline(bench.client)) {
                long start = System.nanoTime();
                List<DrainOperation> drains = bench.ops.drainAll(drained, options);
                List<DrainResult> results = Ops.allEnded(drains).get(15, TimeUnit.MINUTES);
                double allNodes = (System.nanoTime() - start) / 1e9;
                results.forEach(DrainBenchmark::require);
                DrainFixtures.waitUntil("every migration seen ending", () -> timeline.ended().size() >= sizes.nodes() * sizes.perNode());
                List<MigrationTimeline.Interval> ended = timeline.ended();
                double busy = MigrationTimeline.busyShare(ended, slots);
                int most = MigrationTimeline.mostInFlight(ended);
                double mean = ended.stream().mapToDouble(MigrationTimeline.Interval::seconds).average().orElse(Double.NaN);
                out.printf(Locale.ROOT, "%d nodes × %d VMIs at once: all DRAINED in %.2f s; %d migrations, mean %.2f s each, at most %d in flight%n",
                        sizes.nodes(), sizes.perNode(), allNodes, ended.size(), mean, most);
                out.printf(Locale.ROOT, "%d nodes: migration slots busy %.1f %% of %d × span (observed migrations, first start → last end)%n",
                        sizes.nodes(), busy * 100, slots);
                long firstStart = ended.stream().mapToLong(MigrationTimeline.Interval::startNanos).min().orElse(start);
                long lastEnd = ended.stream().mapToLong(MigrationTimeline.Interval::endNanos).max().orElse(start);
                out.printf(Locale.ROOT, "%d nodes: drain start → first migration %.2f s; span %.2f s (ideal ceil(%d/%d) × %.2f s = %.2f s); "
                                + "last migration end → all DRAINED %.2f s%n",
                        sizes.nodes(), (firstStart - start) / 1e9, (lastEnd - firstStart) / 1e9, ended.size(), slots, mean,
                        Math.ceil(ended.size() / (double) slots) * mean, (start + (long) (allNodes * 1e9) - lastEnd) / 1e9);
                // Which node finished when: a node that got fewer slots early finishes last, with slots idle meanwhile.
                Map<String, List<MigrationTimeline.Interval>> byNode = new TreeMap<>(ended.stream()
                        .filter(i -> i.sourceNode() != null).collect(Collectors.groupingBy(MigrationTimeline.Interval::sourceNode)));
                byNode.forEach((node, list) -> out.printf(Locale.ROOT, "%d nodes: %s's %d migrations ended by %.2f s of the span%n",
                        sizes.nodes(), node, list.size(),
                        (list.stream().mapToLong(MigrationTimeline.Interval::endNanos).max().orElse(firstStart) - firstStart) / 1e9));
                double observedIdeal = Math.ceil(ended.size() / (double) slots) * mean;
                double observedRatio = allNodes / observedIdeal;
                out.printf(Locale.ROOT, "%d nodes: time / ideal from observed migrations (ceil(%d/%d) × %.2f s = %.2f s) = %.3f, "
                                + "i.e. %.1f %% (for comparison: counts the control plane's own time per migration as ideal)%n",
                        sizes.nodes(), ended.size(), slots, mean, observedIdeal, observedRatio, 100 / observedRatio);
                double physicalRatio = allNodes / physical.seconds();
                out.printf(Locale.ROOT, "%d nodes: physical ideal %s%n", sizes.nodes(), physical.describe());
                out.printf(Locale.ROOT, "%d nodes: time / physical ideal = %.2f s / %.2f s = %.3f, i.e. %.1f %% of the physical ideal "
                                + "(goal ≥ 95 %%: the goal is on this share)%n",
                        sizes.nodes(), allNodes, physical.seconds(), physicalRatio, 100 / physicalRatio);
                printEstimate(sizes.nodes() + " nodes", estimate, allNodes, sizes.historyVmis(), out);
                return new AllNodes(allNodes, busy, most, observedRatio, physical.seconds(), physicalRatio, estimate);
            }
        }
    }

    /** Places the VMIs of part 1 on a fresh cluster and drains their node with kubectl; returns its seconds. */
    private static double kubectlDrain(Sizes sizes, PrintStream out) throws Exception {
        try (Bench bench = Bench.start(5, out)) {
            bench.place("node01", sizes.vmis(), sizes.memory());
            bench.uncordonAll();
            Path cache = Files.createTempDirectory("drain-bench-kubectl-cache");
            Path log = Files.createTempFile("drain-bench-kubectl", ".log");
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
            out.printf(Locale.ROOT, "kubectl drain: %.2f s (last line: %s)%n", seconds, lines.isEmpty() ? "" : lines.getLast());
            return seconds;
        }
    }

    private static void require(DrainResult result) {
        if (result.status() != DrainResult.Status.DRAINED) {
            throw new IllegalStateException("drain of " + result.node() + " ended " + result.status() + ": " + result.why());
        }
    }

    /** An embedded cluster of cordoned nodes with Drainboard's control plane running on it. */
    static final class Bench implements AutoCloseable {
        final EmbeddedCluster cluster;
        final LocalControlPlane plane;
        final KubernetesClient client;
        final Ops ops;
        final int nodes;

        private Bench(EmbeddedCluster cluster, int nodes) throws Exception {
            this.cluster = cluster;
            this.nodes = nodes;
            Config config = Config.fromKubeconfig(Files.readString(cluster.kubeconfig()));
            this.plane = LocalControlPlane.start(config, cluster.hypervisors(), true);
            this.client = new KubernetesClientBuilder().withConfig(config).build();
            this.ops = Ops.connect(config);
            DrainFixtures.waitUntil("the control plane leads and its webhook is registered", () -> plane.controllers().orElseThrow().isLeader()
                    && client.admissionRegistration().v1().validatingWebhookConfigurations().withName("virt-api-validator").get() != null);
        }

        static String nodeName(int n) {
            return String.format(Locale.ROOT, "node%02d", n);
        }

        static Bench start(int nodes, PrintStream out) throws Exception {
            Path dir = Files.createTempDirectory("drain-bench");
            StringBuilder yaml = new StringBuilder("apiVersion: v1\nkind: Namespace\nmetadata: {name: " + NAMESPACE + "}\n");
            for (int n = 1; n <= nodes; n++) {
                yaml.append("---\napiVersion: v1\nkind: Node\nmetadata: {name: ").append(nodeName(n))
                        .append(", labels: {kubernetes.io/hostname: ").append(nodeName(n)).append("}}\nspec: {unschedulable: true}\n");
            }
            yaml.append(DrainFixtures.kubeVirtScenario());
            Path scenario = dir.resolve("scenario.yaml");
            Files.writeString(scenario, yaml);
            out.println("cluster of " + nodes + " nodes, scenario " + scenario);
            return new Bench(EmbeddedCluster.start(EmbeddedClusterOptions.defaults().withScenario(scenario.toString())
                    .withPort(0).withKubeconfigOut(dir.resolve("kubeconfig"))), nodes);
        }

        /**
         * Gives the cluster a history of {@code vmis} migrations: that many VMIs started on the last node and drained to
         * the one before it (both cordoned again after), away from the nodes the benchmark drains.
         */
        void history(int vmis, String memory, DrainOptions options, PrintStream out) throws Exception {
            if (vmis <= 0) {
                return;
            }
            String from = nodeName(nodes);
            String to = nodeName(nodes - 1);
            place(from, vmis, memory);
            ops.uncordon(to);
            require(ops.drain(from, options).await());
            DrainFixtures.waitUntil("the history's migrations succeeded", () -> client.genericKubernetesResources("kubevirt.io/v1",
                    "VirtualMachineInstanceMigration").inNamespace(NAMESPACE).list().getItems().stream()
                    .filter(m -> "Succeeded".equals(((Map<?, ?>) m.getAdditionalProperties().getOrDefault("status", Map.of())).get("phase")))
                    .count() >= vmis);
            ops.cordon(to);
            out.printf(Locale.ROOT, "history: %d VMIs migrated %s → %s%n", vmis, from, to);
        }

        /** Starts {@code count} VMIs on {@code node} (the only schedulable node meanwhile) and waits until they can be drained. */
        void place(String node, int count, String memory) throws Exception {
            ops.uncordon(node);
            for (int i = 0; i < count; i++) {
                GenericKubernetesResource vmi = new GenericKubernetesResource();
                vmi.setApiVersion("kubevirt.io/v1");
                vmi.setKind("VirtualMachineInstance");
                vmi.setMetadata(new ObjectMetaBuilder().withName(node + "-vm" + i).withNamespace(NAMESPACE).build());
                vmi.setAdditionalProperty("spec", Map.of(
                        "evictionStrategy", "LiveMigrate",
                        "domain", Map.of("memory", Map.of("guest", memory), "devices", Map.of("interfaces",
                                List.of(Map.of("name", "default", "masquerade", Map.of())))),
                        "networks", List.of(Map.of("name", "default", "pod", Map.of())),
                        "volumes", List.of(Map.of("name", "rootdisk",
                                "containerDisk", Map.of("image", "quay.io/containerdisks/alpine:3.20")))));
                client.genericKubernetesResources("kubevirt.io/v1", "VirtualMachineInstance").inNamespace(NAMESPACE)
                        .resource(vmi).create();
            }
            DrainFixtures.waitUntil(count + " VMIs Running and migratable on " + node, () -> migratableOn(node) == count);
            if (DrainFixtures.budgetsExpected()) {
                DrainFixtures.waitUntil("their disruption budgets settled", () -> settledBudgets() >= migratableTotal());
            }
            ops.cordon(node);
        }

        @SuppressWarnings("unchecked")
        private List<Map<String, Object>> vmiStatuses() {
            return client.genericKubernetesResources("kubevirt.io/v1", "VirtualMachineInstance").inNamespace(NAMESPACE)
                    .list().getItems().stream()
                    .map(v -> (Map<String, Object>) v.getAdditionalProperties().getOrDefault("status", Map.of())).toList();
        }

        @SuppressWarnings("unchecked")

        private long migratableOn(String node) {
            return vmiStatuses().stream().filter(s -> node.equals(s.get("nodeName")) && DrainFixtures.migratable(s)).count();
        }

        private long migratableTotal() {
            return vmiStatuses().stream().filter(DrainFixtures::migratable).count();
        }

        private long settledBudgets() {
            return client.policy().v1().podDisruptionBudget().inNamespace(NAMESPACE).list().getItems().stream()
                    .filter(DrainFixtures::settled).count();
        }


        /**
         * The physical ideal of draining these nodes of the VMIs on them now, with the migration configuration the
         * control plane reads (the cluster's KubeVirt CR, else KubeVirt's defaults) and each VMI's source node.
         */
        PhysicalIdeal physicalIdeal(List<String> drained) throws InvalidClusterConfigException {
            return PhysicalIdeal.of(client, NAMESPACE, drained);
        }

        void uncordonAll() {
            for (int n = 1; n <= nodes; n++) {
                ops.uncordon(nodeName(n));
            }
        }

        @Override
        public void close() {
            ops.close();
            client.close();
            plane.close();
            cluster.close();
        }
    }


    /** {@code --name=N} among the arguments, else the fallback (the benchmarks' common argument form). */
    static int intArg(String[] args, String name, int fallback) {
        String value = stringArg(args, name, null);
        return value == null ? fallback : Integer.parseInt(value);
    }

    static String stringArg(String[] args, String name, String fallback) {
        for (String a : args) {
            if (a.startsWith("--" + name + "=")) {
                return a.substring(name.length() + 3);
            }
        }
        return fallback;
    }
}
