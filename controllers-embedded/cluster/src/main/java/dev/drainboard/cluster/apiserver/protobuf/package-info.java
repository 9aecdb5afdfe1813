/**
 * Kubernetes' protobuf encoding of built-in types, for clients that ask for {@code application/vnd.kubernetes.protobuf}.
 */
package dev.drainboard.cluster.apiserver.protobuf;
