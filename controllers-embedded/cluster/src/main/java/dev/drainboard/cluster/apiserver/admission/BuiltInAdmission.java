package dev.drainboard.cluster.apiserver.admission;

/**
 * Admission that runs inside the API server, where kube-apiserver would call a compiled-in admission plugin or, for an
 * extension such as KubeVirt, its webhooks ({@code virt-api-mutator}, {@code virt-api-validator}). Called on create
 * and on update of the main resource (not {@code /status}, {@code /scale}), in kube-apiserver's order: {@link #mutate}
 * before the object is validated, {@link #validate} after, before the validating webhooks. Either refuses by throwing
 * {@link dev.drainboard.cluster.apiserver.ApiException}, worded as kube-apiserver words the denial.
 */
public interface BuiltInAdmission {

    /** Mutating admission: may change {@code request.object()} in place. Called on create only. */
    default void mutate(AdmissionAttributes request) {
    }

    /** Validating admission of a create or an update. */
    default void validate(AdmissionAttributes request) {
    }

    /**
     * A scenario object, stored as a copy of a cluster where it was admitted already (with its status): by default
     * validated as a create.
     */
    default void validateLoaded(AdmissionAttributes request) {
        validate(request);
    }
}
