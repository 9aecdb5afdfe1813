package dev.drainboard.cluster.apiserver.protobuf;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Expected strings are what Go's time.Duration.String prints for the same nanoseconds. */
class GoDurationTest {

    @ParameterizedTest
    @CsvSource({
        "0, 0s",
        "1, 1ns",
        "1100, 1.1µs",
        "2200000, 2.2ms",
        "1500000000, 1.5s",
        "60000000000, 1m0s",
        "3600000000000, 1h0m0s",
        "4530918273645, 1h15m30.918273645s",
        "-1500000000, -1.5s",
        "9223372036854775807, 2562047h47m16.854775807s",
        "-9223372036854775808, -2562047h47m16.854775808s"
    })
    void formatsLikeGo(long nanoseconds, String expected) {
        assertThat(GoDuration.format(nanoseconds)).isEqualTo(expected);
    }
}
