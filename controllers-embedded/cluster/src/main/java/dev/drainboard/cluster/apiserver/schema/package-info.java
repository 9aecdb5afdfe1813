/** Structural OpenAPI v3 schemas of custom resources: pruning, defaulting and validation as kube-apiserver does them. */
package dev.drainboard.cluster.apiserver.schema;
