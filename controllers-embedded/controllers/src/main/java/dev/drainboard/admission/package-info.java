/**
 * KubeVirt's launcher eviction webhook as KubeVirt up to v1.4 runs it (docs/behaviour.md, "Eviction webhook").
 *
 * <ul>
 *   <li>{@link dev.drainboard.admission.EvictionAdmitter}: the decision, pure (KubeVirt's
 *       {@code PodEvictionAdmitter.Admit}); its output {@link dev.drainboard.admission.EvictionDecision} is Allow,
 *       Deny (429) or Mark (write the evacuation mark, then deny).</li>
 *   <li>{@link dev.drainboard.admission.EvictionAdmission}: reads the pod and VMI
 *       ({@link dev.drainboard.admission.AdmissionCluster}), decides, writes the mark.</li>
 *   <li>{@link dev.drainboard.admission.AdmissionReviews}: AdmissionReview v1/v1beta1 in and out.</li>
 *   <li>{@link dev.drainboard.admission.EvictionWebhookServer}: HTTPS server with its own CA, and
 *       {@link dev.drainboard.admission.WebhookRegistration} of {@code virt-api-validator}
 *       ({@code failurePolicy: Ignore}).</li>
 * </ul>
 */
package dev.drainboard.admission;
