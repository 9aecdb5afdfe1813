package dev.drainboard.app;

import dev.drainboard.cluster.EmbeddedCluster;
import dev.drainboard.cluster.EmbeddedClusterOptions;
import dev.drainboard.cluster.apiserver.http.FaultInjection;
import dev.drainboard.controlplane.LocalControlPlane;
import dev.drainboard.hypervisor.Domain;
import dev.drainboard.hypervisor.DomainState;
import dev.drainboard.hypervisor.Hypervisor;
import dev.drainboard.hypervisor.StopReason;
import dev.drainboard.kubevirt.KubeVirtEventReasons;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceMigration;
import dev.drainboard.ops.DrainOptions;
import dev.drainboard.ops.DrainResult;
import dev.drainboard.ops.Ops;
import dev.drainboard.runtime.LeaderElection;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Chaos, bounded: an embedded cluster (its API server, simulated nodes and node handler in this JVM) driven by two
 * {@code ./drainboard controllers} processes, while random drains, uncordons, scales, migrations and migration cancels
 * run, the leading process is killed with SIGKILL at random moments (and a new one started), and a share of the API's
 * writes is answered with 409, 500, or 504 after the write ({@link FaultInjection}). Checked all along: no LiveMigrate or
 * External VM stopped or lost, never one VM running on two nodes at once; at the end, once faults stop and a leader
 * exists, no migration stuck, and every drain's end true of the node. docs/reliability.md records longer runs:
 * {@code -Dchaos.seconds=300 -Dchaos.faults=0.05 -Dchaos.seed=N}.
 */
@DisplayName("chaos: random operations, leader kills and API faults lose no VM")
class ChaosIT {

    private static final long SECONDS_OF_CHAOS = Long.getLong("chaos.seconds", 120);
    private static final double FAULT_SHARE = Double.parseDouble(System.getProperty("chaos.faults", "0.05"));
    private static final long SEED = Long.getLong("chaos.seed", System.nanoTime());
    private static final String NS = "chaos";
    private static final int NODES = 5;
    private static final List<String> PROTECTED_VMS = List.of("lm-0", "lm-1", "lm-2", "lm-3", "lm-4", "lm-5", "lm-6", "lm-7");
    private static final List<String> EXTERNAL_VMIS = List.of("ext-0", "ext-1");
    private static final Pattern PID = Pattern.compile("/pid-(\\d+)-");

    /** Kept after the run (target/chaos-*): the controllers' logs and the scenario. */
    private final Path workDir = Path.of("target", "chaos-" + System.currentTimeMillis()).toAbsolutePath();

    private final List<String> violations = new CopyOnWriteArrayList<>();
    private final Map<String, AtomicInteger> operations = new TreeMap<>();
    private final List<Double> failovers = new CopyOnWriteArrayList<>();
    private final List<Process> controllers = new CopyOnWriteArrayList<>();
    /** Domains (VMI uid @ node) that are a migration's target and have not taken over. */
    private final Set<String> targets = ConcurrentHashMap.newKeySet();
    private final Set<String> explained = ConcurrentHashMap.newKeySet();
    private int started;

