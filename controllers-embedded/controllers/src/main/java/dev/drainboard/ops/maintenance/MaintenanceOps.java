package dev.drainboard.ops.maintenance;

import dev.drainboard.controller.maintenance.MaintenanceActions;
import dev.drainboard.kubevirt.DrainboardAnnotations;
import dev.drainboard.kubevirt.KubeVirtLabels;
import dev.drainboard.kubevirt.api.KubeVirt;
import dev.drainboard.kubevirt.api.VirtualMachine;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceMigration;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceMigrationSpec;
import dev.drainboard.kubevirt.config.ClusterConfig;
import dev.drainboard.kubevirt.config.ClusterConfigSource;
import dev.drainboard.maintenance.MaintenancePlanSpec;
import dev.drainboard.ops.DrainOperation;
import dev.drainboard.ops.DrainOptions;
import dev.drainboard.ops.DrainResult;
import dev.drainboard.ops.OpsException;
import dev.drainboard.ops.Ops;
import dev.drainboard.ops.PlacementInputs;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * The executor's actions and the planner's reads on a real (or embedded) cluster, through {@link Ops}: the same reads
 * as the drain preview, the same cordon, the same drain (evictions only), and the plan's migrations.
 */
public final class MaintenanceOps implements MaintenanceActions {

    /** How each node is drained: as KubeVirt's documentation drains a node (DaemonSets stay, emptyDir data goes). */
    public static final DrainOptions DRAIN = DrainOptions.defaults().withIgnoreDaemonSets(true).withDeleteEmptyDirData(true);

    private final Ops ops;
    /** The live KubeVirt configuration when the control plane follows it, else read when needed. */
    private final Supplier<ClusterConfig> config;
    /** Node → its {@code kubernetes.io/hostname} label (set by the kubelet at registration, not changed after). */
    private final Map<String, String> hostnames = new ConcurrentHashMap<>();

    public MaintenanceOps(KubernetesClient client) {
        this(new Ops(client));
    }

    public MaintenanceOps(Ops ops) {
        this.ops = ops;
        this.config = ops::readClusterConfig;
    }

    /** Reads the configuration from the control plane's informer ({@link ClusterConfigSource}), never per call. */
    public MaintenanceOps(KubernetesClient client, ClusterConfigSource config) {
        this.ops = new Ops(client);
        // Until its first list the source says KubeVirt's defaults (time scale 1): read it then instead.
        this.config = () -> config.hasSynced() ? config.current() : ops.readClusterConfig();
    }

    @Override
    public List<String> nodes(MaintenancePlanSpec spec) {
        List<Node> all;
        try {
            if (spec.nodeSelector() != null && !spec.nodeSelector().isBlank()) {
                all = ops.client().nodes().withLabelSelector(spec.nodeSelector()).list().getItems();
                if (all.isEmpty()) {
                    throw new IllegalArgumentException("no node matches the selector \"" + spec.nodeSelector() + "\"");
                }
                return all.stream().map(n -> n.getMetadata().getName()).sorted().toList();
            }
            all = ops.client().nodes().list().getItems();
        } catch (KubernetesClientException e) {
            if (e.getCode() == 400) {
                throw new IllegalArgumentException("invalid node selector \"" + spec.nodeSelector() + "\": "
                        + (e.getStatus() == null ? e.getMessage() : e.getStatus().getMessage()));
            }
            throw e;
        }
        Set<String> names = new LinkedHashSet<>();
        all.forEach(n -> names.add(n.getMetadata().getName()));
        List<String> missing = spec.nodes().stream().filter(n -> !names.contains(n)).toList();
        if (!missing.isEmpty()) {
            throw new IllegalArgumentException(missing.size() == 1 ? "node \"" + missing.getFirst() + "\" not found"
                    : "nodes not found: " + String.join(", ", missing));
        }
        return spec.nodes().stream().distinct().toList();
    }

    /** Everything the planner reads, now. */
    public MaintenanceInputs read(List<String> nodes, int maxUnavailable, Duration afterDrain) {
        KubernetesClient client = ops.client();
        PlacementInputs cluster = ops.readPlacement();
        ClusterConfig config = this.config.get();
        try {
            List<VirtualMachineInstance> vmis = client.resources(VirtualMachineInstance.class).inAnyNamespace().list().getItems();
            List<VirtualMachine> vms = client.resources(VirtualMachine.class).inAnyNamespace().list().getItems();
            var budgets = client.policy().v1().podDisruptionBudget().inAnyNamespace().list().getItems();
            List<VirtualMachineInstanceMigration> migrations = client.resources(VirtualMachineInstanceMigration.class)
                    .inAnyNamespace().list().getItems();
            return new MaintenanceInputs(nodes, maxUnavailable, afterDrain, cluster, vmis, vms, budgets, migrations,
                    config, DRAIN, Instant.now());
        } catch (KubernetesClientException e) {
            throw OpsException.from("VMIs, VMs, PodDisruptionBudgets and migrations", e);
        }
    }

    /** The plan for these nodes as the planner works it out on the cluster now. */
    public MaintenancePlanPreview preview(MaintenancePlanSpec spec, List<String> nodes) {
        return MaintenancePlanDecision.decide(read(nodes, spec.maxUnavailableOrDefault(), spec.afterDrainOrNone().pauseDuration()));
    }

