/**
 * A small certificate authority and what it issues: the embedded API server's and the eviction webhook's serving
 * certificates, tokens, kubeconfigs, and clients that trust them.
 */
package dev.drainboard.pki;
