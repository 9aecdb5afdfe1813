package dev.drainboard.benchmarks;

import dev.drainboard.cluster.EmbeddedCluster;
import dev.drainboard.cluster.EmbeddedClusterOptions;
import dev.drainboard.cluster.hypervisor.SimulatedHypervisor;
import dev.drainboard.controlplane.LocalControlPlane;
import dev.drainboard.kubevirt.DrainboardAnnotations;
import dev.drainboard.kubevirt.api.KubeVirt;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.kubevirt.config.ClusterConfig;
import dev.drainboard.kubevirt.config.NodePressureAssist;
import dev.drainboard.simulation.SimulationKnobs;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;

import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Node-pressure eviction turned into live migration (docs/behaviour.md) under load (issue 8): a node of {@code --vms}
 * LiveMigrate VMIs of various sizes and dirty rates is pushed past its soft memory threshold with the gate
 * {@code NodePressureEvictionLiveMigration} on; the simulated kubelet evicts them one at a time, each with
 * {@code evictionMaxPodGracePeriod} to get away before it is killed. For each grace period (300, 60, 30 s) and each
 * phase-1 assist (None, AutoConverge, PauseBeforeKill) it prints the share of evicted VMs that migrated (saved) rather
 * than being killed (lost).
 *
 * <p>Time scaling: every duration of the simulated world is divided by {@code --time-scale} (k, default 10) and
 * every rate multiplied by it, so a 300 s grace period runs in 30 s: the kubelet's {@code evictionMaxPodGracePeriod},
 * the node's link speed (512 MiB/s × k), the guests' dirty rates, {@code maxDowntimeMs}, {@code progressTimeout},
 * {@code completionTimeoutPerGiB}, and the simulated hypervisor's own timing
 * ({@link SimulatedHypervisor.Timing#dividedBy}: the transfer's 50 ms tick, the 250 ms progress interval, boot and
 * shutdown delays). A pre-copy migration's course depends only on the ratios of these, so it is the same run k times
 * faster, down to the tick's granularity. What is not scaled:
 * <ul>
 *   <li>the controllers' own latencies (VMIM creation, target pod, hand-off: a few hundred milliseconds, i.e. a few
 *       "seconds" at k = 10): a migration starts later after its eviction than it would unscaled (pessimistic);</li>
 *   <li>{@code PauseBeforeKill}'s safety margin before the kill (a twentieth of the grace period, at most 1 s:
 *       {@code NodePressureEvacuation.pauseBy}): the 1 s cap stays 1 s of wall time, so at k = 10 the guest pauses up
 *       to 10 "seconds" before the kill instead of 1 s: an earlier, longer pause, less time to migrate (pessimistic);</li>
 *   <li>the simulated eviction manager's 1 s period ({@code MemoryPressureMonitor.PERIOD}): 10 s at k = 10, which is
 *       the real kubelet's ({@code evictionMonitoringPeriod} in Kubernetes' {@code pkg/kubelet/kubelet.go}). The
 *       evictions come further apart than in an unscaled run of the simulation, as far apart as on a real node, so
 *       fewer migrations wait for one of the node's two slots;</li>
 *   <li>grace periods are whole seconds ({@code max(1, grace / k)}): exact for 300, 60 and 30 at k = 10.</li>
 * </ul>
 *
 * <p>Arguments: {@code --vms=12 --time-scale=10 --graces=300,60,30 --assists=None,AutoConverge,PauseBeforeKill};
 * {@code --smoke} for 2 VMs, the 30 s grace period and the three assists.
 */
public final class NodePressureBenchmark {

    static final String NAMESPACE = "bench";
    static final String FULL = "full";
    static final String SPARE = "spare";
    static final long GI = 1L << 30;
    static final long MI = 1L << 20;
    /** The VM mix, cycled: guest sizes and what the guests dirty per second (real-world figures, before scaling). */
    static final long[] SIZES_GI = {1, 2, 4, 8};
    static final long[] DIRTY_MI = {0, 128, 384, 640};
    static final long LINK_MI = 512;

    /** One VMI of the mix. */
    record Vm(String name, long sizeGi, long dirtyMi) {
    }

    /** One cell: the VMs the kubelet evicted, how many were saved (Running on spare) and lost (their VMI failed). */
    public record Outcome(int evicted, int saved, int lost, double seconds, List<String> lostVms) {
        double savedShare() {
            return evicted == 0 ? 0 : 100.0 * saved / evicted;
        }
    }

    /** The mix's size, the time scale, and the grace periods and assists to try (one fresh cluster per pair). */
    public record Sizes(int vms, int timeScale, List<Integer> graces, List<NodePressureAssist> assists) {
        /** 2 VMs (1 GiB not dirtying, 2 GiB dirtying 128 MiB/s), the shortest grace period, each assist: about 30 s. */
        static Sizes smoke() {
            return new Sizes(2, 10, List.of(30), List.of(NodePressureAssist.values()));
        }
    }

