package dev.drainboard.ui.bench;

import atlantafx.base.theme.PrimerLight;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.javafx.tk.Toolkit;
import dev.drainboard.cluster.EmbeddedCluster;
import dev.drainboard.cluster.EmbeddedClusterOptions;
import dev.drainboard.cluster.apiserver.ResourceType;
import dev.drainboard.ui.Console;
import dev.drainboard.ui.model.ClusterModel;
import dev.drainboard.ui.model.VmiRow;
import dev.drainboard.ui.vmis.VmisView;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import javafx.application.Application;
import javafx.scene.Scene;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.control.TextField;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import static org.awaitility.Awaitility.await;

/**
 * The console's UI benchmark (issue 7): an embedded cluster holding 500 nodes and 10,000 running VMIs (each with
 * its launcher pod and KubeVirt's PDB), the console's model connected to it as in Observe mode (no controllers)
 * and the VMIs view on screen, 200 VMI changes per second for 30 s; prints the FX thread's time per frame and the
 * time to filter the VMI table. Off by default; run it as docs/benchmarks.md ("Console") says.
 *
 * <p>The objects are loaded straight into the API server's store (as a scenario is) after it starts: creating
 * 30,000 objects through HTTP would take minutes and is the API server benchmark's business. Everything the
 * console reads still comes through the API: list + watch over HTTPS, like any client.
 */
@ExtendWith(ApplicationExtension.class)
@EnabledIfSystemProperty(named = "drainboard.uibench", matches = "true")
class ConsoleBenchmark {

    private static final int NODES = Integer.getInteger("bench.nodes", 500);
    private static final int VMIS = Integer.getInteger("bench.vmis", 10_000);
    private static final int NAMESPACES = 10;
    private static final int CHANGES_PER_SECOND = Integer.getInteger("bench.rate", 200);
    private static final int SECONDS = Integer.getInteger("bench.seconds", 30);
    private static final ObjectMapper JSON = new ObjectMapper();

    private Stage stage;

    @Start
    void start(Stage stage) {
        this.stage = stage;
    }

    @Test
    void pulseAndFilterTimesWithTenThousandVmis() throws Exception {
        Path dir = Files.createTempDirectory("drainboard-uibench-");
        long t = System.nanoTime();
        try (EmbeddedCluster cluster = EmbeddedCluster.start(EmbeddedClusterOptions.defaults().withPort(0)
                .withScenario(null).withKubeconfigOut(dir.resolve("kubeconfig")))) {
            load(cluster);
            System.out.printf(Locale.ROOT, "uibench: %d nodes, %d VMIs, %d launcher pods, %d PDBs loaded in %.1f s%n",
                    NODES, VMIS, VMIS, VMIS, (System.nanoTime() - t) / 1e9);
            Config config = Config.fromKubeconfig(Files.readString(cluster.kubeconfig()));
            try (KubernetesClient client = new KubernetesClientBuilder().withConfig(config).build();
                 ClusterModel model = ClusterModel.start(client, true)) {
                t = System.nanoTime();
                VmisView view = fx(() -> show(model, client));
                await().atMost(java.time.Duration.ofMinutes(5)).until(() -> fx(() -> model.synced().get()
                        && model.vmis().size() == VMIS && model.nodes().size() == NODES
                        && model.vmis().stream().allMatch(v -> !v.pdbs().isEmpty())));
                System.out.printf(Locale.ROOT, "uibench: console model synced, VMIs table filled in %.1f s%n",
                        (System.nanoTime() - t) / 1e9);
                WaitForAsyncUtils.waitForFxEvents(10);

                FrameClock frames = fx(() -> FrameClock.install(stage.getScene()));
                ResourceType vmiType = cluster.api().registry()
                        .findByApiVersionAndKind("kubevirt.io/v1", "VirtualMachineInstance").orElseThrow();
                TableView<VmiRow> table = fx(() -> lookupTable());
                String[] phases = {"unsorted", "sorted by node"};
                for (String phase : phases) {
                    if (phase.startsWith("sorted")) {
                        fx(() -> {
                            TableColumn<VmiRow, ?> node = table.getColumns().stream()
                                    .filter(c -> c.getText().equals("Node")).findFirst().orElseThrow();
                            table.getSortOrder().setAll(node);
                            return null;
                        });
                        WaitForAsyncUtils.waitForFxEvents(5);
                    }
                    frames.reset();
                    long changes = churn(cluster, vmiType, SECONDS / phases.length);
                    frames.report("changes " + phase + ": " + changes + " VMI changes in " + SECONDS / phases.length + " s");
                }
                filterTimes(view, frames);
            }
        }
    }

