package dev.drainboard.ui.actions;

import io.fabric8.kubernetes.api.model.authorization.v1.SelfSubjectAccessReview;
import io.fabric8.kubernetes.api.model.authorization.v1.SelfSubjectAccessReviewBuilder;
import io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReviewStatus;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;

import java.util.Objects;

/** Asks the API server with a SelfSubjectAccessReview, as {@code kubectl auth can-i} does. */
public final class SelfSubjectAccessReviewer implements AccessReviewer {

    private final KubernetesClient client;

    public SelfSubjectAccessReviewer(KubernetesClient client) {
        this.client = Objects.requireNonNull(client);
    }

    @Override
    public AccessDecision review(AccessCheck check) {
        SelfSubjectAccessReview review = new SelfSubjectAccessReviewBuilder().withNewSpec().withNewResourceAttributes()
                .withVerb(check.verb())
                .withGroup(check.group())
                .withResource(check.resource())
                .withSubresource(check.subresource().isEmpty() ? null : check.subresource())
                .withNamespace(check.namespace().isEmpty() ? null : check.namespace())
                .endResourceAttributes().endSpec().build();
        try {
            SubjectAccessReviewStatus status = client.authorization().v1().selfSubjectAccessReview().create(review).getStatus();
            if (status == null) {
                return AccessDecision.unknown(check, "the API server gave no answer");
            }
            if (Boolean.TRUE.equals(status.getAllowed())) {
                return AccessDecision.ALLOWED;
            }
            String why = status.getReason() != null && !status.getReason().isBlank() ? status.getReason()
                    : status.getEvaluationError();
            return AccessDecision.denied(check, why);
        } catch (KubernetesClientException e) {
            String message = e.getStatus() != null && e.getStatus().getMessage() != null ? e.getStatus().getMessage()
                    : String.valueOf(e.getMessage());
            return AccessDecision.unknown(check, message);
        }
    }
}