    /** The outcome of each cell, by grace period in seconds, then by assist, in the order run. */
    public record Report(Map<Integer, Map<NodePressureAssist, Outcome>> cells) {
    }

    public static void main(String[] args) throws Exception {
        Sizes base = List.of(args).contains("--smoke") ? Sizes.smoke()
                : new Sizes(12, 10, List.of(300, 60, 30), List.of(NodePressureAssist.values()));
        List<Integer> graces = Arrays.stream(stringArg(args, "graces", join(base.graces())).split(",")).map(Integer::parseInt).toList();
        List<NodePressureAssist> assists = Arrays.stream(stringArg(args, "assists",
                        String.join(",", base.assists().stream().map(NodePressureAssist::value).toList())).split(","))
                .map(a -> NodePressureAssist.parse(a).orElseThrow(() -> new IllegalArgumentException("unknown assist " + a))).toList();
        run(new Sizes(intArg(args, "vms", base.vms()), intArg(args, "time-scale", base.timeScale()), graces, assists), System.out);
        System.exit(0);
    }

    public static Report run(Sizes sizes, PrintStream out) throws Exception {
        int scale = sizes.timeScale();
        List<Vm> mix = mix(sizes.vms());
        SimulatedHypervisor.Timing timing = SimulatedHypervisor.Timing.defaults().dividedBy(scale);
        out.printf(Locale.ROOT, "load average at start: %.2f; time scale %d (hypervisor tick %.1f ms, progress every %.1f ms); %d VMs:%n",
                load(), scale, timing.tick().toNanos() / 1e6, timing.progressInterval().toNanos() / 1e6, sizes.vms());
        mix.forEach(v -> out.printf(Locale.ROOT, "  %s %d GiB, dirty %d MiB/s%n", v.name(), v.sizeGi(), v.dirtyMi()));

        Map<Integer, Map<NodePressureAssist, Outcome>> results = new LinkedHashMap<>();
        for (int grace : sizes.graces()) {
            for (NodePressureAssist assist : sizes.assists()) {
                Outcome o = run(mix, grace, assist, scale, out);
                results.computeIfAbsent(grace, g -> new LinkedHashMap<>()).put(assist, o);
                out.printf(Locale.ROOT, "evictionMaxPodGracePeriod %3d s, assist %-15s: saved %2d of %2d (%5.1f %%), lost %s, %.0f s wall%n",
                        grace, assist.value(), o.saved(), o.evicted(), o.savedShare(), o.lostVms(), o.seconds());
            }
        }
        out.println();
        out.println("| evictionMaxPodGracePeriod | " + String.join(" | ", sizes.assists().stream().map(NodePressureAssist::value).toList()) + " |");
        out.println("|---|" + "---|".repeat(sizes.assists().size()));
        results.forEach((grace, byAssist) -> {
            StringBuilder row = new StringBuilder("| " + grace + " s |");
            byAssist.values().forEach(o -> row.append(String.format(Locale.ROOT, " %.0f %% (%d/%d) |", o.savedShare(), o.saved(), o.evicted())));
            out.println(row);
        });
        out.printf(Locale.ROOT, "load average at end: %.2f%n", load());
        return new Report(results);
    }

    private static String join(List<Integer> values) {
        return String.join(",", values.stream().map(String::valueOf).toList());
    }

