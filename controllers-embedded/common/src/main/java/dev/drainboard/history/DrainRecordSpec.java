package dev.drainboard.history;

import com.fasterxml.jackson.annotation.JsonInclude;

import java.util.List;

/**
 * What was started, by whom, and what it was expected to take.
 *
 * @param startedBy       {@code user@host} of the Drainboard that started it, or {@code evacuation} when the
 *                        controllers saw a node's VMIs marked by someone else
 * @param estimateSeconds the preview's estimate when it started ({@code DrainEstimate}), null when there was none
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record DrainRecordSpec(RecordKind kind, List<String> nodes, String startedBy, Double estimateSeconds) {

    public DrainRecordSpec {
        nodes = nodes == null ? List.of() : List.copyOf(nodes);
    }
}
