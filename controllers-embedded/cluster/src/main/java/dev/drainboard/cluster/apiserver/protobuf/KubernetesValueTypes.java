package dev.drainboard.cluster.apiserver.protobuf;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Message;
import dev.drainboard.units.GoDurations;
import io.kubernetes.client.proto.IntStr;
import io.kubernetes.client.proto.Meta;
import io.kubernetes.client.proto.Resource;
import io.kubernetes.client.proto.Runtime;
import java.io.IOException;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;

/**
 * The apimachinery types whose JSON form is not an object of their proto fields: times, quantities, int-or-string,
 * durations, embedded raw JSON, and the wrappers that protobuf needs around a named list of strings.
 */
final class KubernetesValueTypes {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private static final ObjectMapper JSON = new ObjectMapper();

    /** RFC 3339 in UTC at whole seconds, as metav1.Time writes itself. */
    private static final DateTimeFormatter TIME =
            DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss'Z'").withZone(ZoneOffset.UTC);

    /** RFC 3339 in UTC with exactly six fractional digits, as metav1.MicroTime writes itself. */
    private static final DateTimeFormatter MICRO_TIME =
            DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSSSS'Z'").withZone(ZoneOffset.UTC);

    /** Go's zero time.Time (0001-01-01T00:00:00Z) in Unix seconds; Kubernetes writes it as null. */
    private static final long GO_ZERO_TIME_SECONDS = -62_135_596_800L;

    private interface Converter {
        JsonNode toJson(Message message) throws ProtobufDecodeException;
    }

    private static final Map<Descriptor, Converter> CONVERTERS = Map.of(
            Meta.Time.getDescriptor(), KubernetesValueTypes::time,
            Meta.MicroTime.getDescriptor(), KubernetesValueTypes::microTime,
            Meta.Duration.getDescriptor(), KubernetesValueTypes::duration,
            Meta.FieldsV1.getDescriptor(), message -> embeddedJson(bytes(message, "Raw")),
            Resource.Quantity.getDescriptor(), KubernetesValueTypes::quantity,
            Resource.QuantityValue.getDescriptor(), KubernetesValueTypes::quantity,
            IntStr.IntOrString.getDescriptor(), KubernetesValueTypes::intOrString,
            Runtime.RawExtension.getDescriptor(), message -> embeddedJson(bytes(message, "raw")));

    private KubernetesValueTypes() {
    }

    static boolean handles(Descriptor type) {
        return CONVERTERS.containsKey(type) || isStringListWrapper(type);
    }

    static JsonNode toJson(Message message) throws ProtobufDecodeException {
        Descriptor type = message.getDescriptorForType();
        if (isStringListWrapper(type)) {
            FieldDescriptor items = type.getFields().getFirst();
            return MessageJson.listToJson(items, (List<?>) message.getField(items));
        }
        return CONVERTERS.get(type).toJson(message);
    }

    /**
     * Named string lists (metav1.Verbs, authentication's ExtraValue...) are JSON arrays, but protobuf cannot nest a
     * repeated field directly, so the generator wraps them in a message whose single field is "repeated string items".
     */
    private static boolean isStringListWrapper(Descriptor type) {
        List<FieldDescriptor> fields = type.getFields();
        return fields.size() == 1
                && fields.getFirst().getName().equals("items")
                && fields.getFirst().isRepeated()
                && fields.getFirst().getType() == FieldDescriptor.Type.STRING;
    }

    /** Nanoseconds are not read: the JSON form has whole seconds only, and the Go decoder drops them likewise. */
    private static JsonNode time(Message message) throws ProtobufDecodeException {
        if (!has(message, "seconds") || number(message, "seconds") == GO_ZERO_TIME_SECONDS) {
            return NODES.nullNode();
        }
        return NODES.textNode(format(TIME, number(message, "seconds"), 0));
    }

    private static JsonNode microTime(Message message) throws ProtobufDecodeException {
        long seconds = number(message, "seconds");
        long nanos = number(message, "nanos");
        if (!has(message, "seconds") || (seconds == GO_ZERO_TIME_SECONDS && nanos == 0)) {
            return NODES.nullNode();
        }
        return NODES.textNode(format(MICRO_TIME, seconds, nanos));
    }

    private static String format(DateTimeFormatter format, long seconds, long nanos) throws ProtobufDecodeException {
        try {
            return format.format(Instant.ofEpochSecond(seconds, nanos));
        } catch (DateTimeException e) {
            throw new ProtobufDecodeException("Timestamp out of range: " + seconds + "s " + nanos + "ns", e);
        }
    }

    private static JsonNode duration(Message message) {
        return NODES.textNode(GoDurations.format(number(message, "duration")));
    }

    /** The proto form already holds the quantity's string; a missing one is the zero quantity. */
    private static JsonNode quantity(Message message) {
        return NODES.textNode(has(message, "string") ? (String) field(message, "string") : "0");
    }

    private static JsonNode intOrString(Message message) throws ProtobufDecodeException {
        long type = number(message, "type");
        if (type == 0) {
            return MessageJson.number(number(message, "intVal"));
        }
        if (type == 1) {
            return NODES.textNode((String) field(message, "strVal"));
        }
        throw new ProtobufDecodeException("IntOrString of unknown type " + type);
    }

    /** RawExtension and FieldsV1 carry JSON as sent by the client; Kubernetes writes it inline, or null when empty. */
    private static JsonNode embeddedJson(ByteString raw) throws ProtobufDecodeException {
        if (raw.isEmpty()) {
            return NODES.nullNode();
        }
        try {
            JsonNode json = JSON.readTree(raw.toByteArray());
            return json.isMissingNode() ? NODES.nullNode() : json;
        } catch (JacksonException e) {
            throw new ProtobufDecodeException("Embedded object is not JSON", e);
        } catch (IOException e) {
            throw new ProtobufDecodeException("Cannot read embedded JSON", e);
        }
    }

    private static boolean has(Message message, String fieldName) {
        return message.hasField(message.getDescriptorForType().findFieldByName(fieldName));
    }

    private static Object field(Message message, String fieldName) {
        return message.getField(message.getDescriptorForType().findFieldByName(fieldName));
    }

    private static long number(Message message, String fieldName) {
        return ((Number) field(message, fieldName)).longValue();
    }

    private static ByteString bytes(Message message, String fieldName) {
        return (ByteString) field(message, fieldName);
    }
}
