package dev.drainboard.history;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.drainboard.kubevirt.DrainboardAnnotations;
import dev.drainboard.kubevirt.api.MigrationState;
import dev.drainboard.kubevirt.api.PhaseTransitionTimestamp;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceMigration;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceMigrationStatus;

import java.io.IOException;
import java.util.Map;

/** A VMIM as a history entry: what a record keeps of a migration after KubeVirt has garbage-collected it. */
public final class MigrationEntries {

    private static final ObjectMapper JSON = new ObjectMapper();

    private MigrationEntries() {
    }

    /** The migration as it is now. */
    public static DrainRecordStatus.MigrationEntry of(VirtualMachineInstanceMigration vmim) {
        VirtualMachineInstanceMigrationStatus status = vmim.getStatus();
        MigrationState state = status == null ? null : status.getMigrationState();
        String phase = status == null || status.getPhase() == null ? "Pending" : status.getPhase();
        String started = state != null && state.getStartTimestamp() != null ? state.getStartTimestamp()
                : vmim.getMetadata().getCreationTimestamp();
        String ended = state == null ? null : state.getEndTimestamp();
        if (ended == null && vmim.isFinal()) {
            ended = transition(status, phase);
        }
        String reason = state == null ? null : state.getFailureReason();
        return new DrainRecordStatus.MigrationEntry(vmim.getMetadata().getNamespace(), vmim.getMetadata().getName(),
                vmim.getSpec() == null ? null : vmim.getSpec().getVmiName(),
                state == null ? null : state.getSourceNode(), state == null ? null : state.getTargetNode(),
                phase, started, ended, bytes(vmim), HistoryLimits.cut(reason));
    }

    /** The migration deleted before it finished: cancelled, at {@code when}, for {@code why}. */
    public static DrainRecordStatus.MigrationEntry cancelled(DrainRecordStatus.MigrationEntry last, String when, String why) {
        return new DrainRecordStatus.MigrationEntry(last.namespace(), last.name(), last.vmi(), last.sourceNode(),
                last.targetNode(), "Cancelled", last.startedAt(), when, last.bytes(), HistoryLimits.cut(why));
    }

    private static String transition(VirtualMachineInstanceMigrationStatus status, String phase) {
        if (status.getPhaseTransitionTimestamps() == null) {
            return null;
        }
        return status.getPhaseTransitionTimestamps().stream().filter(t -> phase.equals(t.getPhase()))
                .map(PhaseTransitionTimestamp::getPhaseTransitionTimestamp).reduce((a, b) -> b).orElse(null);
    }

    /** {@code processedBytes} of the source node's progress annotation; null when it never reported. */
    private static Long bytes(VirtualMachineInstanceMigration vmim) {
        Map<String, String> annotations = vmim.getMetadata().getAnnotations();
        String json = annotations == null ? null : annotations.get(DrainboardAnnotations.MIGRATION_PROGRESS);
        if (json == null) {
            return null;
        }
        try {
            JsonNode processed = JSON.readTree(json).path("processedBytes");
            return processed.canConvertToLong() ? processed.asLong() : null;
        } catch (IOException e) {
            return null;
        }
    }
}
