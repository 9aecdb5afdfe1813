package dev.drainboard.ui.overview;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

class StrandedHeaderTest {

    @ParameterizedTest(name = "{0} VMIs, {1} pods: {2}")
    @CsvSource(delimiter = '|', textBlock = """
            1 | 0 | 1 VMI has nowhere to run
            3 | 0 | 3 VMIs have nowhere to run
            0 | 1 | 1 pod has nowhere to run
            0 | 2 | 2 pods have nowhere to run
            1 | 1 | 1 VMI and 1 pod have nowhere to run
            2 | 5 | 2 VMIs and 5 pods have nowhere to run
            """)
    void saysWhatHasNowhereToRun(int vmis, int pods, String header) {
        assertThat(OverviewView.strandedHeader(vmis, pods)).isEqualTo(header);
    }
}
