package dev.drainboard.cluster.apiserver.table;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

class HumanDurationTest {

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({
            "-PT5S, <invalid>",
            "-PT1.5S, 0s",
            "-PT1S, 0s",
            "PT0S, 0s",
            "PT0.9S, 0s",
            "PT5S, 5s",
            "PT119S, 119s",
            "PT2M, 2m",
            "PT2M3S, 2m3s",
            "PT9M59S, 9m59s",
            "PT10M, 10m",
            "PT10M30S, 10m",
            "PT179M, 179m",
            "PT3H, 3h",
            "PT3H4M, 3h4m",
            "PT7H59M, 7h59m",
            "PT8H, 8h",
            "PT47H59M, 47h",
            "PT48H, 2d",
            "PT53H, 2d5h",
            "PT191H, 7d23h",
            "PT192H, 8d",
            "P729D, 729d",
            "P730D, 2y",
            "P760D, 2y30d",
            "P2919D, 7y364d",
            "P2920D, 8y",
            "P4000D, 10y",
    })
    void formatsLikeKubernetes(Duration duration, String expected) {
        assertThat(HumanDuration.format(duration)).isEqualTo(expected);
    }
}
