package dev.drainboard.ops;

import dev.drainboard.history.RecordResult;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** A record of several nodes drained together ends as the worst of their ends. */
class DrainHistoryResultTest {

    @ParameterizedTest(name = "{0} → {1}")
    @CsvSource(delimiter = '|', value = {
            "DRAINED                   | Drained",
            "DRAINED+stranded          | Stranded",
            "DRAINED,DRAINED+stranded  | Stranded",
            "DRAINED,FAILED            | Failed",
            "FAILED,TIMED_OUT          | TimedOut",
            "TIMED_OUT,CANCELLED       | Cancelled",
            "DRAINED+stranded,FAILED   | Failed"})
    void worstEnd(String ends, RecordResult expected) {
        List<DrainResult> results = new ArrayList<>();
        for (String end : Arrays.asList(ends.split(","))) {
            boolean stranded = end.endsWith("+stranded");
            DrainResult.Status status = DrainResult.Status.valueOf(end.replace("+stranded", ""));
            results.add(new DrainResult("node0" + results.size(), status, "why", List.of(), stranded
                    ? List.of(new Blocker(Blocker.VMI, "demo", "w", "nowhere", Blocker.Cause.NOWHERE_TO_RUN)) : List.of()));
        }
        assertThat(DrainHistory.result(results)).isEqualTo(expected);
    }
}