    @Test
    void noVmIsLost() throws Exception {
        Files.createDirectories(workDir);
        Random random = new Random(SEED);
        System.out.printf(Locale.ROOT, "chaos: %d s, %.1f %% of writes faulted, seed %d%n", SECONDS_OF_CHAOS, FAULT_SHARE * 100, SEED);
        Path scenario = workDir.resolve("chaos.yaml");
        Files.writeString(scenario, scenario());
        Path kubeconfig = workDir.resolve("kubeconfig");
        try (EmbeddedCluster cluster = EmbeddedCluster.start(EmbeddedClusterOptions.defaults().withScenario(scenario.toString())
                .withPort(0).withKubeconfigOut(kubeconfig))) {
            Config config = Config.fromKubeconfig(Files.readString(kubeconfig));
            try (LocalControlPlane handlers = LocalControlPlane.start(config, cluster.hypervisors(), false);
                 Ops ops = Ops.connect(config)) {
                KubernetesClient client = ops.client();
                startControllers(kubeconfig);
                startControllers(kubeconfig);
                await().atMost(180, SECONDS).pollInterval(1, SECONDS).until(() -> leaderPid(client).isPresent()
                        && runningMigratable(client) == PROTECTED_VMS.size() + EXTERNAL_VMIS.size());
                Map<String, String> protectedUids = new ConcurrentHashMap<>();
                for (VirtualMachineInstance vmi : client.resources(VirtualMachineInstance.class).inNamespace(NS).list().getItems()) {
                    if (isProtected(vmi.getMetadata().getName())) {
                        protectedUids.put(vmi.getMetadata().getName(), vmi.getMetadata().getUid());
                    }
                }
                assertThat(protectedUids).hasSize(PROTECTED_VMS.size() + EXTERNAL_VMIS.size());
                Set<String> uids = Set.copyOf(protectedUids.values());
                cluster.hypervisors().addDomainListener(domain -> checkDomain(cluster, uids, domain));

                cluster.faults().setShare(FAULT_SHARE);
                Map<String, DrainInFlight> drains = new ConcurrentHashMap<>();
                long deadline = System.nanoTime() + SECONDS.toNanos(SECONDS_OF_CHAOS);
                long nextKill = System.nanoTime() + SECONDS.toNanos(15 + random.nextInt(15));
                while (System.nanoTime() < deadline) {
                    checkVmis(client, protectedUids);
                    if (System.nanoTime() >= nextKill) {
                        killLeader(client, kubeconfig);
                        nextKill = System.nanoTime() + SECONDS.toNanos(15 + random.nextInt(20));
                    }
                    act(random, ops, client, drains);
                    Thread.sleep(500 + random.nextInt(1500));
                }

                // Chaos over: no more faults or kills; let what runs end, then every node back in service.
                cluster.faults().setShare(0);
                long injected = cluster.faults().injectedTotal();
                await().atMost(120, SECONDS).pollInterval(1, SECONDS).until(() -> drains.values().stream().allMatch(d -> d.done));
                for (int n = 1; n <= NODES; n++) {
                    ops.uncordon(node(n));
                }
                await().atMost(60, SECONDS).until(() -> leaderPid(client).isPresent());
                // No migration stuck once a leader exists: each ends, or waits out KubeVirt's back-off after its VMI's
                // evacuation failed (it then retries for ever, as KubeVirt does).
                await().atMost(240, SECONDS).pollInterval(1, SECONDS).untilAsserted(() -> {
                    Set<String> backingOff = client.v1().events().inNamespace(NS).list().getItems().stream()
                            .filter(e -> KubeVirtEventReasons.MIGRATION_BACKOFF.equals(e.getReason()))
                            .map(e -> e.getInvolvedObject().getName()).collect(java.util.stream.Collectors.toSet());
                    assertThat(client.resources(VirtualMachineInstanceMigration.class).inNamespace(NS).list().getItems())
                            .as("migrations neither final nor in back-off").allSatisfy(m -> {
                                String phase = m.getStatus() == null ? null : m.getStatus().getPhase();
                                if (!"Pending".equals(phase) || !backingOff.contains(m.getSpec().getVmiName())) {
                                    assertThat(phase).as(m.getMetadata().getName()).isIn("Succeeded", "Failed");
                                }
                            });
                });
                checkVmis(client, protectedUids);
                long moved = client.resources(VirtualMachineInstanceMigration.class).inNamespace(NS).list().getItems().stream()
                        .filter(m -> m.getStatus() != null && "Succeeded".equals(m.getStatus().getPhase())).count();
                long failed = client.resources(VirtualMachineInstanceMigration.class).inNamespace(NS).list().getItems().stream()
                        .filter(m -> m.getStatus() != null && "Failed".equals(m.getStatus().getPhase())).count();
                System.out.printf(Locale.ROOT, "chaos figures: operations %s; controller processes killed %d (failover to the "
                                + "standby %s s); faults injected %d of %d writes (409 %d, 500 %d, 504 after the write %d); "
                                + "migrations kept at the end: %d succeeded, %d failed; protected VMs lost %d%n",
                        operations, started - 2, failovers.stream().map(s -> String.format(Locale.ROOT, "%.1f", s)).toList(),
                        injected, cluster.faults().writesSeen(), cluster.faults().injected(FaultInjection.Fault.CONFLICT),
                        cluster.faults().injected(FaultInjection.Fault.INTERNAL),
                        cluster.faults().injected(FaultInjection.Fault.TIMEOUT_AFTER_WRITE), moved, failed, violations.stream()
                                .filter(v -> v.contains("lost") || v.contains("stopped")).count());
                assertThat(violations).isEmpty();
                assertThat(operations.getOrDefault("drain", new AtomicInteger()).get()).as("drains run").isPositive();
                assertThat(started - 2).as("leaders killed").isPositive();
            } finally {
                controllers.forEach(Process::destroyForcibly);
            }
        }
    }

