package dev.drainboard.ui.model;

import dev.drainboard.kubevirt.DrainboardAnnotations;
import dev.drainboard.kubevirt.KubeVirtAnnotations;
import dev.drainboard.kubevirt.KubeVirtConditions;
import dev.drainboard.kubevirt.KubeVirtLabels;
import dev.drainboard.kubevirt.api.Condition;
import dev.drainboard.kubevirt.api.Conditions;
import dev.drainboard.kubevirt.api.MigrationState;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceMigration;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceReplicaSet;
import dev.drainboard.kubevirt.config.ClusterConfig;
import dev.drainboard.kubevirt.config.MigrationConfig;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeCondition;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;

/** Pure functions from API objects to the rows the views show. No I/O, no FX. */
final class RowMapping {

    private RowMapping() {
    }

    static NodeRow nodeRow(Node node, Collection<Pod> podsOnNode, int vmisOnNode) {
        Map<String, String> labels = orEmpty(node.getMetadata().getLabels());
        String roles = labels.keySet().stream()
                .filter(k -> k.startsWith("node-role.kubernetes.io/"))
                .map(k -> k.substring("node-role.kubernetes.io/".length()))
                .sorted().collect(Collectors.joining(","));
        List<NodeCondition> conditions = node.getStatus() == null || node.getStatus().getConditions() == null
                ? List.of() : node.getStatus().getConditions();
        NodeRow.Readiness readiness = conditions.stream().filter(c -> "Ready".equals(c.getType())).findFirst()
                .map(c -> switch (c.getStatus()) {
                    case "True" -> NodeRow.Readiness.READY;
                    case "False" -> NodeRow.Readiness.NOT_READY;
                    default -> NodeRow.Readiness.UNKNOWN;
                }).orElse(NodeRow.Readiness.UNKNOWN);
        boolean memoryPressure = conditions.stream()
                .anyMatch(c -> "MemoryPressure".equals(c.getType()) && "True".equals(c.getStatus()));
        boolean cordoned = node.getSpec() != null && Boolean.TRUE.equals(node.getSpec().getUnschedulable());
        List<String> taints = node.getSpec() == null || node.getSpec().getTaints() == null ? List.of()
                : node.getSpec().getTaints().stream()
                .map(t -> t.getKey() + (t.getValue() == null || t.getValue().isEmpty() ? "" : "=" + t.getValue())
                        + ":" + t.getEffect())
                .toList();
        Map<String, Quantity> allocatable = node.getStatus() == null || node.getStatus().getAllocatable() == null
                ? Map.of() : node.getStatus().getAllocatable();
        long cpuRequested = 0;
        long memoryRequested = 0;
        int pods = 0;
        int workloadPods = 0;
        for (Pod pod : podsOnNode) {
            if (isFinished(pod)) {
                continue;
            }
            pods++;
            if (!isDaemonSetPod(pod) && !isMirrorPod(pod)) {
                workloadPods++;
            }
            for (Container c : pod.getSpec().getContainers()) {
                if (c.getResources() != null && c.getResources().getRequests() != null) {
                    cpuRequested += millis(c.getResources().getRequests().get("cpu"));
                    memoryRequested += bytes(c.getResources().getRequests().get("memory"));
                }
            }
        }
        String version = node.getStatus() == null || node.getStatus().getNodeInfo() == null ? ""
                : Objects.toString(node.getStatus().getNodeInfo().getKubeletVersion(), "");
        return new NodeRow(node.getMetadata().getName(), readiness, cordoned, taints, memoryPressure,
                roles.isEmpty() ? "<none>" : roles, labels.getOrDefault("topology.kubernetes.io/zone", ""), version,
                vmisOnNode, pods, workloadPods, cpuRequested, millis(allocatable.get("cpu")), memoryRequested,
                bytes(allocatable.get("memory")), created(node));
    }

    /**
     * The VMIs that keep a node from being safe to reboot: those not in a final phase. A Failed or Succeeded VMI keeps
     * its {@code status.nodeName} but runs nothing there (KubeVirt:
     * staging/src/kubevirt.io/api/core/v1/types.go {@code IsFinal}).
     */
    static int vmisHoldingNode(Collection<VirtualMachineInstance> vmisOnNode) {
        int n = 0;
        for (var vmi : vmisOnNode) {
            String phase = vmi.getStatus() == null ? null : vmi.getStatus().getPhase();
            if (!"Succeeded".equals(phase) && !"Failed".equals(phase)) {
                n++;
            }
        }
        return n;
    }

