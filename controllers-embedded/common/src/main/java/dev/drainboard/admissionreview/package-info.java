/**
 * The AdmissionReview (admission.k8s.io v1 and v1beta1) as JSON, both ways: what the embedded API server sends a
 * validating webhook and reads back, and what the eviction webhook reads and answers.
 */
package dev.drainboard.admissionreview;
