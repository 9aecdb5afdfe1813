package dev.drainboard.history;

import com.fasterxml.jackson.annotation.JsonInclude;

import java.util.List;

/**
 * How it went, so far or in the end. Lists are bounded ({@link HistoryLimits}); {@code omitted} counts what was left
 * out to keep the object small.
 *
 * @param startedAt       RFC 3339, as Kubernetes writes times
 * @param endedAt         null while running
 * @param durationSeconds from start to end (to the last update while running)
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record DrainRecordStatus(RecordResult result, String message, String startedAt, String endedAt,
                                Double durationSeconds, List<PodEntry> pods, List<MigrationEntry> migrations,
                                List<StrandedEntry> stranded, Integer omitted) {

    public DrainRecordStatus {
        pods = pods == null ? List.of() : List.copyOf(pods);
        migrations = migrations == null ? List.of() : List.copyOf(migrations);
        stranded = stranded == null ? List.of() : List.copyOf(stranded);
    }

    /**
     * One pod the drain evicted.
     *
     * @param outcome what the preview said would happen ({@code LIVE_MIGRATION}, {@code EVICTED}, …)
     * @param state   where its eviction ended ({@code GONE}, {@code BLOCKED_BY_PDB}, …)
     * @param message the API server's last answer, or the preview's reason
     */
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    public record PodEntry(String namespace, String name, String node, String vmi, String outcome, String state,
                           Integer attempts, String message) {
    }

    /**
     * One migration it caused (or the one cancelled).
     *
     * @param phase  KubeVirt's phase, or {@code Cancelled} for one deleted before it finished
     * @param bytes  data moved, from the source node's progress annotation; null when never reported
     * @param reason why it failed or was cancelled
     */
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    public record MigrationEntry(String namespace, String name, String vmi, String sourceNode, String targetNode,
                                 String phase, String startedAt, String endedAt, Long bytes, String reason) {

        public boolean cancelled() {
            return "Cancelled".equals(phase);
        }

        public boolean failed() {
            return "Failed".equals(phase);
        }
    }

    /** What was left with nowhere to run, or lost. */
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    public record StrandedEntry(String kind, String namespace, String name, String reason) {
    }
}
