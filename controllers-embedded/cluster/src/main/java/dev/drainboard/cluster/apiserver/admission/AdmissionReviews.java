package dev.drainboard.cluster.apiserver.admission;

import com.fasterxml.jackson.databind.node.ObjectNode;

/** Builds the AdmissionReview requests kube-apiserver sends (v1 and v1beta1 share the shape). */
public final class AdmissionReviews {

    private AdmissionReviews() {
    }

    public static ObjectNode request(String version, String uid, AdmissionAttributes a, String username) {
        ObjectNode review = dev.drainboard.cluster.apiserver.Json.object();
        review.put("apiVersion", "admission.k8s.io/" + version);
        review.put("kind", "AdmissionReview");
        ObjectNode request = review.putObject("request");
        request.put("uid", uid);
        ObjectNode kind = request.putObject("kind");
        kind.put("group", a.kindGroup()).put("version", a.kindVersion()).put("kind", a.kind());
        ObjectNode resource = request.putObject("resource");
        resource.put("group", a.resource().group()).put("version", a.resource().version()).put("resource", a.resource().plural());
        if (!a.subresource().isEmpty()) {
            request.put("subResource", a.subresource());
        }
        request.set("requestKind", kind.deepCopy());
        request.set("requestResource", resource.deepCopy());
        if (!a.subresource().isEmpty()) {
            request.put("requestSubResource", a.subresource());
        }
        if (!a.name().isEmpty()) {
            request.put("name", a.name());
        }
        if (!a.namespace().isEmpty()) {
            request.put("namespace", a.namespace());
        }
        request.put("operation", a.operation());
        ObjectNode user = request.putObject("userInfo");
        user.put("username", username);
        dev.drainboard.cluster.apiserver.AdminUser.GROUPS.forEach(user.withArray("groups")::add);
        request.set("object", a.object());
        request.set("oldObject", a.oldObject());
        request.put("dryRun", a.dryRun());
        ObjectNode options = request.putObject("options");
        options.put("apiVersion", "meta.k8s.io/v1");
        options.put("kind", switch (a.operation()) {
            case "CREATE" -> "CreateOptions";
            case "DELETE" -> "DeleteOptions";
            default -> "UpdateOptions";
        });
        return review;
    }
}
