/**
 * Kubernetes label selectors with kube-apiserver's semantics: the {@code labelSelector=} syntax and
 * metav1.LabelSelector (as JSON or fabric8's model), with apimachinery's validation messages. The one matcher for
 * lists and watches, PDBs, webhooks, pod affinity, replica sets and the drain preview.
 */
package dev.drainboard.labels;
