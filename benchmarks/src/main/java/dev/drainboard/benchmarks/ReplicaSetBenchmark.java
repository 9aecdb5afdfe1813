package dev.drainboard.benchmarks;

import dev.drainboard.cluster.EmbeddedCluster;
import dev.drainboard.cluster.EmbeddedClusterOptions;
import dev.drainboard.controlplane.LocalControlPlane;
import dev.drainboard.kubevirt.api.Conditions;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceReplicaSet;
import dev.drainboard.ops.Ops;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.utils.Serialization;

import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.BooleanSupplier;

/**
 * Issue 6: a VirtualMachineInstanceReplicaSet of {@code --replicas} (50) small VMIs on the demo scenario, with
 * Drainboard's control plane in the same JVM, scaled 0 → N → 0 with {@link Ops#scale} (the scale subresource), for
 * {@code --rounds} rounds. Per round it prints the time from the scale request to every VMI of the set reporting
 * {@code Ready=True} (up) and to every VMI gone from the API (down), as a VMI informer sees them, and when the set's
 * own status agreed ({@code readyReplicas = N}; {@code replicas = 0}).
 *
 * <p>Arguments: {@code --replicas=50 --rounds=3 --memory=256Mi}; {@code --smoke} for 5 replicas, 1 round.
 */
public final class ReplicaSetBenchmark {

    static final String NAMESPACE = "bench";
    static final String SET = "bench";
    private static final Duration LIMIT = Duration.ofMinutes(5);

    public record Sizes(int replicas, int rounds, String memory) {
        static Sizes smoke() {
            return new Sizes(5, 1, "128Mi");
        }
    }

    /** One round's seconds: scale-up to all Ready (VMIs; the set's status), scale-down to all gone (VMIs; status). */
    public record Round(double upSeconds, double upStatusSeconds, double downSeconds, double downStatusSeconds) {
    }

    public static void main(String[] args) throws Exception {
        boolean smoke = List.of(args).contains("--smoke");
        Sizes base = smoke ? Sizes.smoke() : new Sizes(50, 3, "256Mi");
        Sizes sizes = new Sizes(intArg(args, "replicas", base.replicas()), intArg(args, "rounds", base.rounds()),
                stringArg(args, "memory", base.memory()));
        run(sizes, System.out);
        System.exit(0);
    }