    static boolean isFinished(Pod pod) {
        String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
        return "Succeeded".equals(phase) || "Failed".equals(phase);
    }

    static boolean isDaemonSetPod(Pod pod) {
        return controller(pod).map(o -> "DaemonSet".equals(o.getKind())).orElse(false);
    }

    static boolean isMirrorPod(Pod pod) {
        return orEmpty(pod.getMetadata().getAnnotations()).containsKey("kubernetes.io/config.mirror");
    }

    static VmiRow vmiRow(VirtualMachineInstance vmi, ClusterConfig config, Collection<PodDisruptionBudget> pdbsInNamespace,
                         Optional<VirtualMachineInstanceMigration> newestMigration) {
        var status = vmi.getStatus();
        String own = vmi.getSpec() == null ? null : vmi.getSpec().getEvictionStrategy();
        String strategy = config.evictionStrategyFor(vmi).value();
        String source = own != null ? "VMI" : "cluster default";
        Optional<Condition> migratable = Conditions.find(status == null ? null : status.getConditions(),
                KubeVirtConditions.LIVE_MIGRATABLE);
        String liveMigratable = migratable.map(c -> Objects.toString(c.getStatus(), "Unknown")).orElse("Unknown");
        String reason = migratable.filter(c -> !"True".equals(c.getStatus()))
                .map(c -> join(c.getReason(), c.getMessage()))
                .orElse(migratable.isEmpty() ? "not reported yet" : "");
        Map<String, String> launcher = launcherLabels(vmi);
        String uid = vmi.getMetadata().getUid();
        String pdbs = pdbsInNamespace.stream().filter(p -> protects(p, uid, launcher))
                .map(p -> p.getMetadata().getName()).sorted().collect(Collectors.joining(", "));
        String migration = newestMigration.map(m -> m.getStatus() == null || m.getStatus().getPhase() == null
                ? "Pending" : m.getStatus().getPhase()).orElse("");
        return new VmiRow(vmi.getMetadata().getNamespace(), vmi.getMetadata().getName(),
                status == null || status.getPhase() == null ? "" : status.getPhase(),
                status == null || status.getNodeName() == null ? "" : status.getNodeName(),
                strategy, source, liveMigratable, reason,
                status == null || status.getEvacuationNodeName() == null ? "" : status.getEvacuationNodeName(),
                pdbs, migration, created(vmi),
                orEmpty(vmi.getMetadata().getAnnotations()).getOrDefault(DrainboardAnnotations.NODE_PRESSURE_DEADLINE, ""),
                orEmpty(vmi.getMetadata().getAnnotations()).getOrDefault(DrainboardAnnotations.LOST_TO_NODE_PRESSURE, ""),
                owner(vmi),
                Conditions.find(status == null ? null : status.getConditions(), "PodScheduled")
                        .filter(c -> "False".equals(c.getStatus()))
                        .map(c -> join(c.getReason(), c.getMessage())).orElse(""));
    }

    /**
     * A PDB protects a VMI when it selects the VMI's launcher pod: the launcher carries the VMI's labels and
     * {@code kubevirt.io/created-by=<vmi uid>} (KubeVirt's own PDBs select on the latter), or when the VMI owns it.
     */
    static boolean protects(PodDisruptionBudget pdb, VirtualMachineInstance vmi) {
        return protects(pdb, vmi.getMetadata().getUid(), launcherLabels(vmi));
    }

    /** The labels a VMI's launcher pod carries (computed once per VMI, then matched against each PDB). */
    private static Map<String, String> launcherLabels(VirtualMachineInstance vmi) {
        Map<String, String> labels = new HashMap<>(orEmpty(vmi.getMetadata().getLabels()));
        labels.put(KubeVirtLabels.APP, KubeVirtLabels.APP_VIRT_LAUNCHER);
        if (vmi.getMetadata().getUid() != null) {
            labels.put(KubeVirtLabels.CREATED_BY, vmi.getMetadata().getUid());
        }
        return labels;
    }

    private static boolean protects(PodDisruptionBudget pdb, String uid, Map<String, String> launcherLabels) {
        if (uid != null && pdb.getMetadata().getOwnerReferences() != null
                && pdb.getMetadata().getOwnerReferences().stream().anyMatch(o -> uid.equals(o.getUid()))) {
            return true;
        }
        return pdb.getSpec() != null && LabelSelectors.matches(pdb.getSpec().getSelector(), launcherLabels);
    }