    /** One random operation, as an operator (or a script) would run it; what the faults make fail is counted, not fatal. */
    private void act(Random random, Ops ops, KubernetesClient client, Map<String, DrainInFlight> drains) {
        String node = node(1 + random.nextInt(NODES));
        int dice = random.nextInt(10);
        try {
            if (dice < 3) {
                long inFlight = drains.values().stream().filter(d -> !d.done).count();
                if (inFlight < 2 && (drains.get(node) == null || drains.get(node).done)) {
                    count("drain");
                    DrainInFlight d = new DrainInFlight();
                    drains.put(node, d);
                    DrainOptions options = DrainOptions.defaults().withIgnoreDaemonSets(true).withDeleteEmptyDirData(true)
                            .withAllowStranded(true).withExternalHandled(true).withTimeout(Duration.ofSeconds(40));
                    ops.drain(node, options).result().whenComplete((result, error) -> {
                        if (result != null) {
                            checkDrainEnd(client, result);
                        }
                        d.done = true;
                    });
                }
            } else if (dice < 5) {
                if (drains.get(node) == null || drains.get(node).done) {
                    count("uncordon");
                    ops.uncordon(node);
                }
            } else if (dice < 6) {
                count("scale");
                ops.scale(NS, "ephemeral", 1 + random.nextInt(4));
            } else if (dice < 8) {
                List<String> running = PROTECTED_VMS.stream().filter(vm -> {
                    VirtualMachineInstance vmi = client.resources(VirtualMachineInstance.class).inNamespace(NS).withName(vm).get();
                    return vmi != null && vmi.getStatus() != null && vmi.getStatus().getMigrationState() == null
                            || vmi != null && vmi.getStatus() != null && Boolean.TRUE.equals(vmi.getStatus().getMigrationState().getCompleted());
                }).toList();
                if (!running.isEmpty()) {
                    count("migrate");
                    ops.migrate(NS, running.get(random.nextInt(running.size())));
                }
            } else {
                List<VirtualMachineInstanceMigration> inFlight = client.resources(VirtualMachineInstanceMigration.class).inNamespace(NS)
                        .list().getItems().stream().filter(m -> m.getStatus() == null || !Set.of("Succeeded", "Failed")
                                .contains(m.getStatus().getPhase())).toList();
                if (!inFlight.isEmpty()) {
                    count("cancel migration");
                    ops.cancelMigration(NS, inFlight.get(random.nextInt(inFlight.size())).getMetadata().getName());
                }
            }
        } catch (RuntimeException e) {
            count("refused or failed (faults, races)");
        }
    }

    /** A drain that says DRAINED left nothing but DaemonSet pods and finished pods on its node. */
    private void checkDrainEnd(KubernetesClient client, DrainResult result) {
        if (result.status() != DrainResult.Status.DRAINED) {
            return;
        }
        List<String> left = client.pods().inAnyNamespace().withField("spec.nodeName", result.node()).list().getItems().stream()
                .filter(p -> !isDaemonSetPod(p) && !Set.of("Succeeded", "Failed").contains(p.getStatus().getPhase())
                        && p.getMetadata().getDeletionTimestamp() == null)
                .map(p -> p.getMetadata().getNamespace() + "/" + p.getMetadata().getName()).toList();
        if (!left.isEmpty()) {
            violations.add("drain of " + result.node() + " said DRAINED with pods left: " + left);
        }
    }

    /** A protected VM's domain may stop only because it migrated away; one VM never runs on two nodes. */
    private void checkDomain(EmbeddedCluster cluster, Set<String> protectedUids, Domain domain) {
        if (!protectedUids.contains(domain.vmiUid())) {
            return;
        }
        String where = domain.vmiUid() + "@" + domain.nodeName();
        if (domain.incoming()) {
            targets.add(where); // a migration's target: paused until it takes over
        } else if (domain.state() == DomainState.RUNNING) {
            targets.remove(where);
        }
        // A target that never took over (its migration failed or was cancelled) is let go: the VM runs on at its source.
        boolean abortedTarget = domain.isFinal() && targets.remove(where);
        if (domain.isFinal() && domain.stopReason() != StopReason.MIGRATED && !abortedTarget) {
            violations.add("protected VM " + domain.namespace() + "/" + domain.name() + " stopped on " + domain.nodeName()
                    + ": " + domain.state() + " " + domain.stopReason());
        }
        List<String> runningOn = new ArrayList<>();
        for (Hypervisor h : cluster.hypervisors().all()) {
            h.domain(domain.vmiUid()).filter(d -> d.state() == DomainState.RUNNING && !d.incoming())
                    .ifPresent(d -> runningOn.add(h.nodeName()));
        }
        if (runningOn.size() > 1) {
            violations.add("VM " + domain.namespace() + "/" + domain.name() + " running on two nodes: " + runningOn);
        }
    }

