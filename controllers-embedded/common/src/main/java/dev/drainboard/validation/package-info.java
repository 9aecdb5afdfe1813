/**
 * Kubernetes' name rules (qualified names, label values, DNS-1123 and DNS-1035 names) with kube-apiserver's messages,
 * used by the embedded API server, the label-selector parser and the operator actions alike.
 */
package dev.drainboard.validation;
