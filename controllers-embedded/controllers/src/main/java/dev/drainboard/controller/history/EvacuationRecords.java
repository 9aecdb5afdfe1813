package dev.drainboard.controller.history;

import dev.drainboard.architecture.Pure;
import dev.drainboard.history.DrainRecordStatus;
import dev.drainboard.history.HistoryLimits;
import dev.drainboard.history.HistoryTimes;
import dev.drainboard.history.MigrationEntries;
import dev.drainboard.history.RecordResult;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceMigration;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/** What an evacuation record says, from the VMIs and migrations as the informers hold them. */
@Pure
public final class EvacuationRecords {

    private EvacuationRecords() {
    }

    /** Nodes with VMIs marked for evacuation ({@code status.evacuationNodeName}), and those VMIs' keys. */
    public static Map<String, Set<String>> markedByNode(Collection<VirtualMachineInstance> vmis) {
        Map<String, Set<String>> byNode = new TreeMap<>();
        for (VirtualMachineInstance vmi : vmis) {
            if (vmi.isMarkedForEviction()) {
                byNode.computeIfAbsent(vmi.getStatus().getEvacuationNodeName(), n -> new TreeSet<>()).add(vmi.key());
            }
        }
        return byNode;
    }

    /**
     * A migration of one of {@code vmis} belongs to the evacuation when it was created since {@code start} (creation
     * times have whole seconds) or is still under way: the loop sees a mark up to a tick (more on a loaded machine)
     * after it was set, and the evacuation's migration may be created in between; an earlier migration of the VMI
     * that has ended is not part of it.
     */
    public static boolean belongs(VirtualMachineInstanceMigration m, Set<String> vmis, Instant start) {
        String vmi = m.getMetadata().getNamespace() + "/" + (m.getSpec() == null ? "" : m.getSpec().getVmiName());
        return vmis.contains(vmi) && (!m.isFinal() || !HistoryTimes.parse(m.getMetadata().getCreationTimestamp())
                .isBefore(start.truncatedTo(ChronoUnit.SECONDS)));
    }

    /**
     * Whether the evacuation of a node has ended: no VMI is marked for it any more and every migration it followed has
     * ended too or is gone ({@code null}). The VMI controller clears the mark as the VMI switches over, which a cache
     * can show before the migration's final phase; ending then would record that migration as running for ever.
     */
    public static boolean ended(boolean stillMarked, java.util.List<VirtualMachineInstanceMigration> followed) {
        return !stillMarked && followed.stream().allMatch(m -> m == null || m.isFinal());
    }

    /**
     * How the evacuation ended once no VMI is marked for the node any more: Drained when every VMI it marked has
     * left the node (migrated or gone), Cancelled when one still runs there (its mark was cleared).
     */
    public static RecordResult end(String node, Set<String> marked, Map<String, VirtualMachineInstance> now) {
        for (String key : marked) {
            VirtualMachineInstance vmi = now.get(key);
            if (vmi != null && vmi.getStatus() != null && node.equals(vmi.getStatus().getNodeName())) {
                return RecordResult.Cancelled;
            }
        }
        return RecordResult.Drained;
    }

    /** One entry per VMI the evacuation marked: where it is now. */
    public static List<DrainRecordStatus.PodEntry> vmis(String node, Set<String> marked, Map<String, VirtualMachineInstance> now) {
        List<DrainRecordStatus.PodEntry> entries = new ArrayList<>();
        for (String key : marked) {
            VirtualMachineInstance vmi = now.get(key);
            String[] parts = key.split("/", 2);
            String state;
            if (vmi == null) {
                state = "GONE";
            } else if (vmi.isMarkedForEviction()) {
                state = "MARKED";
            } else if (vmi.getStatus() != null && !node.equals(vmi.getStatus().getNodeName())) {
                state = "MOVED";
            } else {
                state = "UNMARKED";
            }
            String where = vmi == null || vmi.getStatus() == null || vmi.getStatus().getNodeName() == null ? ""
                    : "on " + vmi.getStatus().getNodeName();
            entries.add(new DrainRecordStatus.PodEntry(parts[0], parts[1], node, parts[1], "EVACUATION", state, null,
                    HistoryLimits.cut(where)));
        }
        return entries;
    }

    /** The record's status. {@code end} null while the evacuation runs. */
    public static DrainRecordStatus status(String node, Instant start, Instant now, RecordResult end, Set<String> marked,
                                           Map<String, VirtualMachineInstance> vmis,
                                           Collection<DrainRecordStatus.MigrationEntry> migrations) {
        List<DrainRecordStatus.PodEntry> pods = vmis(node, marked, vmis);
        List<DrainRecordStatus.MigrationEntry> moved = List.copyOf(migrations);
        int omitted = Math.max(0, pods.size() - HistoryLimits.ENTRIES_PER_LIST) + Math.max(0, moved.size() - HistoryLimits.ENTRIES_PER_LIST);
        String message = end == null ? null : end == RecordResult.Drained
                ? marked.size() + " VMI(s) evacuated from node/" + node
                : "evacuation marks cleared with VMI(s) still on node/" + node;
        return new DrainRecordStatus(end == null ? RecordResult.Running : end, message, HistoryTimes.format(start),
                end == null ? null : HistoryTimes.format(now), Duration.between(start, now).toMillis() / 1000.0,
                pods.subList(0, Math.min(pods.size(), HistoryLimits.ENTRIES_PER_LIST)),
                moved.subList(0, Math.min(moved.size(), HistoryLimits.ENTRIES_PER_LIST)), List.of(),
                omitted == 0 ? null : omitted);
    }

    /** The migration as a record entry. */
    public static DrainRecordStatus.MigrationEntry entry(VirtualMachineInstanceMigration m) {
        return MigrationEntries.of(m);
    }
}