    static PdbRow pdbRow(PodDisruptionBudget pdb) {
        var spec = pdb.getSpec();
        var status = pdb.getStatus();
        String owner = controller(pdb).map(o -> o.getKind() + "/" + o.getName()).orElse("");
        boolean expanded = orEmpty(pdb.getMetadata().getLabels()).containsKey(KubeVirtLabels.MIGRATION_NAME);
        return new PdbRow(pdb.getMetadata().getNamespace(), pdb.getMetadata().getName(),
                LabelSelectors.format(spec == null ? null : spec.getSelector()),
                spec == null ? "" : intOrString(spec.getMinAvailable()),
                spec == null ? "" : intOrString(spec.getMaxUnavailable()),
                status == null || status.getDisruptionsAllowed() == null ? 0 : status.getDisruptionsAllowed(),
                status == null || status.getCurrentHealthy() == null ? 0 : status.getCurrentHealthy(),
                status == null || status.getDesiredHealthy() == null ? 0 : status.getDesiredHealthy(),
                status == null || status.getExpectedPods() == null ? 0 : status.getExpectedPods(),
                owner, expanded, created(pdb));
    }

    /**
     * A VMIM's row; {@code previousTransfer} is the transfer sample last seen for it (or null), so the row can say
     * whether the remaining data grew since.
     */
    static MigrationRow migrationRow(VirtualMachineInstanceMigration vmim, TransferProgress previousTransfer) {
        var status = vmim.getStatus();
        MigrationState state = status == null ? null : status.getMigrationState();
        Map<String, String> annotations = orEmpty(vmim.getMetadata().getAnnotations());
        String cause = annotations.get(DrainboardAnnotations.MIGRATION_CAUSE);
        if (cause == null || cause.isBlank()) {
            if (annotations.containsKey(KubeVirtAnnotations.EVACUATION_MIGRATION)) {
                cause = "evacuation of " + annotations.get(KubeVirtAnnotations.EVACUATION_MIGRATION);
            } else if (annotations.containsKey(KubeVirtAnnotations.WORKLOAD_UPDATE_MIGRATION)) {
                cause = "workload update";
            } else {
                cause = "requested";
            }
        }
        String phase = status == null || status.getPhase() == null ? "Pending" : status.getPhase();
        TransferProgress transfer = TransferProgress.parse(annotations.get(DrainboardAnnotations.MIGRATION_PROGRESS))
                .map(t -> t.after(previousTransfer)).orElse(null);
        Instant until = null;
        if ("Succeeded".equals(phase) || "Failed".equals(phase)) {
            until = instant(state == null ? null : state.getEndTimestamp())
                    .or(() -> phaseTransition(status, phase))
                    .or(() -> instant(vmim.getMetadata().getCreationTimestamp()))
                    .orElse(null);
        }
        return new MigrationRow(vmim.getMetadata().getNamespace(), vmim.getMetadata().getName(),
                Objects.toString(vmim.getMetadata().getUid(), ""),
                vmim.getSpec() == null || vmim.getSpec().getVmiName() == null ? "" : vmim.getSpec().getVmiName(),
                phase,
                state == null ? "" : Objects.toString(state.getSourceNode(), ""),
                state == null ? "" : Objects.toString(state.getTargetNode(), ""),
                state == null ? "" : Objects.toString(state.getSourcePod(), ""),
                state == null ? "" : Objects.toString(state.getTargetPod(), ""),
                cause,
                state == null ? "" : Objects.toString(state.getStartTimestamp(), ""),
                state == null ? "" : Objects.toString(state.getEndTimestamp(), ""),
                created(vmim),
                instant(vmim.getMetadata().getCreationTimestamp()).orElse(null),
                until,
                transfer,
                state == null ? "" : Objects.toString(state.getFailureReason(), ""),
                vmim.getSpec() == null || vmim.getSpec().getPriority() == null ? "" : vmim.getSpec().getPriority());
    }

    private static Optional<Instant> phaseTransition(
            dev.drainboard.kubevirt.api.VirtualMachineInstanceMigrationStatus status, String phase) {
        if (status == null || status.getPhaseTransitionTimestamps() == null) {
            return Optional.empty();
        }
        return status.getPhaseTransitionTimestamps().stream()
                .filter(t -> phase.equals(t.getPhase()))
                .map(t -> instant(t.getPhaseTransitionTimestamp()))
                .flatMap(Optional::stream)
                .findFirst();
    }