    @Override
    public Planned plan(MaintenancePlanSpec spec, List<String> nodes, Set<String> maintained, List<List<String>> order) {
        MaintenanceInputs in = read(nodes, spec.maxUnavailableOrDefault(), spec.afterDrainOrNone().pauseDuration());
        if (!order.isEmpty()) {
            // A running plan's next turn: its targets only.
            return planned(MaintenancePlanDecision.decideNext(in.continuing(maintained, order)));
        }
        if (!maintained.isEmpty()) {
            in = in.continuing(maintained, order);
        }
        return planned(MaintenancePlanDecision.decide(in));
    }

    static Planned planned(MaintenancePlanPreview preview) {
        List<NodePart> parts = new ArrayList<>();
        for (MaintenancePlanPreview.NodePlan n : preview.nodes()) {
            parts.add(new NodePart(n.name(), n.batch(), n.skipped(), n.predictedStartSeconds(), n.predictedSeconds(), n.targets()));
        }
        return new Planned(preview.toStatus(), parts);
    }

    @Override
    public boolean cordon(String node) {
        return ops.cordon(node).changed();
    }

    @Override
    public void uncordon(String node) {
        ops.uncordon(node);
    }

    @Override
    public Boolean unschedulable(String node) {
        Node n = ops.client().nodes().withName(node).get();
        return n == null ? null : n.getSpec() != null && Boolean.TRUE.equals(n.getSpec().getUnschedulable());
    }

    @Override
    public boolean hasAnnotation(String node, String key) {
        Node n = ops.client().nodes().withName(node).get();
        return n != null && n.getMetadata().getAnnotations() != null && n.getMetadata().getAnnotations().containsKey(key);
    }

    @Override
    public String migrate(String plan, String namespace, String vmi, String from, String target) {
        VirtualMachineInstanceMigration m = new VirtualMachineInstanceMigration();
        m.setMetadata(new ObjectMetaBuilder()
                .withGenerateName(vmi.length() > 40 ? vmi.substring(0, 40) + "-" : vmi + "-maintenance-")
                .withNamespace(namespace)
                .addToAnnotations(DrainboardAnnotations.MIGRATION_CAUSE, DrainboardAnnotations.CAUSE_MAINTENANCE_PLAN)
                .addToAnnotations(DrainboardAnnotations.MAINTENANCE_PLAN, plan)
                .addToAnnotations(DrainboardAnnotations.MAINTENANCE_NODE, from)
                .addToLabels(KubeVirtLabels.MIGRATION_SELECTOR, vmi)
                .build());
        VirtualMachineInstanceMigrationSpec spec = new VirtualMachineInstanceMigrationSpec(vmi);
        if (config.get().profile().migratesToAChosenNode()) {
            // KubeVirt ≥ 1.6 adds it to the target pod's node selector; older releases have no such field, and the
            // scheduler chooses (docs/maintenance.md).
            spec.setAddedNodeSelector(Map.of("kubernetes.io/hostname", hostname(target)));
        }
        m.setSpec(spec);
        try {
            return ops.client().resources(VirtualMachineInstanceMigration.class).inNamespace(namespace).resource(m).create()
                    .getMetadata().getName();
        } catch (KubernetesClientException e) {
            throw OpsException.from("virtualmachineinstancemigration for VMI \"" + vmi + "\"", e);
        }
    }

    /** The node's {@code kubernetes.io/hostname} label (what the selector matches), its name when it has none. */
    private String hostname(String node) {
        String known = hostnames.get(node);
        if (known != null) {
            return known;
        }
        Node n = ops.client().nodes().withName(node).get();
        String label = n == null || n.getMetadata().getLabels() == null ? null : n.getMetadata().getLabels().get("kubernetes.io/hostname");
        if (label == null) {
            return node;
        }
        hostnames.put(node, label);
        return label;
    }

    @Override
    public void cancelMigration(String namespace, String name) {
        ops.cancelMigration(namespace, name);
    }

    @Override
    public void clearEvacuationMarks(String node) {
        ops.clearEvacuationMarks(node);
    }

    @Override
    public Drain drain(String node) {
        DrainOperation operation = ops.drain(node, DRAIN);
        CompletableFuture<String> result = operation.result().thenApply(r -> r.status() == DrainResult.Status.DRAINED
                ? null : r.status() + (r.why() == null ? "" : ": " + r.why()));
        return new Drain() {
            @Override
            public CompletableFuture<String> result() {
                return result;
            }

            @Override
            public void cancel() {
                operation.cancel();
            }
        };
    }

    @Override
    public double timeScale() {
        try {
            return config.get().timeScale();
        } catch (KubernetesClientException e) {
            // no KubeVirt CR to read: real time
            return 1.0;
        }
    }

    /**
     * The embedded cluster's time scale ({@link dev.drainboard.kubevirt.config.ClusterConfig#timeScale}, from the
     * annotation {@link DrainboardAnnotations#TIME_SCALE} on its KubeVirt CR); 1 on a real cluster.
     */
    public static double timeScale(KubernetesClient client) {
        try {
            return Ops.readClusterConfig(client).timeScale();
        } catch (KubernetesClientException e) {
            // no KubeVirt CR to read: real time
            return 1.0;
        }
    }
}
