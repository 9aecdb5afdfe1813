package dev.drainboard.app;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * The training run behind {@code app/target/drainboard.aot}: the build runs this class once with
 * {@code -XX:AOTCacheOutput} (JEP 483/514), so that every later start of {@code ./drainboard} finds the classes of a
 * CLI drain and of {@code serve} already loaded and linked, and their hot methods' profiles recorded. A cold
 * {@code drainboard drain} spends most of its first second loading classes otherwise (see docs/benchmarks.md,
 * "Cold drain from the command line").
 *
 * <p>It does what an operator does: {@code serve} a small cluster, then {@code drain --dry-run}, {@code drain},
 * {@code uncordon} through {@link Main#run}, the same code paths as the real commands. Not a user command.
 */
public final class AotTraining {

    private static final String NAMESPACE = "training";

    private AotTraining() {
    }

    public static void main(String[] args) throws Exception {
        Path dir = Files.createTempDirectory("drainboard-aot-training");
        Path scenario = dir.resolve("scenario.yaml");
        Path kubeconfig = dir.resolve("kubeconfig");
        Files.writeString(scenario, scenario());
        Thread serve = Thread.ofPlatform().daemon().name("training-serve").start(() ->
                Main.run("serve", "--scenario", scenario.toString(), "--port", "0", "--kubeconfig-out", kubeconfig.toString()));
        waitUntil("the embedded cluster serves", () -> Files.exists(kubeconfig) || !serve.isAlive());
        Config config = Config.fromKubeconfig(Files.readString(kubeconfig));
        try (KubernetesClient client = new KubernetesClientBuilder().withConfig(config).build()) {
            waitUntil("the eviction webhook is registered", () -> client.admissionRegistration().v1()
                    .validatingWebhookConfigurations().withName("virt-api-validator").get() != null);
            for (int i = 0; i < 4; i++) {
                GenericKubernetesResource vmi = new GenericKubernetesResource();
                vmi.setApiVersion("kubevirt.io/v1");
                vmi.setKind("VirtualMachineInstance");
                vmi.setMetadata(new ObjectMetaBuilder().withName("vm" + i).withNamespace(NAMESPACE).build());
                vmi.setAdditionalProperty("spec", Map.of("evictionStrategy", "LiveMigrate",
                        "domain", Map.of("memory", Map.of("guest", "16Mi"), "devices", Map.of("interfaces",
                                List.of(Map.of("name", "default", "masquerade", Map.of())))),
                        "networks", List.of(Map.of("name", "default", "pod", Map.of())),
                        "volumes", List.of(Map.of("name", "rootdisk", "containerDisk", Map.of("image", "quay.io/containerdisks/alpine:3.20")))));
                client.genericKubernetesResources("kubevirt.io/v1", "VirtualMachineInstance").inNamespace(NAMESPACE).resource(vmi).create();
            }
            waitUntil("the VMIs run", () -> client.genericKubernetesResources("kubevirt.io/v1", "VirtualMachineInstance")
                    .inNamespace(NAMESPACE).list().getItems().stream()
                    .filter(v -> v.getAdditionalProperties().get("status") instanceof Map<?, ?> s && "Running".equals(s.get("phase"))
                            && s.get("conditions") instanceof List<?> c && c.toString().contains("LiveMigratable"))
                    .count() == 4);
        }
        String kc = kubeconfig.toString();
        check(Main.run("uncordon", "node02", "--kubeconfig", kc));
        check(Main.run("drain", "node01", "--dry-run", "--kubeconfig", kc, "--ignore-daemonsets", "--delete-emptydir-data"));
        check(Main.run("drain", "node01", "--kubeconfig", kc, "--ignore-daemonsets", "--delete-emptydir-data", "--timeout", "2m"));
        check(Main.run("uncordon", "node01", "--kubeconfig", kc));
        trainConsole(dir);
        // The shutdown hook of serve closes the cluster; the JVM then writes the AOT cache.
        System.exit(0);
    }

    /**
     * Opens the console on the demo cluster as plain {@code ./drainboard} does, until it has shown the cluster for 3 s
     * (JavaFX, the controls and their CSS, the embedded cluster's start and the live model then come from the cache:
     * the console's start-up, docs/benchmarks.md). Needs a display: the build runs this under {@code xvfb-run} when it
     * has none (app/src/build/with-display.sh); without either, the cache covers the CLI only.
     */
    private static void trainConsole(Path dir) {
        if (DisplayRequirement.missing(System.getenv(), System.getProperty("os.name"), System.getProperty("glass.platform")).isPresent()) {
            System.out.println("AOT training: no display, the console is not part of the cache");
            return;
        }
        // Its own preferences (theme, recent connections): the operator's are neither read nor changed.
        System.setProperty("user.home", dir.resolve("home").toString());
        System.setProperty("drainboard.exitAfterPopulatedMs", "3000");
        dev.drainboard.ui.ConsoleApplication.launchWith("demo");
    }

    private static String scenario() {
        StringBuilder yaml = new StringBuilder("apiVersion: v1\nkind: Namespace\nmetadata: {name: " + NAMESPACE + "}\n");
        for (int n = 1; n <= 2; n++) {
            yaml.append("---\napiVersion: v1\nkind: Node\nmetadata:\n  name: node0").append(n)
                    .append("\n  labels: {kubernetes.io/hostname: node0").append(n).append("}\nspec: {unschedulable: ")
                    .append(n != 1).append("}\n");
        }
        return yaml.toString();
    }

    private static void check(int exitCode) {
        if (exitCode != 0) {
            throw new IllegalStateException("AOT training: a command exited " + exitCode);
        }
    }

    private static void waitUntil(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("AOT training: not within 3 min: " + what);
            }
            Thread.sleep(50);
        }
    }
}