    /** A launcher pod's row, or null for a pod no VMI owns (the console only relates launcher pods). */
    /** A pod no VMI owns, Pending with the scheduler's refusal; null for every other pod. */
    static StrandedPodRow strandedPodRow(Pod pod) {
        boolean launcher = controller(pod).filter(o -> "VirtualMachineInstance".equals(o.getKind())).isPresent();
        boolean pending = pod.getStatus() == null || pod.getStatus().getPhase() == null || "Pending".equals(pod.getStatus().getPhase());
        if (launcher || !pending || pod.getMetadata().getDeletionTimestamp() != null) {
            return null;
        }
        return dev.drainboard.ops.WhyPendingDecision.unschedulable(pod)
                .map(reason -> new StrandedPodRow(pod.getMetadata().getNamespace(), pod.getMetadata().getName(), reason))
                .orElse(null);
    }

    static PodRow podRow(Pod pod) {
        Optional<OwnerReference> vmi = controller(pod).filter(o -> "VirtualMachineInstance".equals(o.getKind()));
        if (vmi.isEmpty()) {
            return null;
        }
        Map<String, String> labels = orEmpty(pod.getMetadata().getLabels());
        return new PodRow(pod.getMetadata().getNamespace(), pod.getMetadata().getName(), vmi.get().getName(),
                pod.getSpec() == null || pod.getSpec().getNodeName() == null ? "" : pod.getSpec().getNodeName(),
                pod.getStatus() == null || pod.getStatus().getPhase() == null ? "Pending" : pod.getStatus().getPhase(),
                labels.getOrDefault(KubeVirtLabels.MIGRATION_JOB_UID, ""), created(pod));
    }

    static ReplicaSetRow replicaSetRow(VirtualMachineInstanceReplicaSet rs) {
        var spec = rs.getSpec();
        var status = rs.getStatus();
        String conditions = status == null || status.getConditions() == null ? ""
                : status.getConditions().stream().filter(c -> "True".equals(c.getStatus()))
                .map(c -> join(c.getType(), c.getMessage())).collect(Collectors.joining("; "));
        Optional<Condition> failure = Conditions.find(status == null ? null : status.getConditions(),
                KubeVirtConditions.REPLICA_FAILURE).filter(c -> "True".equals(c.getStatus()));
        return new ReplicaSetRow(rs.getMetadata().getNamespace(), rs.getMetadata().getName(),
                spec == null || spec.getReplicas() == null ? 1 : spec.getReplicas(),
                status == null || status.getReplicas() == null ? 0 : status.getReplicas(),
                status == null || status.getReadyReplicas() == null ? 0 : status.getReadyReplicas(),
                spec != null && Boolean.TRUE.equals(spec.getPaused()), conditions, created(rs),
                failure.map(c -> Objects.toString(c.getReason(), "")).orElse(""),
                failure.map(c -> Objects.toString(c.getMessage(), "")).orElse(""));
    }

    static VmRow vmRow(dev.drainboard.kubevirt.api.VirtualMachine vm, VirtualMachineInstance vmi) {
        var status = vm.getStatus();
        String strategy = vm.getSpec() != null && vm.getSpec().getRunStrategy() != null ? vm.getSpec().getRunStrategy()
                : vm.runStrategy().map(dev.drainboard.kubevirt.api.RunStrategy::value).orElse("");
        String node = vmi == null || vmi.getStatus() == null ? "" : Objects.toString(vmi.getStatus().getNodeName(), "");
        String pending = status == null || status.getStateChangeRequests() == null ? ""
                : status.getStateChangeRequests().stream().map(r -> Objects.toString(r.getAction(), ""))
                .collect(Collectors.joining(", "));
        return new VmRow(vm.getMetadata().getNamespace(), vm.getMetadata().getName(), strategy,
                status == null ? "" : Objects.toString(status.getPrintableStatus(), ""),
                status != null && Boolean.TRUE.equals(status.getReady()), node, pending, created(vm));
    }

