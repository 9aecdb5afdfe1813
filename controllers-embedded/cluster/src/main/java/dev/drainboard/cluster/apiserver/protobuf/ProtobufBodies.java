package dev.drainboard.cluster.apiserver.protobuf;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.DynamicMessage;
import com.google.protobuf.InvalidProtocolBufferException;
import io.kubernetes.client.proto.Runtime;

/**
 * Decodes request bodies sent as {@code application/vnd.kubernetes.protobuf} (what kubectl's typed clients send)
 * into the JSON tree the same object has in Kubernetes' JSON form.
 */
public final class ProtobufBodies {

    /** Every Kubernetes protobuf body starts with "k8s" and a zero byte, ahead of a runtime.Unknown envelope. */
    private static final ByteString MAGIC = ByteString.copyFrom(new byte[] {'k', '8', 's', 0});

    private static final String PROTOBUF_CONTENT_TYPE = "application/vnd.kubernetes.protobuf";

    private ProtobufBodies() {
    }

    /**
     * Decodes a Kubernetes protobuf envelope (magic "k8s\0" + runtime.Unknown{typeMeta{apiVersion,kind}, raw,
     * contentEncoding, contentType}) into the object's JSON form, apiVersion and kind included.
     *
     * @throws ProtobufDecodeException for bad magic, truncated data, or a kind we cannot decode
     */
    public static ObjectNode decode(byte[] body) throws ProtobufDecodeException {
        if (body == null) {
            throw new ProtobufDecodeException("Not a Kubernetes protobuf body: the body is missing");
        }
        return decode(ByteString.copyFrom(body));
    }

    private static ObjectNode decode(ByteString body) throws ProtobufDecodeException {
        Runtime.Unknown envelope = readEnvelope(body);
        String apiVersion = envelope.getTypeMeta().getApiVersion();
        String kind = envelope.getTypeMeta().getKind();
        Descriptor type = KubernetesKinds.messageType(apiVersion, kind);
        DynamicMessage object;
        try {
            object = DynamicMessage.parseFrom(type, envelope.getRaw());
        } catch (InvalidProtocolBufferException e) {
            throw new ProtobufDecodeException(
                    "Malformed protobuf body for " + apiVersion + " " + kind + ": " + e.getMessage(), e);
        }
        ObjectNode json = JsonNodeFactory.instance.objectNode();
        json.put("apiVersion", apiVersion);
        json.put("kind", kind);
        json.setAll(MessageJson.toObject(object));
        return json;
    }

    private static Runtime.Unknown readEnvelope(ByteString body) throws ProtobufDecodeException {
        if (!body.startsWith(MAGIC)) {
            throw new ProtobufDecodeException(
                    "Not a Kubernetes protobuf body: it does not start with the magic bytes \"k8s\\0\"");
        }
        Runtime.Unknown envelope;
        try {
            envelope = Runtime.Unknown.parseFrom(body.substring(MAGIC.size()));
        } catch (InvalidProtocolBufferException e) {
            throw new ProtobufDecodeException("Malformed Kubernetes protobuf envelope: " + e.getMessage(), e);
        }
        if (envelope.getTypeMeta().getKind().isEmpty() || envelope.getTypeMeta().getApiVersion().isEmpty()) {
            throw new ProtobufDecodeException("Kubernetes protobuf envelope without apiVersion and kind");
        }
        // Kubernetes always leaves both empty; anything else would need a decoder we do not have.
        if (!envelope.getContentEncoding().isEmpty()) {
            throw new ProtobufDecodeException(
                    "Unsupported content encoding in protobuf envelope: " + envelope.getContentEncoding());
        }
        String contentType = envelope.getContentType();
        if (!contentType.isEmpty() && !contentType.equals(PROTOBUF_CONTENT_TYPE)) {
            throw new ProtobufDecodeException("Unsupported content type in protobuf envelope: " + contentType);
        }
        return envelope;
    }
}
