package dev.drainboard.units;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class QuantitiesTest {

    @ParameterizedTest(name = "{0} is {1} milli")
    @CsvSource({
            "100m, 100",
            "2, 2000",
            "0.5, 500",
            "1.5, 1500",
            "1e3, 1000000",
            "1k, 1000000",
            "0.5m, 1",       // rounded up, as Kubernetes' MilliValue
            "+3, 3000",
            ".5, 500",
            "250u, 1",
    })
    void cpu(String text, long milli) {
        assertThat(Quantities.milli(text)).isEqualTo(milli);
    }

    @ParameterizedTest(name = "{0} is {1} bytes")
    @CsvSource({
            "1Gi, 1073741824",
            "512Mi, 536870912",
            "64Ki, 65536",
            "1G, 1000000000",
            "128M, 128000000",
            "2, 2",
            "1e3, 1000",
            "1E6, 1000000",
            "1.5Gi, 1610612736",
            "110, 110",
            "65536Mi, 68719476736",
            "1Ti, 1099511627776",
            "1e-3, 1",       // whole units round up
    })
    void memoryAndCounts(String text, long whole) {
        assertThat(Quantities.whole(text)).isEqualTo(whole);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "Gi", "1 Gi", "1GB", "1x", "abc", "1e", "--1", "1.2.3"})
    void rejectsWhatIsNotAQuantity(String text) {
        assertThatThrownBy(() -> Quantities.parse(text)).isInstanceOf(IllegalArgumentException.class);
    }
}
