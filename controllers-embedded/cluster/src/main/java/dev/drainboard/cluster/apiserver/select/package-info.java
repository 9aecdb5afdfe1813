/**
 * Field selectors with kube-apiserver's per-resource field contracts; label selectors are {@link dev.drainboard.labels}.
 */
package dev.drainboard.cluster.apiserver.select;
