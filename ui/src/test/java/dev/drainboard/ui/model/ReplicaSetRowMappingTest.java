package dev.drainboard.ui.model;

import dev.drainboard.kubevirt.api.Condition;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceReplicaSet;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceReplicaSetSpec;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceReplicaSetStatus;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ReplicaSetRowMappingTest {

    private static VirtualMachineInstanceReplicaSet rs(List<Condition> conditions) {
        VirtualMachineInstanceReplicaSet rs = new VirtualMachineInstanceReplicaSet();
        rs.setMetadata(new ObjectMetaBuilder().withNamespace("demo").withName("workers").build());
        VirtualMachineInstanceReplicaSetSpec spec = new VirtualMachineInstanceReplicaSetSpec();
        spec.setReplicas(5);
        rs.setSpec(spec);
        VirtualMachineInstanceReplicaSetStatus status = new VirtualMachineInstanceReplicaSetStatus();
        status.setReplicas(3);
        status.setReadyReplicas(2);
        status.setConditions(conditions);
        rs.setStatus(status);
        return rs;
    }

    private static Condition condition(String type, String status, String reason, String message) {
        Condition c = new Condition();
        c.setType(type);
        c.setStatus(status);
        c.setReason(reason);
        c.setMessage(message);
        return c;
    }

    @Test
    void aReplicaFailureKeepsItsReasonAndTheApisMessageVerbatim() {
        String message = "virtualmachineinstances \"workers-x\" is forbidden: exceeded quota: vmis, requested: count/vmis=1";
        ReplicaSetRow row = RowMapping.replicaSetRow(rs(List.of(condition("ReplicaFailure", "True", "FailureCreate", message))));
        assertThat(row.desired()).isEqualTo(5);
        assertThat(row.current()).isEqualTo(3);
        assertThat(row.ready()).isEqualTo(2);
        assertThat(row.failing()).isTrue();
        assertThat(row.failureReason()).isEqualTo("FailureCreate");
        assertThat(row.failureMessage()).isEqualTo(message);
        assertThat(row.searchText()).contains("FailureCreate");
    }

    @Test
    void aClearedFailureIsNoFailure() {
        ReplicaSetRow row = RowMapping.replicaSetRow(rs(List.of(condition("ReplicaFailure", "False", "FailureDelete", "old"))));
        assertThat(row.failing()).isFalse();
        assertThat(row.failureReason()).isEmpty();
        assertThat(row.failureMessage()).isEmpty();
    }
}
