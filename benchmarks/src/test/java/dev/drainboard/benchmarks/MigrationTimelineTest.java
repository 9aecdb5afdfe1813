package dev.drainboard.benchmarks;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** How busy the migration slots were, from the migrations' start and end times (in seconds here). */
class MigrationTimelineTest {

    @ParameterizedTest(name = "{0} with {1} slots: busy {2}, at most {3} in flight")
    @CsvSource(delimiter = '|', textBlock = """
            0-2 2-4                 | 1 | 1.0  | 1
            0-2 0-2 2-4 2-4         | 2 | 1.0  | 2
            0-2 2-4                 | 2 | 0.5  | 1
            0-2 3-5                 | 1 | 0.8  | 1
            0-4 1-2 1-3             | 5 | 0.35 | 3
            0-2                     | 5 | 0.2  | 1
            """)
    void busyShareAndMostInFlight(String intervals, int slots, double busy, int most) {
        List<MigrationTimeline.Interval> ended = new ArrayList<>();
        for (String interval : intervals.trim().split("\\s+")) {
            String[] ends = interval.split("-");
            ended.add(new MigrationTimeline.Interval("m" + ended.size(), seconds(ends[0]), seconds(ends[1]), true));
        }
        assertThat(MigrationTimeline.busyShare(ended, slots)).isCloseTo(busy, within(1e-9));
        assertThat(MigrationTimeline.mostInFlight(ended)).isEqualTo(most);
    }

    private static long seconds(String value) {
        return Long.parseLong(value) * 1_000_000_000L;
    }
}