    private VmisView show(ClusterModel model, KubernetesClient client) {
        Application.setUserAgentStylesheet(new PrimerLight().getUserAgentStylesheet());
        VmisView view = new VmisView(model, new dev.drainboard.ui.dialogs.ActionCenter(
                dev.drainboard.ui.actions.ClusterActions.forClient(client), model));
        javafx.scene.layout.StackPane root = new javafx.scene.layout.StackPane(view.root());
        root.getStyleClass().add("console-root");
        Scene scene = new Scene(root, 1360, 860);
        scene.getStylesheets().add(Objects.requireNonNull(Console.class.getResource("console.css")).toExternalForm());
        stage.setScene(scene);
        stage.show();
        return view;
    }

    @SuppressWarnings("unchecked")
    private TableView<VmiRow> lookupTable() {
        return (TableView<VmiRow>) stage.getScene().lookup("#vmisTable");
    }

    /** Changes random VMIs at the rate for the given time, straight in the store (so the watch carries them). */
    private static long churn(EmbeddedCluster cluster, ResourceType vmiType, int seconds) {
        long intervalNanos = 1_000_000_000L / CHANGES_PER_SECOND;
        long start = System.nanoTime();
        long end = start + seconds * 1_000_000_000L;
        long n = 0;
        ThreadLocalRandom random = ThreadLocalRandom.current();
        while (System.nanoTime() < end) {
            long due = start + n * intervalNanos;
            long wait = due - System.nanoTime();
            if (wait > 0) {
                LockSupport.parkNanos(wait);
            }
            int i = random.nextInt(VMIS);
            cluster.store().update(vmiType, namespace(i), vmiName(i), vmi -> {
                ObjectNode status = (ObjectNode) vmi.get("status");
                // What a drain does to a VMI: marked for evacuation, then not any more.
                if (status.has("evacuationNodeName")) {
                    status.remove("evacuationNodeName");
                } else {
                    status.put("evacuationNodeName", status.path("nodeName").asText());
                }
                ((ObjectNode) vmi.get("metadata").get("labels")).put("bench/tick", Long.toString(System.nanoTime() % 100_000));
                return vmi;
            }, false);
            n++;
        }
        return n;
    }

