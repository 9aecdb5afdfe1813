package dev.drainboard.ops;

import dev.drainboard.admission.EvictionAdmitter;
import dev.drainboard.admission.EvictionDecision;
import dev.drainboard.admission.EvictionRequest;
import dev.drainboard.admission.VmiLookup;
import dev.drainboard.architecture.Pure;
import dev.drainboard.controller.vm.VmDecision;
import dev.drainboard.controller.vm.VmPlan;
import dev.drainboard.controller.vmi.LauncherPodState;
import dev.drainboard.kubevirt.KubeVirtConditions;
import dev.drainboard.kubevirt.KubeVirtMessages;
import dev.drainboard.kubevirt.KubeVirtValues;
import dev.drainboard.kubevirt.api.Condition;
import dev.drainboard.kubevirt.api.Conditions;
import dev.drainboard.kubevirt.api.EvictionStrategy;
import dev.drainboard.kubevirt.api.RunStrategy;
import dev.drainboard.kubevirt.api.VirtualMachine;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceStatus;
import dev.drainboard.kubevirt.api.VmiPhase;
import dev.drainboard.labels.LabelSelector;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;

import dev.drainboard.controller.migration.MigrationDecision;
import dev.drainboard.controller.migration.MigrationSlots;
import dev.drainboard.handler.MigrationSync;
import dev.drainboard.handler.NodeHandler;
import dev.drainboard.kubevirt.config.MigrationConfig;
import dev.drainboard.controller.vmi.LauncherPods;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceMigration;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.HashSet;
import java.util.Set;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What a drain of one node will do, pod by pod, and why, before anything is written. Pure: the cluster's objects go
 * in ({@link DrainInputs}), the plan comes out. It asks the same pure decisions the control plane acts on: the
 * eviction webhook's ({@link EvictionAdmitter#decide}) for launcher pods, the VM controller's
 * ({@link VmDecision#decide}) for whether an evicted VMI is started again, and the API server's PDB rule for the
 * rest; kubectl's pod filters (DaemonSet, mirror, emptyDir, unmanaged) come first, as in kubectl.
 *
 * <p>Across the nodes drained together ({@link #compute(List, PlacementInputs)}) it also asks
 * {@link PlacementDecision} whether every VMI that migrates and every pod or VMI that is recreated has a node to go
 * to; each that has none, and each VMI with strategy External nobody said is handled, is a {@link Blocker}.
 *
 * @param errors   kubectl's refusals ({@code cannot delete ... (use --force to override): ns/pod, ...}); a drain with
 *                 any does not start
 * @param blockers        what would be stranded; a drain with any does not start unless {@link DrainOptions#allowStranded()}
 * @param estimateSeconds when the node's last live migration ends ({@link DrainEstimate}), or null when not worked out
 */
@Pure
public record DrainPreview(String node, List<PodPreview> pods, List<String> errors, List<Blocker> blockers,
                           Double estimateSeconds) {

    /** kubectl's wording for the pods it refuses to drain without an option. */
    public static final String DAEMONSET_FATAL = "cannot delete DaemonSet-managed Pods (use --ignore-daemonsets to ignore)";
    public static final String LOCAL_STORAGE_FATAL = "cannot delete Pods with local storage (use --delete-emptydir-data to override)";
    public static final String UNMANAGED_FATAL = "cannot delete Pods that declare no controller (use --force to override)";
    /** The API server's refusal when several PDBs select a pod. */
    public static final String SEVERAL_BUDGETS =
            "This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.";
    /** The API server's refusal when a PDB allows no disruption. */
    public static final String BUDGET_VIOLATION = "Cannot evict pod as it would violate the pod's disruption budget.";
    static final String MIRROR_ANNOTATION = "kubernetes.io/config.mirror";

    public DrainPreview {
        pods = List.copyOf(pods);
        errors = List.copyOf(errors);
        blockers = List.copyOf(blockers);
    }

    public DrainPreview(String node, List<PodPreview> pods, List<String> errors) {
        this(node, pods, errors, List.of(), null);
    }

    public DrainPreview(String node, List<PodPreview> pods, List<String> errors, List<Blocker> blockers) {
        this(node, pods, errors, blockers, null);
    }

    /** Whether something would be stranded (or waits on someone outside KubeVirt). */
    public boolean blocked() {
        return !blockers.isEmpty();
    }

    /** Whether the drain may start (no pod needs an option that was not given). */
    public boolean canStart() {
        return errors.isEmpty();
    }

    /** The pods the drain evicts. */
    public List<PodPreview> toEvict() {
        return pods.stream().filter(p -> p.outcome().effect() == PodOutcome.Effect.EVICT).toList();
    }

    public Optional<PodPreview> pod(String namespace, String name) {
        return pods.stream().filter(p -> p.namespace().equals(namespace) && p.name().equals(name)).findFirst();
    }

    public static DrainPreview compute(DrainInputs in) {
        List<PodPreview> previews = new ArrayList<>();
        Map<String, List<String>> fatal = new LinkedHashMap<>();
        List<Pod> pods = new ArrayList<>(in.pods());
        pods.sort(Comparator.comparing((Pod p) -> p.getMetadata().getNamespace()).thenComparing(p -> p.getMetadata().getName()));
        for (Pod pod : pods) {
            PodPreview preview = preview(pod, in);
            previews.add(preview);
            String refusal = switch (preview.outcome()) {
                case NEEDS_IGNORE_DAEMONSETS -> DAEMONSET_FATAL;
                case NEEDS_DELETE_EMPTYDIR_DATA -> LOCAL_STORAGE_FATAL;
                case NEEDS_FORCE -> UNMANAGED_FATAL;
                default -> null;
            };
            if (refusal != null) {
                fatal.computeIfAbsent(refusal, k -> new ArrayList<>()).add(preview.key());
            }
        }
        List<String> errors = fatal.entrySet().stream().map(e -> e.getKey() + ": " + String.join(", ", e.getValue())).toList();
        List<Blocker> blockers = new ArrayList<>();
        for (PodPreview p : previews) {
            if (p.outcome() == PodOutcome.BLOCKED_NOT_MIGRATABLE) {
                // The webhook denies it on every attempt (pkg/virt-api/webhooks/validating-webhook/admitters/
                // pod-eviction-admitter.go): without --allow-stranded the drain must not start and hang.
                blockers.add(new Blocker(Blocker.VMI, p.namespace(), p.vmi(), p.reason(), Blocker.Cause.NOT_MIGRATABLE));
            }
        }
        if (!in.options().externalHandled()) {
            for (PodPreview p : previews) {
                if (p.outcome() == PodOutcome.EXTERNAL_EVACUATION) {
                    blockers.add(new Blocker(Blocker.VMI, p.namespace(), p.vmi(), externalBlocker(p.vmi()), Blocker.Cause.EXTERNAL));
                }
            }
        }
        return new DrainPreview(in.node(), previews, errors, blockers);
    }

    /** What happens to a VMI with strategy External: KubeVirt marks it, and only something outside moves it. */
    static String externalBlocker(String vmi) {
        return "eviction strategy External: the drain marks VMI " + vmi + " for evacuation and waits until something "
                + "outside KubeVirt removes it; nothing in KubeVirt migrates it (--external-handled if that is taken care of)";
    }

    /**
     * The nodes drained together, each previewed, then everything they move placed on the nodes that remain (all of
     * them gone at once): what has nowhere to go becomes a blocker of the node it leaves.
     */
    public static List<DrainPreview> compute(List<DrainInputs> perNode, PlacementInputs cluster) {
        List<DrainPreview> previews = perNode.stream().map(DrainPreview::compute).toList();
        Set<String> drained = new HashSet<>();
        perNode.forEach(in -> drained.add(in.node()));
        List<PlacementDecision.Move> moves = new ArrayList<>();
        Map<PlacementDecision.Move, Integer> nodeOf = new IdentityHashMap<>();
        for (int i = 0; i < perNode.size(); i++) {
            for (PodPreview p : previews.get(i).pods()) {
                Optional<PlacementDecision.Move> move = move(p, perNode.get(i));
                if (move.isPresent()) {
                    moves.add(move.get());
                    nodeOf.put(move.get(), i);
                }
            }
        }
        List<PlacementDecision.Stranded> stranded = PlacementDecision.decide(cluster.nodes(), cluster.pods(), drained, moves);
        DrainEstimate.Estimate estimate = perNode.isEmpty() ? null : estimate(perNode, previews, cluster);
        List<DrainPreview> result = new ArrayList<>();
        for (int i = 0; i < previews.size(); i++) {
            DrainPreview p = previews.get(i);
            List<Blocker> blockers = new ArrayList<>(p.blockers());
            List<PodPreview> pods = new ArrayList<>(p.pods());
            for (PlacementDecision.Stranded s : stranded) {
                if (nodeOf.get(s.move()) != i) {
                    continue;
                }
                PlacementDecision.Move m = s.move();
                String what = m.migration() ? "no node can take its migration target pod"
                        : "its replacement has nowhere to run";
                blockers.add(new Blocker(m.kind(), m.namespace(), m.name(), what + ": " + s.message()));
                String podName = m.leaving().getMetadata().getName();
                pods.replaceAll(pp -> pp.namespace().equals(m.namespace()) && pp.name().equals(podName)
                        ? new PodPreview(pp.namespace(), pp.name(), pp.uid(), pp.outcome(), pp.reason() + "; but " + what
                        + " (blocker)", pp.vmi(), pp.budget(), pp.expectedMessage()) : pp);
            }
            result.add(new DrainPreview(p.node(), pods, p.errors(), blockers, estimate == null ? null : estimate.forNode(p.node())));
        }
        return result;
    }

    /**
     * The migrations of all the nodes, through the migration slots the cluster's configuration sets, each costing
     * what recent migrations in the drained pods' namespaces showed beyond the transfer.
     */
    static DrainEstimate.Estimate estimate(List<DrainInputs> perNode, List<DrainPreview> previews, PlacementInputs cluster) {
        MigrationConfig migrations = perNode.getFirst().config().migrations();
        List<List<DrainEstimate.Transfer>> byNode = new ArrayList<>();
        for (int i = 0; i < perNode.size(); i++) {
            byNode.add(transfers(perNode.get(i), previews.get(i), cluster));
        }
        return DrainEstimate.of(MigrationSlots.interleaved(byNode), MigrationSlots.Limits.of(migrations), overhead(perNode, cluster));
    }

    /** The live migrations of one node's drain, each as the node handler would run it. */
    public static List<DrainEstimate.Transfer> transfers(DrainInputs in, DrainPreview preview, PlacementInputs cluster) {
        MigrationConfig migrations = in.config().migrations();
        List<DrainEstimate.Transfer> transfers = new ArrayList<>();
        Map<String, String> nodeAnnotations = cluster.nodes().stream().filter(n -> n.getMetadata().getName().equals(in.node()))
                .findFirst().map(n -> n.getMetadata().getAnnotations()).orElse(null);
        for (PodPreview p : preview.pods()) {
            if (p.outcome() != PodOutcome.LIVE_MIGRATION) {
                continue;
            }
            in.vmis().stream().filter(v -> v.getMetadata().getNamespace().equals(p.namespace()) && v.getMetadata().getName().equals(p.vmi()))
                    .findFirst().ifPresent(vmi -> transfers.add(transfer(in.node(), vmi, migrations, nodeAnnotations, cluster)));
        }
        return transfers;
    }

    /** One VMI's migration off {@code node}, as the node handler would run it. */
    public static DrainEstimate.Transfer transfer(String node, VirtualMachineInstance vmi, MigrationConfig migrations,
                                                  Map<String, String> nodeAnnotations, PlacementInputs cluster) {
        long memory = NodeHandler.definitionOf(vmi).memoryBytes();
        return DrainEstimate.Transfer.of(node, memory, MigrationSync.options(withPolicy(migrations, vmi, cluster),
                nodeAnnotations == null ? Map.of() : nodeAnnotations,
                vmi.getMetadata().getAnnotations() == null ? Map.of() : vmi.getMetadata().getAnnotations(), memory));
    }

    /** What the recent migrations in the drained pods' namespaces showed a migration costs beyond its transfer. */
    public static MigrationOverhead.Observed overhead(List<DrainInputs> perNode, PlacementInputs cluster) {
        MigrationConfig migrations = perNode.getFirst().config().migrations();
        Map<String, VirtualMachineInstanceMigration> seenMigrations = new LinkedHashMap<>();
        Map<String, VirtualMachineInstance> seenVmis = new LinkedHashMap<>();
        for (DrainInputs in : perNode) {
            in.migrations().forEach(m -> seenMigrations.putIfAbsent(m.getMetadata().getNamespace() + "/" + m.getMetadata().getName(), m));
            in.vmis().forEach(v -> seenVmis.putIfAbsent(v.getMetadata().getNamespace() + "/" + v.getMetadata().getName(), v));
        }
        return MigrationOverhead.of(List.copyOf(seenMigrations.values()), List.copyOf(seenVmis.values()), cluster.nodes(), migrations);
    }

    /**
     * The configuration a VMI's migration follows: the cluster's, with the MigrationPolicy that matches the VMI laid
     * over it, as the migration controller hands it to the node handler ({@code MigrationPolicies}).
     */
    static MigrationConfig withPolicy(MigrationConfig cluster, VirtualMachineInstance vmi, PlacementInputs inputs) {
        if (inputs.policies().isEmpty()) {
            return cluster;
        }
        var policy = dev.drainboard.controller.migration.MigrationPolicies.match(inputs.policies(),
                vmi.getMetadata().getLabels() == null ? Map.of() : vmi.getMetadata().getLabels(),
                inputs.namespaceLabels().getOrDefault(vmi.getMetadata().getNamespace(), Map.of()));
        if (policy == null) {
            return cluster;
        }
        try {
            return dev.drainboard.kubevirt.config.ClusterConfig.migrations(
                    dev.drainboard.controller.migration.MigrationPolicies.configuration(cluster, policy));
        } catch (dev.drainboard.kubevirt.config.InvalidClusterConfigException e) {
            return cluster; // a policy KubeVirt would refuse: the cluster's configuration
        }
    }

    /** What the scheduler will be asked to place for this pod, if anything: a migration target or a new pod. */
    public static Optional<PlacementDecision.Move> move(PodPreview p, DrainInputs in) {
        Optional<Pod> pod = in.pods().stream()
                .filter(x -> x.getMetadata().getNamespace().equals(p.namespace()) && x.getMetadata().getName().equals(p.name()))
                .findFirst();
        if (pod.isEmpty()) {
            return Optional.empty();
        }
        Optional<VirtualMachineInstance> vmi = p.vmi() == null ? Optional.empty() : in.vmis().stream()
                .filter(v -> v.getMetadata().getNamespace().equals(p.namespace()) && v.getMetadata().getName().equals(p.vmi()))
                .findFirst();
        switch (p.outcome()) {
            case LIVE_MIGRATION -> {
                if (vmi.isEmpty()) {
                    return Optional.empty();
                }
                VirtualMachineInstanceMigration vmim = new VirtualMachineInstanceMigration();
                ObjectMeta meta = new ObjectMeta();
                meta.setNamespace(p.namespace());
                meta.setName(p.vmi() + "-drain");
                meta.setUid("drain-preview");
                vmim.setMetadata(meta);
                return Optional.of(new PlacementDecision.Move(Blocker.VMI, p.namespace(), p.vmi(), pod.get(),
                        MigrationDecision.targetPod(vmim, vmi.get()), true));
            }
            case EVICTED_VMI_REPLACED, EVICTED_VM_RESTARTS -> {
                // The new VMI is made from the same template (replica set) or VM: its launcher as the VMI controller renders it.
                return vmi.map(v -> new PlacementDecision.Move(Blocker.VMI, p.namespace(), p.vmi(), pod.get(),
                        LauncherPods.render(v), false));
            }
            case EVICTED, BLOCKED_BY_PDB -> {
                boolean recreated = !isFinished(pod.get()) && controllerOf(pod.get().getMetadata())
                        .filter(ref -> RECREATING_CONTROLLERS.contains(ref.getKind())).isPresent();
                return recreated ? Optional.of(new PlacementDecision.Move(Blocker.POD, p.namespace(), p.name(), pod.get(),
                        pod.get(), false)) : Optional.empty();
            }
            default -> {
                return Optional.empty();
            }
        }
    }

    /** The controllers that create a new pod from the same template when one is evicted (a Deployment's is its ReplicaSet). */
    static final Set<String> RECREATING_CONTROLLERS = Set.of("ReplicaSet", "StatefulSet", "ReplicationController");

    /** One pod: kubectl's filters in kubectl's order, then what the eviction will meet. */
    static PodPreview preview(Pod pod, DrainInputs in) {
        DrainOptions options = in.options();
        Optional<OwnerReference> controller = controllerOf(pod.getMetadata());
        boolean finished = isFinished(pod);
        if (controller.filter(ref -> "DaemonSet".equals(ref.getKind())).isPresent()) {
            return options.ignoreDaemonSets()
                    ? of(pod, PodOutcome.SKIPPED_DAEMONSET, "managed by DaemonSet " + controller.get().getName() + ": stays on the node")
                    : of(pod, PodOutcome.NEEDS_IGNORE_DAEMONSETS, "managed by DaemonSet " + controller.get().getName()
                    + ": the drain refuses to start without --ignore-daemonsets");
        }
        if (annotations(pod.getMetadata()).containsKey(MIRROR_ANNOTATION)) {
            return of(pod, PodOutcome.SKIPPED_MIRROR, "static pod of the node's kubelet (mirror pod): cannot be evicted, stays");
        }
        if (!finished && hasEmptyDir(pod) && !options.deleteEmptyDirData()) {
            return of(pod, PodOutcome.NEEDS_DELETE_EMPTYDIR_DATA,
                    "has emptyDir data that eviction deletes: the drain refuses to start without --delete-emptydir-data");
        }
        if (!finished && controller.isEmpty() && !options.force()) {
            return of(pod, PodOutcome.NEEDS_FORCE,
                    "declares no controller, nothing would recreate it: the drain refuses to start without --force");
        }
        if (finished) {
            return of(pod, PodOutcome.EVICTED, "already " + pod.getStatus().getPhase() + ": evicted to clear it off the node");
        }
        if (EvictionAdmitter.isLauncher(pod)) {
            Optional<PodPreview> launcher = launcher(pod, in);
            if (launcher.isPresent()) {
                return launcher.get();
            }
        }
        Optional<PodPreview> budget = budgetRefusal(pod, in.budgets());
        if (budget.isPresent()) {
            return budget.get();
        }
        return of(pod, PodOutcome.EVICTED, controller.isEmpty()
                ? "declares no controller: evicted and gone for good (--force)"
                : "evicted; its " + controller.get().getKind() + " " + controller.get().getName() + " recreates it elsewhere");
    }

    /** A launcher pod: the eviction webhook's decision first, as the API server asks it before the PDBs. */
    private static Optional<PodPreview> launcher(Pod pod, DrainInputs in) {
        String namespace = pod.getMetadata().getNamespace();
        Optional<String> vmiName = EvictionAdmitter.vmiNameOf(pod);
        VirtualMachineInstance vmi = vmiName.flatMap(name -> in.vmis().stream()
                .filter(v -> namespace.equals(v.getMetadata().getNamespace()) && name.equals(v.getMetadata().getName()))
                .findFirst()).orElse(null);
        VmiLookup lookup = vmiName.isEmpty() ? VmiLookup.notNeeded()
                : vmi == null ? VmiLookup.failed("virtualmachineinstances.kubevirt.io \"" + vmiName.get() + "\" not found")
                : VmiLookup.found(vmi);
        EvictionDecision decision = EvictionAdmitter.decide(
                new EvictionRequest(namespace, pod.getMetadata().getName(), true), pod, lookup, in.config());
        String vmiRef = vmiName.orElse(null);
        return switch (decision) {
            case EvictionDecision.Deny deny when deny.why() == EvictionDecision.Why.NOT_LIVE_MIGRATABLE -> Optional.of(new PodPreview(
                    namespace, pod.getMetadata().getName(), pod.getMetadata().getUid(), PodOutcome.BLOCKED_NOT_MIGRATABLE,
                    "VMI " + vmiRef + " has eviction strategy LiveMigrate but is not live-migratable ("
                            + notMigratableBecause(vmi) + "): every eviction is refused, the drain cannot finish",
                    vmiRef, null, webhookDenied(deny.message())));
            // KubeVirt v1.5+: the webhook itself refuses the repeats while the VMI moves; that is the evacuation going on.
            case EvictionDecision.Deny deny when deny.why() == EvictionDecision.Why.ALREADY_MARKED ->
                    Optional.of(evacuation(pod, vmi, in, deny.message(), true));
            case EvictionDecision.Deny deny -> Optional.of(new PodPreview(namespace, pod.getMetadata().getName(),
                    pod.getMetadata().getUid(), PodOutcome.REFUSED, "the eviction webhook refuses it: " + deny.message(),
                    vmiRef, null, webhookDenied(deny.message())));
            case EvictionDecision.Mark mark -> Optional.of(evacuation(pod, vmi, in, mark.denial().message(), false));
            case EvictionDecision.Allow allow when allow.why() == EvictionDecision.Why.ALREADY_MARKED ->
                    Optional.of(evacuation(pod, vmi, in, BUDGET_VIOLATION, true));
            case EvictionDecision.Allow allow when allow.why() == EvictionDecision.Why.NO_EVACUATION_WANTED -> {
                Optional<PodPreview> budget = budgetRefusal(pod, in.budgets());
                yield budget.isPresent() ? budget : Optional.of(shutdown(pod, vmi, in));
            }
            case EvictionDecision.Allow allow -> Optional.empty(); // not on the VMI's node, or names no VMI: the PDB decides
        };
    }

    /** The VMI is (to be) marked for evacuation: LiveMigrate(IfPossible) migrates it, External waits for someone else. */
    private static PodPreview evacuation(Pod pod, VirtualMachineInstance vmi, DrainInputs in, String firstAnswer, boolean marked) {
        EvictionStrategy strategy = in.config().evictionStrategyFor(vmi);
        String name = vmi.getMetadata().getName();
        // Up to v1.4 the VMI's PDB holds the pod while it moves; from v1.5 the webhook refuses every repeat first, so
        // no PDB is what holds it (from v1.6 there is none at all).
        boolean webhookHolds = in.config().profile().webhookDeniesRepeats();
        String budget = webhookHolds ? null : budgetsOf(pod, in.budgets()).stream().findFirst().map(DrainPreview::key).orElse(null);
        String holds = webhookHolds ? "; the eviction webhook refuses its eviction until then"
                : budget == null ? "" : "; PodDisruptionBudget " + budget + " holds " + (strategy == EvictionStrategy.EXTERNAL ? "the pod" : "it") + " until then";
        String message = firstAnswer.equals(BUDGET_VIOLATION) ? firstAnswer : webhookDenied(firstAnswer);
        if (strategy == EvictionStrategy.EXTERNAL) {
            return new PodPreview(pod.getMetadata().getNamespace(), pod.getMetadata().getName(), pod.getMetadata().getUid(),
                    PodOutcome.EXTERNAL_EVACUATION, (marked ? "VMI " + name + " is marked for evacuation" : "the eviction marks VMI "
                    + name + " for evacuation") + " (strategy External): it goes once something outside KubeVirt moves it"
                    + holds, name, budget, message);
        }
        return new PodPreview(pod.getMetadata().getNamespace(), pod.getMetadata().getName(), pod.getMetadata().getUid(),
                PodOutcome.LIVE_MIGRATION, (marked ? "VMI " + name + " is already being evacuated"
                : "the eviction triggers a live migration of VMI " + name) + " (strategy " + strategy.value()
                + "): the pod goes once the VMI has moved" + holds,
                name, budget, message);
    }

    /** The eviction goes through and shuts the VMI down: does anything start it again? */
    private static PodPreview shutdown(Pod pod, VirtualMachineInstance vmi, DrainInputs in) {
        String ns = pod.getMetadata().getNamespace();
        String podName = pod.getMetadata().getName();
        String uid = pod.getMetadata().getUid();
        String name = vmi.getMetadata().getName();
        EvictionStrategy strategy = in.config().evictionStrategyFor(vmi);
        String why = strategy == EvictionStrategy.NONE
                ? "strategy None" + (vmi.getSpec() == null || vmi.getSpec().getEvictionStrategy() == null ? " (cluster default)" : "")
                : "strategy " + strategy.value() + " but not live-migratable (" + notMigratableBecause(vmi) + ")";
        Optional<OwnerReference> owner = controllerOf(vmi.getMetadata());
        if (owner.filter(o -> "VirtualMachineInstanceReplicaSet".equals(o.getKind())).isPresent()) {
            return new PodPreview(ns, podName, uid, PodOutcome.EVICTED_VMI_REPLACED, "evicted (" + why + "): VMI " + name
                    + " is shut down and lost; its VirtualMachineInstanceReplicaSet " + owner.get().getName()
                    + " creates a new VMI in its place", name, null, null);
        }
        if (owner.filter(o -> "VirtualMachine".equals(o.getKind())).isPresent()) {
            OwnerReference ref = owner.get();
            Optional<VirtualMachine> vm = in.vms().stream()
                    .filter(v -> ns.equals(v.getMetadata().getNamespace()) && ref.getName().equals(v.getMetadata().getName()))
                    .findFirst();
            if (vm.isEmpty()) {
                return new PodPreview(ns, podName, uid, PodOutcome.EVICTED_VMI_LOST, "evicted (" + why + "): VMI " + name
                        + " is shut down; its VirtualMachine " + ref.getName() + " was not found, nothing restarts it",
                        name, null, null);
            }
            String runStrategy = vm.get().runStrategy().map(RunStrategy::value)
                    .orElse(vm.get().getSpec() == null ? "?" : vm.get().getSpec().getRunStrategy());
            if (restartsAfterEviction(vm.get(), vmi, in)) {
                return new PodPreview(ns, podName, uid, PodOutcome.EVICTED_VM_RESTARTS, "evicted (" + why + "): VMI " + name
                        + " is shut down and VirtualMachine " + ref.getName() + " (runStrategy " + runStrategy
                        + ") starts it again on another node", name, null, null);
            }
            return new PodPreview(ns, podName, uid, PodOutcome.EVICTED_VMI_LOST, "evicted (" + why + "): VMI " + name
                    + " is shut down and VirtualMachine " + ref.getName() + " (runStrategy " + runStrategy
                    + ") does not start it again", name, null, null);
        }
        return new PodPreview(ns, podName, uid, PodOutcome.EVICTED_VMI_LOST, "evicted (" + why + "): VMI " + name
                + " is shut down and lost; no VirtualMachine starts it again", name, null, null);
    }

    /**
     * Asks the VM controller's decision what it does once the evicted VMI has failed (its pod gone): delete it, and
     * then create a new one?
     */
    static boolean restartsAfterEviction(VirtualMachine vm, VirtualMachineInstance vmi, DrainInputs in) {
        VirtualMachineInstance failed = new VirtualMachineInstance();
        ObjectMeta meta = new ObjectMeta();
        meta.setNamespace(vmi.getMetadata().getNamespace());
        meta.setName(vmi.getMetadata().getName());
        meta.setUid(vmi.getMetadata().getUid());
        meta.setOwnerReferences(vmi.getMetadata().getOwnerReferences());
        failed.setMetadata(meta);
        failed.setSpec(vmi.getSpec());
        VirtualMachineInstanceStatus status = new VirtualMachineInstanceStatus();
        status.setPhase(VmiPhase.FAILED.value());
        failed.setStatus(status);
        try {
            VmPlan afterFailure = VmDecision.decide(vm, failed, in.now());
            if (!afterFailure.deleteVmi()) {
                return false;
            }
            return VmDecision.decide(vm, null, in.now()).vmiToCreate() != null;
        } catch (RuntimeException e) {
            return false; // a VM the controller cannot render a VMI from starts nothing
        }
    }

    /** The API server's PDB rule for an eviction the webhook let through. */
    private static Optional<PodPreview> budgetRefusal(Pod pod, List<PodDisruptionBudget> budgets) {
        if (ignoresBudgets(pod)) {
            return Optional.empty();
        }
        List<PodDisruptionBudget> matching = budgetsOf(pod, budgets);
        String vmi = EvictionAdmitter.vmiNameOf(pod).orElse(null);
        if (matching.size() > 1) {
            return Optional.of(new PodPreview(pod.getMetadata().getNamespace(), pod.getMetadata().getName(),
                    pod.getMetadata().getUid(), PodOutcome.REFUSED, "selected by " + matching.size()
                    + " PodDisruptionBudgets (" + String.join(", ", matching.stream().map(DrainPreview::key).toList())
                    + "): the API server refuses to evict it", vmi, null, SEVERAL_BUDGETS));
        }
        if (matching.size() == 1 && disruptionsAllowed(matching.getFirst()) < 1) {
            PodDisruptionBudget pdb = matching.getFirst();
            return Optional.of(new PodPreview(pod.getMetadata().getNamespace(), pod.getMetadata().getName(),
                    pod.getMetadata().getUid(), PodOutcome.BLOCKED_BY_PDB, "PodDisruptionBudget " + key(pdb)
                    + " allows no disruption now (" + budgetFigures(pdb) + "): the drain waits until it does",
                    vmi, key(pdb), BUDGET_VIOLATION));
        }
        return Optional.empty();
    }

    private static List<PodDisruptionBudget> budgetsOf(Pod pod, List<PodDisruptionBudget> budgets) {
        return budgets.stream()
                .filter(b -> Objects.equals(b.getMetadata().getNamespace(), pod.getMetadata().getNamespace()))
                .filter(b -> b.getSpec() != null && LabelSelector.selects(b.getSpec().getSelector(), pod.getMetadata().getLabels()))
                .toList();
    }

    /** As the API server: pending, finished and terminating pods are not protected by budgets. */
    static boolean ignoresBudgets(Pod pod) {
        String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
        return pod.getMetadata().getDeletionTimestamp() != null || "Pending".equals(phase) || isFinished(pod);
    }

    private static int disruptionsAllowed(PodDisruptionBudget pdb) {
        return pdb.getStatus() == null || pdb.getStatus().getDisruptionsAllowed() == null ? 0 : pdb.getStatus().getDisruptionsAllowed();
    }

    private static String budgetFigures(PodDisruptionBudget pdb) {
        StringBuilder text = new StringBuilder();
        if (pdb.getSpec().getMinAvailable() != null) {
            text.append("minAvailable ").append(pdb.getSpec().getMinAvailable().getValue());
        } else if (pdb.getSpec().getMaxUnavailable() != null) {
            text.append("maxUnavailable ").append(pdb.getSpec().getMaxUnavailable().getValue());
        }
        if (pdb.getStatus() != null && pdb.getStatus().getCurrentHealthy() != null) {
            text.append(text.isEmpty() ? "" : ", ").append(pdb.getStatus().getCurrentHealthy()).append(" healthy of ")
                    .append(pdb.getStatus().getExpectedPods() == null ? "?" : pdb.getStatus().getExpectedPods());
        }
        return text.append(text.isEmpty() ? "" : ", ").append("disruptionsAllowed ").append(disruptionsAllowed(pdb)).toString();
    }

    private static String notMigratableBecause(VirtualMachineInstance vmi) {
        Optional<Condition> condition = vmi == null || vmi.getStatus() == null ? Optional.empty()
                : Conditions.find(vmi.getStatus().getConditions(), KubeVirtConditions.LIVE_MIGRATABLE);
        if (condition.isEmpty()) {
            return "no LiveMigratable condition yet";
        }
        Condition c = condition.get();
        String reason = c.getReason() == null || c.getReason().isEmpty() ? "LiveMigratable=" + c.getStatus() : c.getReason();
        return c.getMessage() == null || c.getMessage().isEmpty() ? reason : reason + ": " + c.getMessage();
    }

    /** How the API server hands a webhook's denial to the evicting client. */
    static String webhookDenied(String message) {
        return KubeVirtMessages.WEBHOOK_DENIED.formatted(KubeVirtValues.LAUNCHER_EVICTION_WEBHOOK, message);
    }

    private static PodPreview of(Pod pod, PodOutcome outcome, String reason) {
        return new PodPreview(pod.getMetadata().getNamespace(), pod.getMetadata().getName(), pod.getMetadata().getUid(),
                outcome, reason, EvictionAdmitter.vmiNameOf(pod).orElse(null), null, null);
    }

    static Optional<OwnerReference> controllerOf(ObjectMeta meta) {
        return meta.getOwnerReferences() == null ? Optional.empty()
                : meta.getOwnerReferences().stream().filter(ref -> Boolean.TRUE.equals(ref.getController())).findFirst();
    }

    private static Map<String, String> annotations(ObjectMeta meta) {
        return meta.getAnnotations() == null ? Map.of() : meta.getAnnotations();
    }

    static boolean isFinished(Pod pod) {
        return LauncherPodState.isFinished(pod);
    }

    private static boolean hasEmptyDir(Pod pod) {
        List<Volume> volumes = pod.getSpec() == null || pod.getSpec().getVolumes() == null ? List.of() : pod.getSpec().getVolumes();
        return volumes.stream().anyMatch(v -> v.getEmptyDir() != null);
    }

    private static String key(PodDisruptionBudget pdb) {
        return pdb.getMetadata().getNamespace() + "/" + pdb.getMetadata().getName();
    }
}
