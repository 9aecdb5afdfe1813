package dev.drainboard.cluster.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** A delete request's options, from the DeleteOptions body or the query string. */
record DeleteOptions(Long gracePeriodSeconds, String propagationPolicy, String preconditionUid,
                     String preconditionResourceVersion, boolean dryRun) {

    static DeleteOptions from(ApiRequest request) {
        JsonNode body = Json.object();
        if (request.body() != null && request.body().length > 0) {
            body = RequestBodies.tree(request, RequestBodies.mediaType(request.contentType()));
        }
        return from(body, request);
    }

    /** Options inside a body (as an Eviction's deleteOptions), the query string filling the gaps. */
    static DeleteOptions from(JsonNode body, ApiRequest request) {
        Long grace = body.hasNonNull("gracePeriodSeconds") ? body.get("gracePeriodSeconds").asLong() : null;
        if (grace == null && request.param("gracePeriodSeconds") != null) {
            try {
                grace = Long.parseLong(request.param("gracePeriodSeconds"));
            } catch (NumberFormatException e) {
                throw ApiException.badRequest("invalid gracePeriodSeconds: " + request.param("gracePeriodSeconds"));
            }
        }
        String propagation = body.path("propagationPolicy").asText(null);
        if (propagation == null) {
            propagation = request.param("propagationPolicy");
        }
        if (propagation == null && body.path("orphanDependents").asBoolean(false)) {
            propagation = "Orphan";
        }
        if (propagation == null) {
            propagation = "Background";
        }
        if (!propagation.equals("Background") && !propagation.equals("Foreground") && !propagation.equals("Orphan")) {
            throw ApiException.badRequest("propagationPolicy: Unsupported value: \"" + propagation
                    + "\": supported values: \"Foreground\", \"Background\", \"Orphan\"");
        }
        JsonNode pre = body.path("preconditions");
        boolean dryRun = request.dryRun();
        for (JsonNode d : body.path("dryRun")) {
            dryRun |= d.asText().equals("All");
        }
        return new DeleteOptions(grace, propagation, pre.path("uid").asText(null), pre.path("resourceVersion").asText(null), dryRun);
    }

    void checkPreconditions(ResourceType type, String name, ObjectNode current) {
        String uid = Json.uid(current);
        if (preconditionUid != null && !preconditionUid.equals(uid)) {
            throw ApiException.conflict(type, name, "Precondition failed: UID in precondition: " + preconditionUid + ", UID in object meta: " + uid);
        }
        String rv = Json.text(current, "metadata", "resourceVersion");
        if (preconditionResourceVersion != null && !preconditionResourceVersion.equals(rv)) {
            throw ApiException.conflict(type, name, "Precondition failed: ResourceVersion in precondition: "
                    + preconditionResourceVersion + ", ResourceVersion in object meta: " + rv);
        }
    }
}
