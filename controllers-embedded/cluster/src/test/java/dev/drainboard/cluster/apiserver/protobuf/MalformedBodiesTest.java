package dev.drainboard.cluster.apiserver.protobuf;

import static dev.drainboard.cluster.apiserver.protobuf.Envelopes.envelope;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import com.google.protobuf.UnknownFieldSet;
import io.kubernetes.client.proto.IntStr.IntOrString;
import io.kubernetes.client.proto.Meta;
import io.kubernetes.client.proto.V1;
import io.kubernetes.client.proto.V1Policy;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Bad bodies give a ProtobufDecodeException with a message that says what is wrong, never another exception. */
class MalformedBodiesTest {

    private static final byte[] NAMESPACE = envelope("v1", "Namespace",
            V1.Namespace.newBuilder().setMetadata(Meta.ObjectMeta.newBuilder().setName("demo")).build());

    @Test
    void wrongMagic() {
        byte[] json = "{\"kind\":\"Namespace\"}".getBytes();

        assertThatThrownBy(() -> ProtobufBodies.decode(json))
                .isInstanceOf(ProtobufDecodeException.class)
                .hasMessageContaining("magic");
    }

    @Test
    void emptyAndMissingBodies() {
        assertThatThrownBy(() -> ProtobufBodies.decode(new byte[0])).isInstanceOf(ProtobufDecodeException.class);
        assertThatThrownBy(() -> ProtobufBodies.decode(null)).isInstanceOf(ProtobufDecodeException.class);
    }

    @Test
    void truncatedBody() {
        byte[] truncated = Arrays.copyOf(NAMESPACE, NAMESPACE.length - 3);

        assertThatThrownBy(() -> ProtobufBodies.decode(truncated))
                .isInstanceOf(ProtobufDecodeException.class)
                .hasMessageContaining("Malformed");
    }

    @Test
    void kindWithoutSchema() {
        byte[] lease = envelope("coordination.k8s.io/v1", "Lease", ByteString.EMPTY);

        assertThatThrownBy(() -> ProtobufBodies.decode(lease))
                .isInstanceOf(ProtobufDecodeException.class)
                .hasMessage("Cannot decode protobuf body of kind Lease in coordination.k8s.io/v1: no protobuf schema for it");
    }

    @Test
    void envelopeWithoutKind() {
        byte[] noKind = envelope("", "", ByteString.EMPTY);

        assertThatThrownBy(() -> ProtobufBodies.decode(noKind))
                .isInstanceOf(ProtobufDecodeException.class)
                .hasMessageContaining("without apiVersion and kind");
    }

    @Test
    void fieldUnknownToOurSchemaIsNotDroppedSilently() {
        V1.Namespace withNewerField = V1.Namespace.newBuilder()
                .setMetadata(Meta.ObjectMeta.newBuilder().setName("demo"))
                .setUnknownFields(UnknownFieldSet.newBuilder()
                        .addField(99, UnknownFieldSet.Field.newBuilder().addVarint(1).build())
                        .build())
                .build();

        assertThatThrownBy(() -> ProtobufBodies.decode(envelope("v1", "Namespace", withNewerField)))
                .isInstanceOf(ProtobufDecodeException.class)
                .hasMessageContaining("[99] in k8s.io.api.core.v1.Namespace");
    }

    @Test
    void intOrStringOfUnknownType() {
        V1Policy.PodDisruptionBudget pdb = V1Policy.PodDisruptionBudget.newBuilder()
                .setSpec(V1Policy.PodDisruptionBudgetSpec.newBuilder()
                        .setMinAvailable(IntOrString.newBuilder().setType(7)))
                .build();

        assertThatThrownBy(() -> ProtobufBodies.decode(envelope("policy/v1", "PodDisruptionBudget", pdb)))
                .isInstanceOf(ProtobufDecodeException.class)
                .hasMessage("IntOrString of unknown type 7");
    }

    @Test
    void embeddedObjectThatIsNotJson() {
        V1.List list = V1.List.newBuilder()
                .addItems(io.kubernetes.client.proto.Runtime.RawExtension.newBuilder()
                        .setRaw(ByteString.copyFromUtf8("{not json")))
                .build();

        assertThatThrownBy(() -> ProtobufBodies.decode(envelope("v1", "List", list)))
                .isInstanceOf(ProtobufDecodeException.class)
                .hasMessage("Embedded object is not JSON");
    }

    @Test
    void everyPrefixAndCorruptionOfRealBodiesFailsCleanly() {
        for (String command : new String[] {"deployment", "cronjob", "service", "secret"}) {
            byte[] body = Envelopes.resource("kubectl/" + command + ".pb");
            for (int length = 0; length < body.length; length++) {
                decodeOrDecodeException(Arrays.copyOf(body, length));
            }
            Random random = new Random(command.hashCode());
            for (int i = 0; i < 2000; i++) {
                byte[] corrupted = body.clone();
                corrupted[4 + random.nextInt(body.length - 4)] = (byte) random.nextInt(256);
                decodeOrDecodeException(corrupted);
            }
        }
    }

    /** Corrupt bytes may still form a valid body; what must never happen is any other exception. */
    private static void decodeOrDecodeException(byte[] body) {
        try {
            ProtobufBodies.decode(body);
        } catch (ProtobufDecodeException expected) {
            // the message is checked by the tests above
        }
    }
}
