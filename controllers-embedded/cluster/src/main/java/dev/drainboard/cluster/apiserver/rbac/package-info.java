/** Authentication of bearer tokens and kube-apiserver's RBAC authorizer, for the embedded API server. */
package dev.drainboard.cluster.apiserver.rbac;
