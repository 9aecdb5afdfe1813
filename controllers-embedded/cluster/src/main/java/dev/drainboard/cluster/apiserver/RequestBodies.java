package dev.drainboard.cluster.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.drainboard.cluster.apiserver.protobuf.ProtobufBodies;
import dev.drainboard.cluster.apiserver.protobuf.ProtobufDecodeException;

import java.io.IOException;

/** Decodes request bodies the way kube-apiserver accepts them: JSON, or YAML where allowed. */
final class RequestBodies {

    private RequestBodies() {
    }

    static String mediaType(String contentType) {
        if (contentType == null || contentType.isBlank()) {
            return "application/json";
        }
        int semi = contentType.indexOf(';');
        return (semi < 0 ? contentType : contentType.substring(0, semi)).trim().toLowerCase();
    }

    /** An object body for create and update. */
    static ObjectNode object(ApiRequest request) {
        JsonNode node = tree(request, mediaType(request.contentType()));
        if (!(node instanceof ObjectNode object)) {
            throw ApiException.badRequest("the body of the request must be a JSON object");
        }
        return object;
    }

    static JsonNode tree(ApiRequest request, String mediaType) {
        if (request.body() == null || request.body().length == 0) {
            throw ApiException.badRequest("the body of the request was empty");
        }
        try {
            return switch (mediaType) {
                case "application/json", "application/json-patch+json", "application/merge-patch+json",
                     "application/strategic-merge-patch+json" -> Json.MAPPER.readTree(request.body());
                case "application/vnd.kubernetes.protobuf" -> ProtobufBodies.decode(request.body());
                case "application/yaml", "application/apply-patch+yaml", "text/yaml" -> {
                    JsonNode yaml = Json.YAML.readTree(request.body());
                    yield yaml == null ? Json.NODES.missingNode() : yaml;
                }
                default -> throw ApiException.unsupportedMediaType(mediaType);
            };
        } catch (ProtobufDecodeException e) {
            throw ApiException.badRequest("the protobuf body of the request could not be decoded: " + e.getMessage());
        } catch (IOException e) {
            String what = e.getMessage() == null ? "" : e.getMessage().lines().findFirst().orElse("");
            throw ApiException.badRequest("the body of the request could not be decoded: " + what);
        }
    }
}