    static List<Vm> mix(int count) {
        List<Vm> mix = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            mix.add(new Vm(String.format(Locale.ROOT, "vm-%02d", i), SIZES_GI[i % SIZES_GI.length],
                    DIRTY_MI[(i + i / SIZES_GI.length) % DIRTY_MI.length]));
        }
        return mix;
    }

    /**
     * One fresh cluster: the VMIs run on {@code full}, then {@code spare} is uncordoned and {@code full} gets a soft
     * threshold above what it can ever have available while one VMI is left, so the kubelet evicts every VMI, one
     * at a time. Ends when each is saved (Running on spare) or lost (its VMI failed).
     */
    static Outcome run(List<Vm> mix, int graceSeconds, NodePressureAssist assist, int scale, PrintStream out) throws Exception {
        Path dir = Files.createTempDirectory("drainboard-pressure-bench-");
        try (EmbeddedCluster cluster = EmbeddedCluster.start(EmbeddedClusterOptions.defaults().withPort(0)
                .withKubeconfigOut(dir.resolve("kubeconfig"))
                .withHypervisorTiming(SimulatedHypervisor.Timing.defaults().dividedBy(scale)))) {
            Config config = Config.fromKubeconfig(Files.readString(cluster.kubeconfig()));
            try (KubernetesClient client = new KubernetesClientBuilder().withConfig(config).build();
                 LocalControlPlane plane = LocalControlPlane.start(config, cluster.hypervisors(), true)) {
                // KubeVirt's install namespace "kubevirt" is there from the embedded cluster's start.
                client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(NAMESPACE).endMetadata().build()).create();
                client.resources(KubeVirt.class).resource(Serialization.unmarshal("""
                        {"apiVersion":"kubevirt.io/v1","kind":"KubeVirt","metadata":{"name":"kubevirt","namespace":"kubevirt",
                          "annotations":{"%s":"%s"}},
                         "spec":{"configuration":{"migrations":{"maxDowntimeMs":%d,"progressTimeout":%d,"completionTimeoutPerGiB":%d},
                           "developerConfiguration":{"featureGates":["%s"]}}}}""".formatted(
                        DrainboardAnnotations.NODE_PRESSURE_MIGRATION_ASSIST, assist.value(), Math.max(1, 900 / scale),
                        Math.max(1, 150 / scale), Math.max(1, 150 / scale),
                        ClusterConfig.NODE_PRESSURE_EVICTION_LIVE_MIGRATION), KubeVirt.class)).create();
                client.nodes().resource(new NodeBuilder().withNewMetadata().withName(FULL)
                        .addToAnnotations(SimulationKnobs.LINK_SPEED, (LINK_MI * scale) + "Mi").endMetadata().build()).create();
                client.nodes().resource(new NodeBuilder().withNewMetadata().withName(SPARE).endMetadata()
                        .withNewSpec().withUnschedulable(true).endSpec().build()).create();
                for (Vm vm : mix) {
                    client.resources(VirtualMachineInstance.class).resource(Serialization.unmarshal("""
                            apiVersion: kubevirt.io/v1
                            kind: VirtualMachineInstance
                            metadata:
                              name: %s
                              namespace: %s
                              annotations: {%s: "%dMi"}
                            spec:
                              evictionStrategy: LiveMigrate
                              terminationGracePeriodSeconds: 36000
                              networks: [{name: default, pod: {}}]
                              domain: {devices: {interfaces: [{name: default, masquerade: {}}]}, memory: {guest: %dGi}}
                              volumes: [{name: root, containerDisk: {image: quay.io/containerdisks/fedora:40}}]
                            """.formatted(vm.name(), NAMESPACE, SimulationKnobs.MEMORY_DIRTY_RATE, vm.dirtyMi() * scale,
                            vm.sizeGi()), VirtualMachineInstance.class)).create();
                }
                waitFor(300, () -> vmis(client).stream().filter(v -> v.getStatus() != null && "Running".equals(v.getStatus().getPhase())
                        && v.isMigratable()).count() == mix.size());

                client.nodes().withName(SPARE).patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"unschedulable\":null}}");
                long start = System.nanoTime();
                // Above anything "full" has available while one VMI is left (64Gi − 1Gi − 256Mi), below 64Gi: all go.
                client.nodes().withName(FULL).patch(PatchContext.of(PatchType.JSON_MERGE), """
                        {"metadata":{"annotations":{"%s":"memory.available<65000Mi","%s":"memory.available=0s","%s":"%d","%s":"memory.available<10Mi"}}}"""
                        .formatted(SimulationKnobs.EVICTION_SOFT, SimulationKnobs.EVICTION_SOFT_GRACE_PERIOD,
                                SimulationKnobs.EVICTION_MAX_POD_GRACE_PERIOD, Math.max(1, graceSeconds / scale),
                                SimulationKnobs.EVICTION_HARD));
                long limitSeconds = 120 + (long) mix.size() * (graceSeconds / scale + 10);
                waitFor(limitSeconds, () -> vmis(client).stream().allMatch(v -> saved(v) || lost(v)));
                double seconds = (System.nanoTime() - start) / 1e9;
                List<VirtualMachineInstance> all = vmis(client);
                List<String> lostVms = all.stream().filter(NodePressureBenchmark::lost).map(v -> v.getMetadata().getName()).sorted().toList();
                int saved = (int) all.stream().filter(NodePressureBenchmark::saved).count();
                return new Outcome(saved + lostVms.size(), saved, lostVms.size(), seconds, lostVms);
            }
        }
    }

    static boolean saved(VirtualMachineInstance v) {
        return v.getStatus() != null && SPARE.equals(v.getStatus().getNodeName()) && "Running".equals(v.getStatus().getPhase());
    }

    static boolean lost(VirtualMachineInstance v) {
        return v.getStatus() != null && "Failed".equals(v.getStatus().getPhase());
    }

    private static List<VirtualMachineInstance> vmis(KubernetesClient client) {
        return client.resources(VirtualMachineInstance.class).inNamespace(NAMESPACE).list().getItems();
    }

    private static void waitFor(long seconds, java.util.function.BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + seconds * 1_000_000_000L;
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("not reached within " + seconds + " s");
            }
            Thread.sleep(200);
        }
    }

    private static double load() {
        return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
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
