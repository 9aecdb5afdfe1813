package dev.drainboard.cluster.virtapi;

/** A {@code metav1.StatusCause} as KubeVirt's admitters write them: type (the JSON {@code reason}), message, field. */
public record Cause(String type, String message, String field) {

    public static final String INVALID = "FieldValueInvalid";
    public static final String REQUIRED = "FieldValueRequired";
    public static final String DUPLICATE = "FieldValueDuplicate";
    public static final String NOT_SUPPORTED = "FieldValueNotSupported";
    public static final String NOT_FOUND = "FieldValueNotFound";

    public static Cause invalid(String message, String field) {
        return new Cause(INVALID, message, field);
    }
}