    static EventRow eventRow(Event event) {
        Instant last = instant(event.getLastTimestamp())
                .or(() -> event.getEventTime() == null ? Optional.empty() : instant(event.getEventTime().getTime()))
                .or(() -> instant(event.getMetadata().getCreationTimestamp()))
                .orElse(Instant.EPOCH);
        var involved = event.getInvolvedObject();
        String object = involved == null ? "" : involved.getKind() + "/" + involved.getName();
        String source = event.getSource() != null && event.getSource().getComponent() != null
                ? event.getSource().getComponent()
                : Objects.toString(event.getReportingComponent(), "");
        return new EventRow(event.getMetadata().getNamespace(), event.getMetadata().getName(), last,
                Objects.toString(event.getType(), "Normal"), Objects.toString(event.getReason(), ""), object,
                Objects.toString(event.getMessage(), "").strip(), event.getCount() == null ? 1 : event.getCount(), source);
    }

    static KubeVirtSettings settings(ClusterConfig config) {
        MigrationConfig m = config.migrations();
        List<KubeVirtSettings.Setting> migrations = new ArrayList<>();
        migrations.add(new KubeVirtSettings.Setting("Parallel migrations per cluster", String.valueOf(m.parallelMigrationsPerCluster())));
        migrations.add(new KubeVirtSettings.Setting("Parallel outbound migrations per node", String.valueOf(m.parallelOutboundMigrationsPerNode())));
        migrations.add(new KubeVirtSettings.Setting("Node drain taint key", m.nodeDrainTaintKey()));
        migrations.add(new KubeVirtSettings.Setting("Bandwidth per migration", m.bandwidthLimited() ? m.bandwidthPerMigration().toString() + "/s" : "unlimited"));
        migrations.add(new KubeVirtSettings.Setting("Completion timeout per GiB", m.completionTimeoutPerGiB() + " s"));
        migrations.add(new KubeVirtSettings.Setting("Progress timeout", m.progressTimeout() + " s"));
        migrations.add(new KubeVirtSettings.Setting("Max downtime", m.maxDowntimeMs() + " ms"));
        migrations.add(new KubeVirtSettings.Setting("Allow post-copy", String.valueOf(m.allowPostCopy())));
        migrations.add(new KubeVirtSettings.Setting("Allow auto-converge", String.valueOf(m.allowAutoConverge())));
        return new KubeVirtSettings(config.source().orElse(""), config.evictionStrategy().value(), migrations,
                List.copyOf(config.featureGates()), config.profileChoice().describe());
    }

    /** The VMI's controller owner as a reference the console can show: a VM or a VMI replica set. */
    private static ObjectRef owner(VirtualMachineInstance vmi) {
        return controller(vmi).map(o -> switch (Objects.toString(o.getKind(), "")) {
            case "VirtualMachine" -> new ObjectRef(ObjectRef.Kind.VM, vmi.getMetadata().getNamespace(), o.getName());
            case "VirtualMachineInstanceReplicaSet" ->
                    new ObjectRef(ObjectRef.Kind.VMIRS, vmi.getMetadata().getNamespace(), o.getName());
            default -> null;
        }).orElse(null);
    }

    private static Optional<OwnerReference> controller(HasMetadata object) {
        List<OwnerReference> owners = object.getMetadata().getOwnerReferences();
        return owners == null ? Optional.empty()
                : owners.stream().filter(o -> Boolean.TRUE.equals(o.getController())).findFirst();
    }

    private static String intOrString(IntOrString value) {
        if (value == null) {
            return "";
        }
        return value.getIntVal() != null ? value.getIntVal().toString() : Objects.toString(value.getStrVal(), "");
    }

    static long millis(Quantity q) {
        if (q == null) {
            return 0;
        }
        try {
            return Quantity.getAmountInBytes(q).multiply(BigDecimal.valueOf(1000)).longValue();
        } catch (IllegalArgumentException e) {
            return 0;
        }
    }

    static long bytes(Quantity q) {
        if (q == null) {
            return 0;
        }
        try {
            return Quantity.getAmountInBytes(q).longValue();
        } catch (IllegalArgumentException e) {
            return 0;
        }
    }

    private static String created(HasMetadata object) {
        return Objects.toString(object.getMetadata().getCreationTimestamp(), "");
    }

    private static Optional<Instant> instant(String timestamp) {
        if (timestamp == null || timestamp.isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(Instant.parse(timestamp));
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }

    private static String join(String a, String b) {
        String first = a == null ? "" : a;
        String second = b == null ? "" : b;
        return first.isEmpty() ? second : second.isEmpty() ? first : first + ": " + second;
    }

    private static <K, V> Map<K, V> orEmpty(Map<K, V> map) {
        return map == null ? Map.of() : map;
    }
}
