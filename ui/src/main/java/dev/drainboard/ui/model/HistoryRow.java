package dev.drainboard.ui.model;

import dev.drainboard.history.DrainRecord;
import dev.drainboard.history.DrainRecordSpec;
import dev.drainboard.history.DrainRecordStatus;
import dev.drainboard.history.HistoryDocuments;
import dev.drainboard.history.RecordResult;

import java.time.Instant;
import java.util.List;

/**
 * One drain record as the History view shows it, with its exports already rendered ({@link HistoryDocuments}): the
 * view never sees the API object.
 *
 * @param kind             Drain, Evacuation or MigrationCancel
 * @param result           Running, Drained, Stranded, Failed, TimedOut or Cancelled
 * @param durationSeconds  null when not known
 * @param estimateSeconds  what the preview expected; null when there was none
 * @param json             the record as its API object
 * @param markdown         the record as a change-record document
 */
public record HistoryRow(String name, String kind, List<String> nodes, String result, Instant started,
                         Double durationSeconds, Double estimateSeconds, String startedBy, String message,
                         List<DrainRecordStatus.PodEntry> pods, List<DrainRecordStatus.MigrationEntry> migrations,
                         List<DrainRecordStatus.StrandedEntry> stranded, String title, String json, String markdown)
        implements Row {

    public HistoryRow {
        nodes = List.copyOf(nodes);
        pods = List.copyOf(pods);
        migrations = List.copyOf(migrations);
        stranded = List.copyOf(stranded);
    }

    public static HistoryRow of(DrainRecord record) {
        DrainRecordSpec spec = record.getSpec() != null ? record.getSpec() : new DrainRecordSpec(null, List.of(), null, null);
        DrainRecordStatus status = record.getStatus() != null ? record.getStatus()
                : new DrainRecordStatus(null, null, null, null, null, null, null, null, null);
        return new HistoryRow(record.name(), spec.kind() == null ? "" : spec.kind().name(), spec.nodes(),
                HistoryDocuments.result(status), record.startedAt(), status.durationSeconds(), spec.estimateSeconds(),
                spec.startedBy() == null ? "" : spec.startedBy(), status.message() == null ? "" : status.message(),
                status.pods(), status.migrations(), status.stranded(), HistoryDocuments.title(record),
                HistoryDocuments.json(record), HistoryDocuments.markdown(record));
    }

    public boolean running() {
        return RecordResult.Running.name().equals(result);
    }

    /** Ended badly: failed, timed out, or something left with nowhere to run. */
    public boolean troubled() {
        return List.of(RecordResult.Failed.name(), RecordResult.TimedOut.name(), RecordResult.Stranded.name()).contains(result);
    }

    @Override
    public ObjectRef ref() {
        return new ObjectRef(ObjectRef.Kind.DRAIN_RECORD, "", name);
    }

    @Override
    public String searchText() {
        return String.join(" ", name, kind, String.join(" ", nodes), result, startedBy, message);
    }
}
