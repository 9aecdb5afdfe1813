package dev.drainboard.ui.common;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

class FormatsTest {

    @ParameterizedTest
    @CsvSource({
            "0, VMIs, 0 VMIs",
            "1, VMIs, 1 VMI",
            "2, VMIs, 2 VMIs",
            "1, replica sets, 1 replica set",
            "1, drain records, 1 drain record",
            "12, nodes, 12 nodes",
    })
    void aCountOfOneTakesTheSingular(long n, String noun, String expected) {
        assertThat(Formats.count(n, noun)).isEqualTo(expected);
    }
}
