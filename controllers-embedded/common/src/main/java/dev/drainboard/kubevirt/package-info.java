/**
 * KubeVirt's vocabulary: every label, annotation, finalizer, condition, event reason and message of the drain path
 * ({@link dev.drainboard.kubevirt.KubeVirtNames}), and the annotations KubeVirt and the descheduler exchange
 * ({@link dev.drainboard.kubevirt.DeschedulerAnnotations}).
 */
package dev.drainboard.kubevirt;
