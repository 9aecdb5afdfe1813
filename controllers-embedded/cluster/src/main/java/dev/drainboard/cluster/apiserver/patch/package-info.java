/**
 * The patch types kube-apiserver accepts: JSON patch, JSON merge patch, strategic merge patch with its
 * directives and list strategies, and server-side apply.
 */
package dev.drainboard.cluster.apiserver.patch;
