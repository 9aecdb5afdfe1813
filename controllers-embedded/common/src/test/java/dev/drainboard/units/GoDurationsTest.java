package dev.drainboard.units;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;

/** Expected strings are what Go's time.Duration.String prints and time.ParseDuration reads for the same nanoseconds. */
class GoDurationsTest {

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
        assertThat(GoDurations.format(nanoseconds)).isEqualTo(expected);
    }

    @ParameterizedTest
    @CsvSource({
        "0, 0",
        "0s, 0",
        "10ns, 10",
        "250us, 250000",
        "250µs, 250000",
        "500ms, 500000000",
        "1.5s, 1500000000",
        "1m0s, 60000000000",
        "1h2m3s, 3723000000000",
        "' 2s ', 2000000000"
    })
    void parsesLikeGo(String text, long nanoseconds) {
        assertThat(GoDurations.parse(text)).isEqualTo(Duration.ofNanos(nanoseconds));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "5", "soon", "5 m", "1x", "s", "1h-2m"})
    void refusesWhatIsNotADuration(String text) {
        assertThatThrownBy(() -> GoDurations.parse(text)).isInstanceOf(IllegalArgumentException.class);
    }
}
