/**
 * Validating admission webhooks as kube-apiserver calls them: rule and namespace matching, timeouts, failure
 * policy, dry run, and denials in kube-apiserver's words.
 */
package dev.drainboard.cluster.apiserver.admission;
