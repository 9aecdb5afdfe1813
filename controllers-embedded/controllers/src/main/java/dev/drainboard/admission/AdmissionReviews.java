package dev.drainboard.admission;

import com.fasterxml.jackson.databind.JsonNode;
import dev.drainboard.admissionreview.AdmissionReview;
import dev.drainboard.kubevirt.DeschedulerAnnotations;

import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The eviction webhook's side of an AdmissionReview ({@link AdmissionReview} reads and writes the JSON): which
 * pod eviction a review asks about, and the answer to it in the version asked, echoing the request's uid as the
 * API server demands.
 */
public final class AdmissionReviews {

    private AdmissionReviews() {
    }

    /** A review that can be answered: its version, uid and the eviction it asks about. */
    public record Review(String apiVersion, String uid, EvictionRequest eviction) {
        public Review {
            Objects.requireNonNull(apiVersion, "apiVersion");
            Objects.requireNonNull(uid, "uid");
            Objects.requireNonNull(eviction, "eviction");
        }
    }

    /** A body that is no AdmissionReview about a pod eviction; answered with 400. */
    public static final class MalformedReviewException extends Exception {
        public MalformedReviewException(String message) {
            super(message);
        }
    }

    public static Review parse(byte[] body) throws MalformedReviewException {
        AdmissionReview.Request request;
        try {
            request = AdmissionReview.parseRequest(body);
        } catch (AdmissionReview.MalformedReviewException e) {
            throw new MalformedReviewException(e.getMessage());
        }
        // The webhook is registered for pods/eviction only; anything else was sent to the wrong place.
        if (request.kind() != null && !orDefault(request.kind().name(), "Eviction").equals("Eviction")) {
            throw new MalformedReviewException("request.kind is \"" + request.kind().name() + "\", want Eviction");
        }
        if (request.resource() != null && !orDefault(request.resource().name(), "pods").equals("pods")) {
            throw new MalformedReviewException("request.resource is \"" + request.resource().name() + "\", want pods");
        }
        if (request.name().isEmpty()) {
            throw new MalformedReviewException("request.name is missing");
        }
        if (request.namespace().isEmpty()) {
            throw new MalformedReviewException("request.namespace is missing");
        }
        Map<String, String> evictionAnnotations = new HashMap<>();
        JsonNode eviction = request.object();
        if (eviction != null) {
            eviction.path("metadata").path("annotations").properties()
                    .forEach(a -> evictionAnnotations.put(a.getKey(), a.getValue().asText()));
        }
        boolean byDescheduler = DeschedulerAnnotations.isDeschedulerEviction(evictionAnnotations);
        return new Review(request.apiVersion(), request.uid(),
                new EvictionRequest(request.namespace(), request.name(), request.dryRun(), byDescheduler));
    }

    /** The answer to {@code review}: allowed, or refused with the decision's code and message. */
    public static byte[] answer(Review review, EvictionDecision decision) {
        return AdmissionReview.response(switch (decision) {
            case EvictionDecision.Allow a -> AdmissionReview.Response.allow(review.apiVersion(), review.uid());
            case EvictionDecision.Deny d -> AdmissionReview.Response.deny(review.apiVersion(), review.uid(), d.code(), d.message());
            case EvictionDecision.Mark m -> throw new IllegalArgumentException("a mark must be applied before answering");
        });
    }

    /** An absent or non-text field reads as empty: then it says nothing against the request. */
    private static String orDefault(String value, String fallback) {
        return value.isEmpty() ? fallback : value;
    }
}
