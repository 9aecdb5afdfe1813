/**
 * kube-apiserver's validation of object metadata and of webhook configurations, with its messages; the name rules themselves are in dev.drainboard.validation.
 */
package dev.drainboard.cluster.apiserver.validation;
