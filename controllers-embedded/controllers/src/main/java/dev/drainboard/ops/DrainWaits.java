package dev.drainboard.ops;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.drainboard.controller.disruptionbudget.DisruptionBudgetDecision;
import dev.drainboard.controller.disruptionbudget.DisruptionBudgets;
import dev.drainboard.controller.migration.MigrationSlots;
import dev.drainboard.controller.migration.MigrationTimings;
import dev.drainboard.handler.MigrationSync;
import dev.drainboard.handler.NodeHandler;
import dev.drainboard.kubevirt.DrainboardAnnotations;
import dev.drainboard.kubevirt.KubeVirtLabels;
import dev.drainboard.kubevirt.api.EvictionStrategy;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceMigration;
import dev.drainboard.kubevirt.config.ClusterConfig;
import dev.drainboard.runtime.Keys;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;

import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * A running drain's migrations as they stand: why each VMI that has not started moving waits
 * ({@link WhyPendingDecision}), and how long the migrations still take ({@link TimeLeftDecision}). One read of the
 * cluster per call; the drain's live displays ask it every few seconds.
 *
 * @param why         per VMI ({@code namespace/name}) that waits for its migration to start
 * @param secondsLeft until the last live migration of the drained nodes ends
 */
public record DrainWaits(Map<String, WhyPendingDecision.Why> why, double secondsLeft) {

    private static final ObjectMapper JSON = new ObjectMapper();

    public DrainWaits {
        why = Map.copyOf(why);
    }

    public static final DrainWaits NONE = new DrainWaits(Map.of(), 0);

    public Optional<WhyPendingDecision.Why> of(String namespace, String vmi) {
        return Optional.ofNullable(why.get(Keys.of(namespace, vmi)));
    }

    /** Reads the cluster and works out where the VMIs the previews live-migrate stand. */
    static DrainWaits read(KubernetesClient client, Collection<DrainPreview> previews) {
        Set<String> drained = new HashSet<>();
        Set<String> migrating = new HashSet<>();
        for (DrainPreview p : previews) {
            drained.add(p.node());
            for (PodPreview pod : p.pods()) {
                if (pod.outcome() == PodOutcome.LIVE_MIGRATION && pod.vmi() != null) {
                    migrating.add(Keys.of(pod.namespace(), pod.vmi()));
                }
            }
        }
        if (migrating.isEmpty()) {
            return NONE;
        }
        try {
            List<VirtualMachineInstanceMigration> vmims = client.resources(VirtualMachineInstanceMigration.class).inAnyNamespace().list().getItems();
            List<VirtualMachineInstance> vmis = client.resources(VirtualMachineInstance.class).inAnyNamespace().list().getItems();
            List<Pod> launchers = client.pods().inAnyNamespace().withLabel(KubeVirtLabels.APP, KubeVirtLabels.APP_VIRT_LAUNCHER).list().getItems();
            List<PodDisruptionBudget> budgets = client.policy().v1().podDisruptionBudget().inAnyNamespace().list().getItems();
            List<Node> nodes = client.nodes().list().getItems();
            return decide(drained, migrating, vmims, vmis, launchers, budgets, nodes, ClusterReads.clusterConfig(client), Instant.now());
        } catch (KubernetesClientException e) {
            throw OpsException.from("reading the drain's migrations", e);
        }
    }