    public static List<Round> run(Sizes sizes, PrintStream out) throws Exception {
        out.printf(Locale.ROOT, "load average at start: %.2f%n", ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        Path dir = Files.createTempDirectory("drainboard-replicaset-bench-");
        out.println("work folder: " + dir);
        List<Round> rounds = new ArrayList<>();
        try (EmbeddedCluster cluster = EmbeddedCluster.start(EmbeddedClusterOptions.defaults().withScenario("demo")
                .withPort(0).withKubeconfigOut(dir.resolve("kubeconfig")))) {
            Config config = Config.fromKubeconfig(Files.readString(cluster.kubeconfig()));
            try (LocalControlPlane plane = LocalControlPlane.start(config, cluster.hypervisors(), true);
                 KubernetesClient client = new KubernetesClientBuilder().withConfig(config).build();
                 Ops ops = Ops.connect(config)) {
                waitFor("the control plane to lead", () -> plane.controllers().orElseThrow().isLeader());
                client.namespaces().resource(new io.fabric8.kubernetes.api.model.NamespaceBuilder()
                        .withNewMetadata().withName(NAMESPACE).endMetadata().build()).create();
                ops.replicaSets().create(replicaSet(sizes.memory()));
                SharedIndexInformer<VirtualMachineInstance> vmis = client.resources(VirtualMachineInstance.class)
                        .inNamespace(NAMESPACE).withLabel("app", SET).inform();
                try {
                    for (int round = 1; round <= sizes.rounds(); round++) {
                        Round r = round(ops, client, vmis, sizes.replicas());
                        rounds.add(r);
                        out.printf(Locale.ROOT, "round %d: 0 → %d all Ready %.2f s (status %.2f s); %d → 0 all gone %.2f s (status %.2f s)%n",
                                round, sizes.replicas(), r.upSeconds(), r.upStatusSeconds(), sizes.replicas(), r.downSeconds(), r.downStatusSeconds());
                    }
                } finally {
                    vmis.close();
                }
            }
        }
        out.printf(Locale.ROOT, "median: up %.2f s, down %.2f s over %d round(s); load average at end: %.2f%n",
                median(rounds.stream().mapToDouble(Round::upSeconds).toArray()),
                median(rounds.stream().mapToDouble(Round::downSeconds).toArray()), rounds.size(),
                ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        return rounds;
    }

    private static Round round(Ops ops, KubernetesClient client, SharedIndexInformer<VirtualMachineInstance> vmis, int n) {
        long start = System.nanoTime();
        ops.scale(NAMESPACE, SET, n);
        double upStatus = Double.NaN;
        double up = Double.NaN;
        while (Double.isNaN(up) || Double.isNaN(upStatus)) {
            if (Double.isNaN(up) && vmis.getStore().list().stream().filter(ReplicaSetBenchmark::ready).count() == n) {
                up = seconds(start);
            }
            if (Double.isNaN(upStatus) && status(client).readyReplicas() == n) {
                upStatus = seconds(start);
            }
            pause(start);
        }
        start = System.nanoTime();
        ops.scale(NAMESPACE, SET, 0);
        double down = Double.NaN;
        double downStatus = Double.NaN;
        while (Double.isNaN(down) || Double.isNaN(downStatus)) {
            if (Double.isNaN(down) && vmis.getStore().list().isEmpty()) {
                down = seconds(start);
            }
            if (Double.isNaN(downStatus) && status(client).replicas() == 0) {
                downStatus = seconds(start);
            }
            pause(start);
        }
        return new Round(up, upStatus, down, downStatus);
    }

    private record Status(int replicas, int readyReplicas) {
    }

    private static Status status(KubernetesClient client) {
        var rs = client.resources(VirtualMachineInstanceReplicaSet.class).inNamespace(NAMESPACE).withName(SET).get();
        var s = rs.getStatus();
        return s == null ? new Status(-1, -1)
                : new Status(s.getReplicas() == null ? -1 : s.getReplicas(), s.getReadyReplicas() == null ? -1 : s.getReadyReplicas());
    }

    private static boolean ready(VirtualMachineInstance vmi) {
        return vmi.getMetadata().getDeletionTimestamp() == null && vmi.getStatus() != null
                && Conditions.isTrue(vmi.getStatus().getConditions(), "Ready");
    }

    static VirtualMachineInstanceReplicaSet replicaSet(String memory) {
        return Serialization.unmarshal("""
                apiVersion: kubevirt.io/v1
                kind: VirtualMachineInstanceReplicaSet
                metadata: {name: %s, namespace: %s}
                spec:
                  replicas: 0
                  selector: {matchLabels: {app: %s}}
                  template:
                    metadata: {labels: {app: %s}}
                    spec:
                      evictionStrategy: None
                      networks:
                      - name: default
                        pod: {}
                      domain:
                        memory: {guest: %s}
                        resources: {requests: {memory: %s}}
                        devices:
                          interfaces:
                          - name: default
                            masquerade: {}
                      volumes: [{name: root, containerDisk: {image: quay.io/containerdisks/alpine:3.20}}]
                """.formatted(SET, NAMESPACE, SET, SET, memory, memory), VirtualMachineInstanceReplicaSet.class);
    }

    private static double seconds(long startNanos) {
        return (System.nanoTime() - startNanos) / 1e9;
    }

    /** Polls the informer cache and the status every 20 ms (the figures are seconds), giving up after 5 minutes. */
    private static void pause(long startNanos) {
        if (System.nanoTime() - startNanos > LIMIT.toNanos()) {
            throw new IllegalStateException("the replica set did not get there within " + LIMIT);
        }
        try {
            Thread.sleep(20);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private static void waitFor(String what, BooleanSupplier condition) {
        long start = System.nanoTime();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - start > LIMIT.toNanos()) {
                throw new IllegalStateException("gave up waiting for " + what);
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted", e);
            }
        }
    }

    static double median(double[] values) {
        if (values.length == 0) {
            return Double.NaN;
        }
        double[] sorted = values.clone();
        java.util.Arrays.sort(sorted);
        int mid = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
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
