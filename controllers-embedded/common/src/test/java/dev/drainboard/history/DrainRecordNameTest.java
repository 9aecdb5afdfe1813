package dev.drainboard.history;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class DrainRecordNameTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "drain      | node01                          | drain-node01-",
            "drain      | node01,node02,node03            | drain-node01-and-2-more-",
            "evacuation | Worker_1.Example.com            | evacuation-worker-1.example.com-",
            "cancel     | kubevirt-migrate-vm-abcde       | cancel-kubevirt-migrate-vm-abcde-",
            "drain      | a-very-long-node-name-in-a-very-large-cluster-rack-42 | drain-a-very-long-node-name-in-a-very-large-clu-"})
    void prefixes(String kind, String nodes, String prefix) {
        String made = DrainRecord.namePrefix(kind, Arrays.asList(nodes.split(",")));
        assertThat(made).isEqualTo(prefix);
        assertThat(made.length()).isLessThanOrEqualTo(48);
    }

    @ParameterizedTest
    @CsvSource({"drain, drain-"})
    void noNodes(String kind, String prefix) {
        assertThat(DrainRecord.namePrefix(kind, List.of())).isEqualTo(prefix);
    }
}