    /** The same, from what was read (the console passes its caches). */
    public static DrainWaits decide(Set<String> drainedNodes, Set<String> migratingVmis, List<VirtualMachineInstanceMigration> vmims,
                                    List<VirtualMachineInstance> vmis, List<Pod> launchers, List<PodDisruptionBudget> budgets,
                                    List<Node> nodes, ClusterConfig config, Instant now) {
        Map<String, VirtualMachineInstance> vmiByKey = new HashMap<>();
        Map<String, String> vmiNodes = new HashMap<>();
        for (VirtualMachineInstance v : vmis) {
            vmiByKey.put(Keys.of(v), v);
            if (v.getStatus() != null && v.getStatus().getNodeName() != null) {
                vmiNodes.put(Keys.of(v), v.getStatus().getNodeName());
            }
        }
        Map<String, Pod> targetByVmimUid = new HashMap<>();
        for (Pod p : launchers) {
            String uid = p.getMetadata().getLabels() == null ? null : p.getMetadata().getLabels().get(KubeVirtLabels.MIGRATION_JOB_UID);
            if (uid != null) {
                targetByVmimUid.merge(uid, p, (a, b) -> Objects.requireNonNullElse(a.getMetadata().getCreationTimestamp(), "")
                        .compareTo(Objects.requireNonNullElse(b.getMetadata().getCreationTimestamp(), "")) >= 0 ? a : b);
            }
        }
        Map<String, VirtualMachineInstanceMigration> unfinishedByVmi = new HashMap<>();
        for (VirtualMachineInstanceMigration m : vmims) {
            if (!m.isFinal() && m.getSpec() != null && m.getSpec().getVmiName() != null) {
                unfinishedByVmi.merge(WhyPendingDecision.vmiKey(m), m, (a, b) -> Objects.requireNonNullElse(a.getMetadata().getCreationTimestamp(), "")
                        .compareTo(Objects.requireNonNullElse(b.getMetadata().getCreationTimestamp(), "")) >= 0 ? a : b);
            }
        }
        Map<String, Map<String, String>> nodeAnnotations = new HashMap<>();
        nodes.forEach(n -> nodeAnnotations.put(n.getMetadata().getName(),
                n.getMetadata().getAnnotations() == null ? Map.of() : n.getMetadata().getAnnotations()));
        WhyPendingDecision.Cluster cluster = new WhyPendingDecision.Cluster(vmims, vmiNodes, targetByVmimUid.keySet(),
                config.migrations(), MigrationTimings.defaults().scaledBy(config.timeScale()).backoff(), now);

        Map<String, WhyPendingDecision.Why> why = new LinkedHashMap<>();
        List<TimeLeftDecision.Move> moves = new ArrayList<>();
        List<String> keys = new ArrayList<>(migratingVmis);
        keys.sort(Comparator.naturalOrder());
        for (String key : keys) {
            VirtualMachineInstance vmi = vmiByKey.get(key);
            VirtualMachineInstanceMigration vmim = unfinishedByVmi.get(key);
            if (vmi == null || vmi.isFinal()) {
                continue;
            }
            String node = vmiNodes.get(key);
            if (vmim == null && (node == null || !drainedNodes.contains(node))) {
                continue; // moved away already
            }
            if (config.evictionStrategyFor(vmi) == EvictionStrategy.EXTERNAL) {
                continue; // nothing in KubeVirt migrates it
            }
            long memory = NodeHandler.definitionOf(vmi).memoryBytes();
            long bandwidth = MigrationSync.options(config.migrations(), nodeAnnotations.getOrDefault(node, Map.of()),
                    vmi.getMetadata().getAnnotations() == null ? Map.of() : vmi.getMetadata().getAnnotations(), memory)
                    .bandwidthBytesPerSecond();
            String sourceNode = node == null ? "" : node;
            if (vmim == null) {
                if (vmi.isMarkedForEviction()) {
                    why.put(key, WhyPendingDecision.forMarkedVmi(vmi, cluster));
                }
                moves.add(new TimeLeftDecision.Move(sourceNode, false, -1, 0, memory, bandwidth));
                continue;
            }
            Pod target = targetByVmimUid.get(vmim.getMetadata().getUid());
            PodDisruptionBudget budget = budgets.stream()
                    .filter(b -> b.getMetadata().getDeletionTimestamp() == null
                            && b.getMetadata().getNamespace().equals(vmi.getMetadata().getNamespace()))
                    .filter(b -> DisruptionBudgets.controllingVmi(b).map(ref -> Objects.equals(ref.getUid(), vmi.getMetadata().getUid())).orElse(false))
                    .findFirst().orElse(null);
            WhyPendingDecision.forMigration(vmim, vmi, target, budget, DisruptionBudgetDecision.needsBudget(vmi, config), cluster)
                    .ifPresent(w -> why.put(key, w));
            boolean started = MigrationSlots.standing(vmim, cluster::targetPodCreated) == MigrationSlots.Standing.STARTED;
            long[] progress = progress(vmim);
            moves.add(new TimeLeftDecision.Move(sourceNode, started, progress[0], progress[1], memory, bandwidth));
        }
        return new DrainWaits(why, TimeLeftDecision.secondsLeft(moves, MigrationSlots.Limits.of(config.migrations())));
    }

    /** {remaining bytes, bytes per second} from the source node's last report; {-1, 0} when none. */
    static long[] progress(VirtualMachineInstanceMigration vmim) {
        Map<String, String> annotations = vmim.getMetadata().getAnnotations();
        String json = annotations == null ? null : annotations.get(DrainboardAnnotations.MIGRATION_PROGRESS);
        if (json == null || json.isBlank()) {
            return new long[]{-1, 0};
        }
        try {
            JsonNode n = JSON.readTree(json);
            if (n == null || !n.has("remainingBytes")) {
                return new long[]{-1, 0};
            }
            return new long[]{n.path("remainingBytes").asLong(0), n.path("bytesPerSecond").asLong(0)};
        } catch (IOException e) {
            return new long[]{-1, 0};
        }
    }
}
