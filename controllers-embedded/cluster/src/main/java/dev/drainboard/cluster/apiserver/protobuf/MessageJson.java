package dev.drainboard.cluster.apiserver.protobuf;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Message;
import java.util.Base64;
import java.util.List;
import java.util.Map;

/**
 * Turns a parsed Kubernetes protobuf message into its JSON form by walking its descriptor: proto field names are the
 * JSON names, maps become objects, bytes become base64, and the apimachinery value types their own JSON forms.
 */
final class MessageJson {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    /** The few fields whose proto name differs from their JSON name, keyed by full proto field name. */
    private static final Map<String, String> JSON_NAME_OF_PROTO_FIELD = Map.of(
            "k8s.io.api.admissionregistration.v1.MutatingWebhookConfiguration.Webhooks", "webhooks",
            "k8s.io.api.admissionregistration.v1.ValidatingWebhookConfiguration.Webhooks", "webhooks",
            "k8s.io.api.admissionregistration.v1.Validation.Expression", "expression",
            "k8s.io.api.admissionregistration.v1.Variable.Name", "name",
            "k8s.io.api.admissionregistration.v1.Variable.Expression", "expression",
            "k8s.io.api.authentication.v1.BoundObjectReference.uID", "uid",
            "k8s.io.api.networking.v1.IngressClassParametersReference.aPIGroup", "apiGroup");

    private MessageJson() {
    }

    /** The fields of a message as a JSON object. */
    static ObjectNode toObject(Message message) throws ProtobufDecodeException {
        rejectUnknownFields(message);
        ObjectNode object = NODES.objectNode();
        for (FieldDescriptor field : message.getDescriptorForType().getFields()) {
            String name = jsonName(field);
            if (field.isMapField()) {
                if (message.getRepeatedFieldCount(field) > 0) {
                    object.set(name, mapToJson(field, (List<?>) message.getField(field)));
                }
            } else if (field.isRepeated()) {
                if (message.getRepeatedFieldCount(field) > 0) {
                    object.set(name, listToJson(field, (List<?>) message.getField(field)));
                }
            } else if (message.hasField(field)) {
                Object value = message.getField(field);
                if (field.getJavaType() == FieldDescriptor.JavaType.MESSAGE
                        || !isZero(value)
                        || ExplicitZeroFields.contains(field)) {
                    object.set(name, valueToJson(field, value));
                }
            }
        }
        return object;
    }

    static ArrayNode listToJson(FieldDescriptor field, List<?> values) throws ProtobufDecodeException {
        ArrayNode array = NODES.arrayNode(values.size());
        for (Object value : values) {
            array.add(valueToJson(field, value));
        }
        return array;
    }

    static JsonNode number(long value) {
        // Matches what Jackson makes when it reads the same number from JSON text.
        return value == (int) value ? NODES.numberNode((int) value) : NODES.numberNode(value);
    }

    private static ObjectNode mapToJson(FieldDescriptor field, List<?> entries) throws ProtobufDecodeException {
        FieldDescriptor keyField = field.getMessageType().findFieldByName("key");
        FieldDescriptor valueField = field.getMessageType().findFieldByName("value");
        ObjectNode object = NODES.objectNode();
        for (Object entry : entries) {
            Message keyAndValue = (Message) entry;
            // Map values are written even when zero: {"key": ""} is data.
            object.set(String.valueOf(keyAndValue.getField(keyField)),
                    valueToJson(valueField, keyAndValue.getField(valueField)));
        }
        return object;
    }

    private static JsonNode valueToJson(FieldDescriptor field, Object value) throws ProtobufDecodeException {
        return switch (field.getJavaType()) {
            case STRING -> NODES.textNode((String) value);
            case BOOLEAN -> NODES.booleanNode((Boolean) value);
            case INT -> number((Integer) value);
            case LONG -> number((Long) value);
            case BYTE_STRING -> NODES.textNode(Base64.getEncoder().encodeToString(((ByteString) value).toByteArray()));
            case MESSAGE -> messageToJson((Message) value);
            default -> throw new ProtobufDecodeException(
                    "Unsupported protobuf field type " + field.getType() + " of " + field.getFullName());
        };
    }

    private static JsonNode messageToJson(Message message) throws ProtobufDecodeException {
        if (KubernetesValueTypes.handles(message.getDescriptorForType())) {
            rejectUnknownFields(message);
            return KubernetesValueTypes.toJson(message);
        }
        return toObject(message);
    }

    private static boolean isZero(Object value) {
        return switch (value) {
            case String text -> text.isEmpty();
            case Boolean flag -> !flag;
            case Integer number -> number == 0;
            case Long number -> number == 0;
            case ByteString bytes -> bytes.isEmpty();
            default -> false;
        };
    }

    private static String jsonName(FieldDescriptor field) {
        return JSON_NAME_OF_PROTO_FIELD.getOrDefault(field.getFullName(), field.getName());
    }

    /** A field our schema does not know would be silently lost: most likely the sender's API is newer than ours. */
    private static void rejectUnknownFields(Message message) throws ProtobufDecodeException {
        if (!message.getUnknownFields().asMap().isEmpty()) {
            throw new ProtobufDecodeException("Protobuf body has field number(s) "
                    + message.getUnknownFields().asMap().keySet() + " in "
                    + message.getDescriptorForType().getFullName()
                    + " which the bundled Kubernetes schema does not know");
        }
    }
}
