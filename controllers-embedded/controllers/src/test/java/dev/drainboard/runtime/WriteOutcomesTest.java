package dev.drainboard.runtime;

import io.fabric8.kubernetes.client.KubernetesClientException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

class WriteOutcomesTest {

    @ParameterizedTest(name = "HTTP {0} -> may have been written: {1}")
    @CsvSource({
            "504, true",   // kube-apiserver's timeout: the write may be done
            "0,   true",   // no answer (connection reset, client timeout)
            "500, false",
            "409, false",
            "422, false",
            "403, false",
            "429, false"})
    void mayHaveBeenWritten(int code, boolean expected) {
        assertThat(WriteOutcomes.mayHaveBeenWritten(new KubernetesClientException("x", code, null))).isEqualTo(expected);
    }
}
