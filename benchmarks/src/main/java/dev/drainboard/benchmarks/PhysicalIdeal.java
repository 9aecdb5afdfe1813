package dev.drainboard.benchmarks;

import dev.drainboard.kubevirt.KubeVirtValues;
import dev.drainboard.hypervisor.MigrationOptions;
import dev.drainboard.handler.MigrationSync;
import dev.drainboard.ops.DrainEstimate;
import dev.drainboard.handler.NodeHandler;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.kubevirt.api.KubeVirt;
import dev.drainboard.kubevirt.config.ClusterConfig;
import dev.drainboard.kubevirt.config.InvalidClusterConfigException;
import dev.drainboard.kubevirt.config.MigrationConfig;
import io.fabric8.kubernetes.client.KubernetesClient;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The physical ideal of a drain: the time the simulated links need to move every VMI's memory, with the migration
 * slots always busy — the sum over the VMIs of one transfer each, divided by the slots (for n equal VMIs:
 * {@code n × transfer / slots}). Nothing of the control plane's own work counts (VMIM, target pod, hand-off), so a
 * drain can only come close to it, never under it; the ideal from observed migrations, {@code ceil(n / slots) ×} the
 * mean observed migration, counts that work as if it were the link's.
 *
 * <p>A transfer is the simulated hypervisor's pre-copy model (see {@code SimulatedHypervisor}'s class comment), taken
 * continuously instead of in ticks, as the drain estimate takes it ({@link DrainEstimate#preCopySeconds}): the first pass sends the guest memory M at the bandwidth B while the guest dirties
 * D per second; each next pass sends what the previous one left dirty; the transfer ends once what is left fits in
 * the allowed downtime (the switch-over itself takes no time in the simulation). With D = 0 that is M / B. B, D and
 * the downtime come from {@link MigrationSync#options}, the same resolution the node handler uses (the source node's
 * {@code sim.drainboard.dev/link-speed}, else {@link MigrationSync#DEFAULT_LINK_BYTES_PER_SECOND}, unless
 * {@code bandwidthPerMigration} caps it; the VMI's {@code sim.drainboard.dev/memory-dirty-rate}), M from
 * {@link NodeHandler#definitionOf}. Assists (auto-converge, post-copy, pausing) are not modelled: a guest that never
 * converges by itself has no physical ideal (infinite).
 */
final class PhysicalIdeal {

    private static final long MIB = 1L << 20;
    private static final long GIB = 1L << 30;

    /** One VMI's migration over its source node's link. */
    record Transfer(long memoryBytes, long bandwidthBytesPerSecond, long dirtyRateBytesPerSecond, double seconds) {
    }

    private final List<Transfer> transfers;
    private final int slots;

    private PhysicalIdeal(List<Transfer> transfers, int slots) {
        if (slots < 1) {
            throw new IllegalArgumentException("slots must be at least 1, got " + slots);
        }
        this.transfers = List.copyOf(transfers);
        this.slots = slots;
    }

    /** The ideal of migrating these VMIs through {@code slots} migrations at a time. */
    static PhysicalIdeal of(List<Transfer> transfers, int slots) {
        return new PhysicalIdeal(transfers, slots);
    }

    /**
     * The ideal of draining {@code drainedNodes} as the cluster holds them now: the VMIs of {@code namespace} on those
     * nodes, the KubeVirt CR's migration configuration (its defaults without one), each source node's annotations.
     */
    static PhysicalIdeal of(KubernetesClient client, String namespace, List<String> drainedNodes) throws InvalidClusterConfigException {
        Optional<KubeVirt> kubeVirt = ClusterConfig.select(client.resources(KubeVirt.class).inAnyNamespace().list().getItems(),
                KubeVirtValues.DEFAULT_INSTALL_NAMESPACE);
        MigrationConfig config = (kubeVirt.isPresent() ? ClusterConfig.from(kubeVirt.get()) : ClusterConfig.defaults()).migrations();
        List<Transfer> transfers = new ArrayList<>();
        for (VirtualMachineInstance vmi : client.resources(VirtualMachineInstance.class).inNamespace(namespace).list().getItems()) {
            String node = vmi.getStatus() == null ? null : vmi.getStatus().getNodeName();
            if (drainedNodes.contains(node)) {
                Map<String, String> annotations = client.nodes().withName(node).get().getMetadata().getAnnotations();
                transfers.add(transfer(config, annotations == null ? Map.of() : annotations, vmi));
            }
        }
        return of(transfers, slots(config, drainedNodes.size()));
    }

    /**
     * The migrations that can run at once while {@code drainedNodes} nodes are drained: each node's outbound limit,
     * together never more than the cluster's ({@code parallelOutboundMigrationsPerNode},
     * {@code parallelMigrationsPerCluster}).
     */
    static int slots(MigrationConfig config, int drainedNodes) {
        return Math.min(config.parallelMigrationsPerCluster(), config.parallelOutboundMigrationsPerNode() * drainedNodes);
    }

    /** How the node handler would move this VMI off a node with these annotations, under this migration configuration. */
    static Transfer transfer(MigrationConfig config, Map<String, String> sourceNodeAnnotations, VirtualMachineInstance vmi) {
        long memory = NodeHandler.definitionOf(vmi).memoryBytes();
        return transfer(MigrationSync.options(config, sourceNodeAnnotations, vmi.getMetadata().getAnnotations(), memory), memory);
    }

    static Transfer transfer(MigrationOptions options, long memoryBytes) {
        return new Transfer(memoryBytes, options.bandwidthBytesPerSecond(), options.dirtyRateBytesPerSecond(),
                DrainEstimate.preCopySeconds(memoryBytes, options.bandwidthBytesPerSecond(), options.dirtyRateBytesPerSecond(), options.maxDowntime()));
    }

    /** The sum of the transfers over the slots. */
    double seconds() {
        return transfers.stream().mapToDouble(Transfer::seconds).sum() / slots;
    }

    int slots() {
        return slots;
    }

    int vmis() {
        return transfers.size();
    }

    /**
     * The denominator spelled out, e.g. {@code 40 × (1 GiB at 512 MiB/s, dirty 0 MiB/s: 2.00 s) = 80.00 s of transfer
     * / 2 slots = 40.00 s}.
     */
    String describe() {
        Map<String, List<Transfer>> alike = new LinkedHashMap<>();
        for (Transfer t : transfers) {
            String key = String.format(Locale.ROOT, "%s at %s/s, dirty %s/s: %s", size(t.memoryBytes()), size(t.bandwidthBytesPerSecond()),
                    size(t.dirtyRateBytesPerSecond()), Double.isInfinite(t.seconds()) ? "never converges"
                            : String.format(Locale.ROOT, "%.2f s", t.seconds()));
            alike.computeIfAbsent(key, k -> new ArrayList<>()).add(t);
        }
        List<String> groups = new ArrayList<>();
        alike.forEach((key, list) -> groups.add(list.size() + " × (" + key + ")"));
        double sum = transfers.stream().mapToDouble(Transfer::seconds).sum();
        return String.format(Locale.ROOT, "%s = %.2f s of transfer / %d slots = %.2f s",
                groups.isEmpty() ? "no VMIs" : String.join(" + ", groups), sum, slots, seconds());
    }

    private static String size(long bytes) {
        if (bytes != 0 && bytes % GIB == 0) {
            return bytes / GIB + " GiB";
        }
        if (bytes % MIB == 0) {
            return bytes / MIB + " MiB";
        }
        return String.format(Locale.ROOT, "%.1f MiB", bytes / (double) MIB);
    }
}