    /** Every protected VMI still there, the same one (not recreated), not finished. */
    private void checkVmis(KubernetesClient client, Map<String, String> protectedUids) {
        protectedUids.forEach((name, uid) -> {
            VirtualMachineInstance vmi = client.resources(VirtualMachineInstance.class).inNamespace(NS).withName(name).get();
            if (vmi == null || !uid.equals(vmi.getMetadata().getUid())) {
                violations.add("protected VMI " + name + " lost (" + (vmi == null ? "gone" : "recreated") + ")");
                explain(client, name);
            } else if (vmi.getStatus() != null && Set.of("Succeeded", "Failed").contains(vmi.getStatus().getPhase())) {
                violations.add("protected VMI " + name + " stopped: " + vmi.getStatus().getPhase());
            }
        });
    }

    /** What the cluster recorded about a lost VMI and its launcher pods, printed once. */
    private void explain(KubernetesClient client, String vmi) {
        if (!explained.add(vmi)) {
            return;
        }
        System.out.println("chaos: PodDisruptionBudgets now:");
        client.policy().v1().podDisruptionBudget().inNamespace(NS).list().getItems().forEach(p -> System.out.printf(
                "chaos:   %s selector %s minAvailable %s annotations %s status %s%n", p.getMetadata().getName(),
                p.getSpec().getSelector() == null ? null : p.getSpec().getSelector().getMatchLabels(), p.getSpec().getMinAvailable(),
                p.getMetadata().getAnnotations(), p.getStatus()));
        System.out.println("chaos: events of " + vmi + " and its pods:");
        client.v1().events().inNamespace(NS).list().getItems().stream()
                .filter(e -> e.getInvolvedObject() != null && e.getInvolvedObject().getName() != null
                        && (e.getInvolvedObject().getName().equals(vmi) || e.getInvolvedObject().getName().startsWith("virt-launcher-" + vmi + "-")
                        || e.getInvolvedObject().getName().startsWith("kubevirt-disruption-budget")))
                .sorted(java.util.Comparator.comparing(e -> String.valueOf(e.getLastTimestamp())))
                .forEach(e -> System.out.printf("chaos:   %s %s %s/%s %s: %s%n", e.getLastTimestamp(), e.getType(),
                        e.getInvolvedObject().getKind(), e.getInvolvedObject().getName(), e.getReason(), e.getMessage()));
    }

    /** SIGKILL to the process holding the Lease; waits for the standby to take over, then starts a new standby. */
    private void killLeader(KubernetesClient client, Path kubeconfig) throws IOException {
        Optional<Long> pid = leaderPid(client);
        Optional<Process> leader = pid.flatMap(p -> controllers.stream().filter(c -> c.pid() == p && c.isAlive()).findFirst());
        if (leader.isEmpty()) {
            return;
        }
        long killedAt = System.nanoTime();
        leader.get().destroyForcibly();
        count("leader killed");
        await().atMost(90, SECONDS).pollInterval(100, java.util.concurrent.TimeUnit.MILLISECONDS)
                .until(() -> leaderPid(client).filter(p -> !p.equals(pid.get())).isPresent());
        failovers.add((System.nanoTime() - killedAt) / 1e9);
        startControllers(kubeconfig);
    }

