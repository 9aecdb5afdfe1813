package dev.drainboard.cluster.apiserver.protobuf;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Descriptors.FileDescriptor;
import io.kubernetes.client.proto.Meta;
import io.kubernetes.client.proto.V1Admissionregistration;
import io.kubernetes.client.proto.V1Apps;
import io.kubernetes.client.proto.V1Authentication;
import io.kubernetes.client.proto.V1Authorization;
import io.kubernetes.client.proto.V1Autoscaling;
import io.kubernetes.client.proto.V1Batch;
import io.kubernetes.client.proto.V1Certificates;
import io.kubernetes.client.proto.V1Networking;
import io.kubernetes.client.proto.V1Policy;
import io.kubernetes.client.proto.V1Rbac;
import io.kubernetes.client.proto.V1Scheduling;
import io.kubernetes.client.proto.V1Storage;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ExplicitZeroFieldsTest {

    @Test
    void everyListedFieldIsASingularScalarOfTheSchema() {
        Map<String, FieldDescriptor> scalarFields = new HashMap<>();
        for (FileDescriptor file : List.of(Meta.getDescriptor(), io.kubernetes.client.proto.V1.getDescriptor(),
                V1Admissionregistration.getDescriptor(), V1Apps.getDescriptor(), V1Authentication.getDescriptor(),
                V1Authorization.getDescriptor(), V1Autoscaling.getDescriptor(), V1Batch.getDescriptor(),
                V1Certificates.getDescriptor(), V1Networking.getDescriptor(), V1Policy.getDescriptor(),
                V1Rbac.getDescriptor(), V1Scheduling.getDescriptor(), V1Storage.getDescriptor())) {
            for (Descriptor message : file.getMessageTypes()) {
                for (FieldDescriptor field : message.getFields()) {
                    if (!field.isRepeated() && field.getJavaType() != FieldDescriptor.JavaType.MESSAGE) {
                        scalarFields.put(field.getFullName(), field);
                    }
                }
            }
        }

        assertThat(ExplicitZeroFields.all()).isNotEmpty().allSatisfy(name -> assertThat(scalarFields).containsKey(name));
    }
}
