package dev.drainboard.ui.actions;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

class TaintFormTest {

    @ParameterizedTest(name = "[{index}] {0}={1}:{2} valid={3}")
    @CsvSource(delimiter = '|', nullValues = "null", textBlock = """
            example.com/maintenance | window-1 | NoSchedule       | true  | example.com/maintenance=window-1:NoSchedule
            kubevirt.io/drain       |          | NoSchedule       | true  | kubevirt.io/drain:NoSchedule
            dedicated               | gpu      | NoExecute        | true  | dedicated=gpu:NoExecute
            dedicated               |          | PreferNoSchedule | true  | dedicated:PreferNoSchedule
            bad key!                |          | NoSchedule       | false | bad key!:NoSchedule
            /missing-prefix         |          | NoSchedule       | false | /missing-prefix:NoSchedule
            Example.COM/x           |          | NoSchedule       | false | Example.COM/x:NoSchedule
            ok                      | -bad-    | NoSchedule       | false | ok=-bad-:NoSchedule
            ok                      |          | Sometimes        | false | ok:Sometimes
            ''                      |          | NoSchedule       | false | :NoSchedule
            """)
    void validatesAsTheApiServerDoes(String key, String value, String effect, boolean valid, String spec) {
        TaintForm form = new TaintForm(key, value, effect);
        assertThat(form.valid()).isEqualTo(valid);
        assertThat(form.spec()).isEqualTo(spec);
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(delimiter = '|', textBlock = """
            bad key!        | name part must consist of alphanumeric characters
            /missing-prefix | prefix part must be non-empty
            Example.COM/x   | prefix part a lowercase RFC 1123 subdomain
            """)
    void keyErrorsUseKubernetesWording(String key, String expected) {
        assertThat(String.join("; ", new TaintForm(key, "", "NoSchedule").keyErrors())).contains(expected);
    }

    @ParameterizedTest(name = "[{index}] {0} -> {1}")
    @CsvSource(delimiter = '|', textBlock = """
            kubevirt.io/drain:NoSchedule                | kubevirt.io/drain:NoSchedule-
            example.com/maintenance=window-1:NoSchedule | example.com/maintenance:NoSchedule-
            dedicated=gpu:NoExecute                     | dedicated:NoExecute-
            """)
    void removalNamesKeyAndEffect(String listed, String removal) {
        assertThat(TaintForm.removal(listed)).isEqualTo(removal);
    }
}
