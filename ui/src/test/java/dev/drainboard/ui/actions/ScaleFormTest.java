package dev.drainboard.ui.actions;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ScaleFormTest {

    @ParameterizedTest(name = "[{index}] ''{0}'' (now {1}) -> {2}")
    @CsvSource(delimiter = '|', nullValues = "null", textBlock = """
            5           | 3 | 5
            ' 7 '       | 3 | 7
            +4          | 3 | 4
            007         | 3 | 7
            0           | 3 | 0
            -0          | 3 | 0
            3           | 3 | 3
            2147483647  | 3 | 2147483647
            """)
    void acceptsWholeNumbersFromZero(String text, int current, int replicas) {
        ScaleForm form = new ScaleForm(text, current);
        assertThat(form.error()).isEmpty();
        assertThat(form.valid()).isTrue();
        assertThat(form.replicas()).isEqualTo(replicas);
    }

    @ParameterizedTest(name = "[{index}] ''{0}'' refused: {1}")
    @CsvSource(delimiter = '|', nullValues = "null", textBlock = """
            -1          | Replicas must be 0 or more; got -1
            -25         | Replicas must be 0 or more; got -25
            2.5         | Replicas must be a whole number; got 2.5
            '3,0'       | Replicas must be a whole number; got 3,0
            abc         | Replicas must be a whole number, 0 or more; got 'abc'
            1e3         | Replicas must be a whole number, 0 or more; got '1e3'
            ''          | Enter the number of replicas (0 or more)
            null        | Enter the number of replicas (0 or more)
            '   '       | Enter the number of replicas (0 or more)
            2147483648  | Replicas must be at most 2147483647; got 2147483648
            99999999999999999999 | Replicas must be at most 2147483647; got 99999999999999999999
            """)
    void refusesWhatTheApiWouldRefuseOrCannotHold(String text, String error) {
        ScaleForm form = new ScaleForm(text, 3);
        assertThat(form.valid()).isFalse();
        assertThat(form.error()).contains(error);
        assertThat(form.effect()).isEmpty();
        assertThatThrownBy(form::replicas).isInstanceOf(IllegalStateException.class).hasMessage(error);
    }

    @ParameterizedTest(name = "[{index}] {1} -> {0}")
    @CsvSource(delimiter = '|', textBlock = """
            5 | 3 | 2 more VMIs will be created from the template.
            4 | 3 | 1 more VMI will be created from the template.
            2 | 3 | 1 VMI will be deleted: not-ready ones first, then migrating, then ready.
            0 | 3 | 3 VMIs will be deleted: not-ready ones first, then migrating, then ready (all of them).
            3 | 3 | No change: the set already wants 3 replicas.
            1 | 1 | No change: the set already wants 1 replica.
            """)
    void saysWhatTheControllerWillDo(String text, int current, String effect) {
        assertThat(new ScaleForm(text, current).effect()).isEqualTo(effect);
    }
}
