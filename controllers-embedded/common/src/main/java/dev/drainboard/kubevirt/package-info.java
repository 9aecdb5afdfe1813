/**
 * KubeVirt's vocabulary, one class per concern: labels ({@link dev.drainboard.kubevirt.KubeVirtLabels}), annotations,
 * finalizers, conditions, event reasons, messages, values and defaults of the drain path; Drainboard's own
 * {@code drainboard.dev/*} keys ({@link dev.drainboard.kubevirt.DrainboardAnnotations}); and the annotations KubeVirt
 * and the descheduler exchange ({@link dev.drainboard.kubevirt.DeschedulerAnnotations}).
 */
package dev.drainboard.kubevirt;