    private Optional<Long> leaderPid(KubernetesClient client) {
        try {
            Lease lease = client.leases().inNamespace(LeaderElection.Options.DEFAULT_NAMESPACE)
                    .withName(LeaderElection.Options.DEFAULT_LEASE_NAME).get();
            if (lease == null || lease.getSpec() == null || lease.getSpec().getHolderIdentity() == null) {
                return Optional.empty();
            }
            Matcher m = PID.matcher(lease.getSpec().getHolderIdentity());
            if (!m.find()) {
                return Optional.empty();
            }
            long pid = Long.parseLong(m.group(1));
            return controllers.stream().anyMatch(c -> c.pid() == pid && c.isAlive()) ? Optional.of(pid) : Optional.empty();
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }

    private void startControllers(Path kubeconfig) throws IOException {
        String launcher = System.getProperty("drainboard.launcher");
        assumeTrue(launcher != null, "run through maven-failsafe, which names the ./drainboard launcher");
        int n = ++started;
        ProcessBuilder builder = new ProcessBuilder(launcher, "controllers", "--kubeconfig", kubeconfig.toString())
                .redirectErrorStream(true).redirectOutput(workDir.resolve("controllers-" + n + ".log").toFile());
        builder.environment().put("HOME", workDir.toString());
        builder.environment().put("DRAINBOARD_JAVA_OPTS", "-Xmx384m -Dorg.slf4j.simpleLogger.defaultLogLevel="
                + System.getProperty("chaos.logLevel", "info") + " -Dorg.slf4j.simpleLogger.showDateTime=true");
        controllers.add(builder.start());
    }

    private static long runningMigratable(KubernetesClient client) {
        return client.resources(VirtualMachineInstance.class).inNamespace(NS).list().getItems().stream()
                .filter(v -> isProtected(v.getMetadata().getName()) && v.getStatus() != null && "Running".equals(v.getStatus().getPhase())
                        && v.getStatus().getConditions() != null && v.getStatus().getConditions().stream()
                        .anyMatch(c -> "LiveMigratable".equals(c.getType()) && "True".equals(c.getStatus())))
                .count();
    }

    private static boolean isProtected(String name) {
        return PROTECTED_VMS.contains(name) || EXTERNAL_VMIS.contains(name);
    }

    private static boolean isDaemonSetPod(Pod pod) {
        return pod.getMetadata().getOwnerReferences() != null && pod.getMetadata().getOwnerReferences().stream()
                .anyMatch(o -> "DaemonSet".equals(o.getKind()));
    }

    private synchronized void count(String operation) {
        operations.computeIfAbsent(operation, o -> new AtomicInteger()).incrementAndGet();
    }

    private static String node(int n) {
        return String.format(Locale.ROOT, "node%02d", n);
    }

    private static final class DrainInFlight {
        volatile boolean done;
    }

    /** Five nodes; eight LiveMigrate VMs, two External VMIs, a replica set of ephemeral VMIs to scale. */
    private static String scenario() {
        StringBuilder yaml = new StringBuilder("apiVersion: v1\nkind: Namespace\nmetadata: {name: " + NS + "}\n");
        for (int n = 1; n <= NODES; n++) {
            yaml.append("---\napiVersion: v1\nkind: Node\nmetadata: {name: ").append(node(n))
                    .append(", labels: {kubernetes.io/hostname: ").append(node(n)).append("}}\nspec: {}\n");
        }
        for (String vm : PROTECTED_VMS) {
            yaml.append("---\napiVersion: kubevirt.io/v1\nkind: VirtualMachine\nmetadata: {name: ").append(vm)
                    .append(", namespace: ").append(NS).append("}\nspec:\n  runStrategy: Always\n  template:\n    spec:\n")
                    .append(guest("      ", "LiveMigrate"));
        }
        for (String vmi : EXTERNAL_VMIS) {
            yaml.append("---\napiVersion: kubevirt.io/v1\nkind: VirtualMachineInstance\nmetadata: {name: ").append(vmi)
                    .append(", namespace: ").append(NS).append("}\nspec:\n").append(guest("  ", "External"));
        }
        yaml.append("---\napiVersion: kubevirt.io/v1\nkind: VirtualMachineInstanceReplicaSet\nmetadata: {name: ephemeral, namespace: ")
                .append(NS).append("}\nspec:\n  replicas: 2\n  selector: {matchLabels: {app: ephemeral}}\n  template:\n")
                .append("    metadata: {labels: {app: ephemeral}}\n    spec:\n").append(guest("      ", "None"));
        return yaml.toString();
    }

    private static String guest(String indent, String evictionStrategy) {
        return indent + "evictionStrategy: " + evictionStrategy + "\n"
                + indent + "networks: [{name: default, pod: {}}]\n"
                + indent + "domain:\n"
                + indent + "  memory: {guest: 256Mi}\n"
                + indent + "  devices: {interfaces: [{name: default, masquerade: {}}]}\n"
                + indent + "volumes: [{name: rootdisk, containerDisk: {image: quay.io/containerdisks/alpine:3.20}}]\n";
    }
}