    /** Types filter terms into the VMI table's filter box; each is timed until the next frame has been laid out. */
    private void filterTimes(VmisView view, FrameClock frames) {
        String[] terms = {"vmi-0421", "node-0123", "scale-3", "LiveMigrate", "vmi-09", "", "does-not-match", ""};
        List<Double> apply = new ArrayList<>();
        List<Double> shown = new ArrayList<>();
        List<Double> applyCpu = new ArrayList<>();
        TextField field = fx(() -> (TextField) stage.getScene().lookup("#vmisTableFilter"));
        for (String term : terms) {
            WaitForAsyncUtils.waitForFxEvents(3);
            var threads = java.lang.management.ManagementFactory.getThreadMXBean();
            long[] times = fx(() -> {
                long c0 = threads.getCurrentThreadCpuTime();
                long t0 = System.nanoTime();
                field.setText(term);
                long t1 = System.nanoTime();
                frames.markNow(); // the next pulse lays the filtered table out
                return new long[] {t0, t1, threads.getCurrentThreadCpuTime() - c0};
            });
            await().pollInterval(java.time.Duration.ofMillis(5)).atMost(java.time.Duration.ofSeconds(10))
                    .until(() -> frames.firstPulseEndAfterMark() > 0);
            double applyMs = (times[1] - times[0]) / 1e6;
            double shownMs = (frames.firstPulseEndAfterMark() - times[0]) / 1e6;
            int rows = fx(() -> lookupTable().getItems().size());
            System.out.printf(Locale.ROOT, "uibench: filter %-16s → %5d rows: applied in %6.1f ms (FX CPU %5.1f ms), on screen after %6.1f ms; %s%n",
                    "\"" + term + "\"", rows, applyMs, times[2] / 1e6, shownMs, frames.firstPulseAfterMark());
            apply.add(applyMs);
            applyCpu.add(times[2] / 1e6);
            shown.add(shownMs);
        }
        System.out.printf(Locale.ROOT, "uibench: filter over %d VMIs: apply p50 %.1f ms, max %.1f ms (FX CPU p50 %.1f ms, max %.1f ms);"
                        + " until laid out: p50 %.1f ms, max %.1f ms; load average %.1f%n", VMIS, percentile(apply, 50), percentile(apply, 100),
                percentile(applyCpu, 50), percentile(applyCpu, 100), percentile(shown, 50), percentile(shown, 100),
                java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    }

    /**
     * Measures the FX thread per frame with the toolkit's own pulse hooks: a stage listener runs first in every
     * pulse and a post-scene listener last (after animations, CSS, layout and the hand-off to the renderer), so
     * their distance is the pulse; the FX thread's other work between two pulses (the model's batches, which arrive
     * as runLater events) is the rest of the frame. "Frame" = the pulse plus the work since the previous pulse ended.
     */
    static final class FrameClock {
        private final List<Long> pulse = new ArrayList<>();
        private final List<Long> between = new ArrayList<>();
        private final List<Long> layout = new ArrayList<>();
        private final List<Long> pulseCpu = new ArrayList<>();
        private long pulseCpuStart;
        private long layoutStart;
        private long pulseStart;
        private long lastEnd;
        private final AtomicLong pulses = new AtomicLong();
        private volatile long firstEndAfterMark;
        private volatile long firstCpuAfterMark;
        private volatile long firstWallAfterMark;
        private boolean marked; // FX thread only
        private final java.lang.management.ThreadMXBean threads = java.lang.management.ManagementFactory.getThreadMXBean();
        private long fxThreadId;
        private long cpuAtEnd;
        private final com.sun.javafx.tk.TKPulseListener startListener = this::pulseStarts;
        private final com.sun.javafx.tk.TKPulseListener endListener = this::pulseEnds;

        static FrameClock install(Scene scene) {
            FrameClock c = new FrameClock();
            scene.addPreLayoutPulseListener(() -> c.layoutStart = System.nanoTime());
            scene.addPostLayoutPulseListener(() -> {
                synchronized (c) {
                    c.layout.add(System.nanoTime() - c.layoutStart);
                }
            });
            c.fxThreadId = Thread.currentThread().threadId();
            // The toolkit holds its listeners weakly: the clock keeps them.
            Toolkit.getToolkit().addStageTkPulseListener(c.startListener);
            Toolkit.getToolkit().addPostSceneTkPulseListener(c.endListener);
            return c;
        }

        private void pulseStarts() {
            pulseStart = System.nanoTime();
            // FX-thread CPU spent since the last pulse ended: runLater work (batches), not idle waiting.
            long cpu = threads.getCurrentThreadCpuTime();
            pulseCpuStart = cpu;
            if (cpuAtEnd > 0) {
                synchronized (this) {
                    between.add(cpu - cpuAtEnd);
                }
            }
        }

        private void pulseEnds() {
            long now = System.nanoTime();
            synchronized (this) {
                pulse.add(now - pulseStart);
            }
            lastEnd = now;
            cpuAtEnd = threads.getCurrentThreadCpuTime();
            if (marked) {
                marked = false;
                firstCpuAfterMark = cpuAtEnd - pulseCpuStart;
                firstWallAfterMark = now - pulseStart;
                firstEndAfterMark = now;
            }
            synchronized (this) {
                pulseCpu.add(cpuAtEnd - pulseCpuStart);
            }
            pulses.incrementAndGet();
        }

        synchronized void reset() {
            layout.clear();
            pulseCpu.clear();
            pulse.clear();
            between.clear();
        }

        long pulses() {
            return pulses.get();
        }

        /** FX thread: from now on, remember when the first pulse to start after this ends. */
        void markNow() {
            firstEndAfterMark = 0;
            marked = true;
        }

        /** When the first pulse after {@link #markNow} ended (nanoTime), 0 until it has. */
        long firstPulseEndAfterMark() {
            return firstEndAfterMark;
        }

        /** That pulse's FX-thread CPU time and wall time, in ms. */
        String firstPulseAfterMark() {
            return String.format(Locale.ROOT, "that pulse %5.1f ms (FX CPU %5.1f ms)", firstWallAfterMark / 1e6, firstCpuAfterMark / 1e6);
        }

        synchronized void report(String what) {
            List<Double> p = pulse.stream().map(n -> n / 1e6).toList();
            List<Double> b = between.stream().map(n -> n / 1e6).toList();
            List<Double> l = layout.stream().map(n -> n / 1e6).toList();
            List<Double> pc = pulseCpu.stream().map(n -> n / 1e6).toList();
            List<Double> frameCpu = new ArrayList<>();
            for (int i = 0; i < Math.min(pc.size(), b.size()); i++) {
                frameCpu.add(pc.get(i) + b.get(i));
            }
            List<Double> frame = new ArrayList<>();
            for (int i = 0; i < Math.min(p.size(), b.size()); i++) {
                frame.add(p.get(i) + b.get(i));
            }
            // The machine is shared: the load says how far wall times are from CPU times.
            System.out.printf(Locale.ROOT, "uibench: %s; %d pulses; load average %.1f%n", what, p.size(),
                    java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
            System.out.printf(Locale.ROOT, "uibench:   pulse            p50 %5.1f ms  p99 %5.1f ms  max %6.1f ms%n",
                    percentile(p, 50), percentile(p, 99), percentile(p, 100));
            System.out.printf(Locale.ROOT, "uibench:   of which CSS+layout p50 %5.1f ms  p99 %5.1f ms  max %6.1f ms%n",
                    percentile(l, 50), percentile(l, 99), percentile(l, 100));
            System.out.printf(Locale.ROOT, "uibench:   batches (FX CPU) p50 %5.1f ms  p99 %5.1f ms  max %6.1f ms%n",
                    percentile(b, 50), percentile(b, 99), percentile(b, 100));
            System.out.printf(Locale.ROOT, "uibench:   frame = both     p50 %5.1f ms  p99 %5.1f ms  max %6.1f ms%n",
                    percentile(frame, 50), percentile(frame, 99), percentile(frame, 100));
            System.out.printf(Locale.ROOT, "uibench:   pulse, FX CPU    p50 %5.1f ms  p99 %5.1f ms  max %6.1f ms%n",
                    percentile(pc, 50), percentile(pc, 99), percentile(pc, 100));
            System.out.printf(Locale.ROOT, "uibench:   frame, FX CPU    p50 %5.1f ms  p99 %5.1f ms  max %6.1f ms%n",
                    percentile(frameCpu, 50), percentile(frameCpu, 99), percentile(frameCpu, 100));
        }
    }

    static double percentile(List<Double> values, int p) {
        if (values.isEmpty()) {
            return Double.NaN;
        }
        double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        int index = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
    }

    private static void load(EmbeddedCluster cluster) throws Exception {
        for (int i = 0; i < NODES; i++) {
            cluster.api().load(json("""
                    {"apiVersion":"v1","kind":"Node","metadata":{"name":"%s","labels":{"kubernetes.io/hostname":"%s","topology.kubernetes.io/zone":"zone-%d"}},
                     "spec":{},"status":{"capacity":{"cpu":"32","memory":"128Gi","pods":"110"},"allocatable":{"cpu":"32","memory":"128Gi","pods":"110"},
                     "conditions":[{"type":"Ready","status":"True","reason":"KubeletReady"}],"nodeInfo":{"kubeletVersion":"v1.32.0"}}}
                    """.formatted(nodeName(i), nodeName(i), i % 3)));
        }
        for (int i = 0; i < VMIS; i++) {
            String uid = "00000000-0000-4000-8000-%012d".formatted(i);
            String ns = namespace(i);
            String node = nodeName(i % NODES);
            String owner = """
                    {"apiVersion":"kubevirt.io/v1","kind":"VirtualMachineInstance","name":"%s","uid":"%s","controller":true,"blockOwnerDeletion":true}
                    """.formatted(vmiName(i), uid);
            cluster.api().load(json("""
                    {"apiVersion":"kubevirt.io/v1","kind":"VirtualMachineInstance","metadata":{"name":"%s","namespace":"%s","uid":"%s",
                      "labels":{"app":"scale","kubevirt.io/nodeName":"%s"}},
                     "spec":{"evictionStrategy":"LiveMigrate","domain":{"memory":{"guest":"256Mi"},"resources":{"requests":{"cpu":"100m","memory":"256Mi"}},"devices":{"interfaces":[{"name":"default","masquerade":{}}]}},"networks":[{"name":"default","pod":{}}]},
                     "status":{"phase":"Running","nodeName":"%s","conditions":[{"type":"Ready","status":"True"},{"type":"LiveMigratable","status":"True"}]}}
                    """.formatted(vmiName(i), ns, uid, node, node)));
            cluster.api().load(json("""
                    {"apiVersion":"v1","kind":"Pod","metadata":{"name":"virt-launcher-%s-x%04d","namespace":"%s",
                      "labels":{"kubevirt.io":"virt-launcher","kubevirt.io/created-by":"%s","app":"scale"},"ownerReferences":[%s]},
                     "spec":{"nodeName":"%s","containers":[{"name":"compute","image":"quay.io/kubevirt/virt-launcher:v1.5.0",
                       "resources":{"requests":{"cpu":"100m","memory":"256Mi"}}}]},
                     "status":{"phase":"Running","conditions":[{"type":"Ready","status":"True"}]}}
                    """.formatted(vmiName(i), i % 10_000, ns, uid, owner, node)));
            cluster.api().load(json("""
                    {"apiVersion":"policy/v1","kind":"PodDisruptionBudget","metadata":{"name":"kubevirt-disruption-budget-%05d","namespace":"%s","ownerReferences":[%s]},
                     "spec":{"minAvailable":1,"selector":{"matchLabels":{"kubevirt.io/created-by":"%s"}}}}
                    """.formatted(i, ns, owner, uid)));
        }
    }

    private static ObjectNode json(String text) throws Exception {
        return (ObjectNode) JSON.readTree(text);
    }

    private static String nodeName(int i) {
        return "node-%04d".formatted(i);
    }

    private static String vmiName(int i) {
        return "vmi-%05d".formatted(i);
    }

    private static String namespace(int i) {
        return "scale-" + (i % NAMESPACES);
    }

    private static <T> T fx(Callable<T> call) {
        try {
            return WaitForAsyncUtils.asyncFx(call).get(120, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
