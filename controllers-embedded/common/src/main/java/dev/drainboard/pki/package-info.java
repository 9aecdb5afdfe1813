/**
 * A small certificate authority and what it issues: the embedded API server's and the eviction webhook's serving
 * certificates, the client certificate the embedded API server presents to webhooks, tokens, kubeconfigs, clients that
 * trust them, and CA bundles read strictly ({@link dev.drainboard.pki.CaCertificates}).
 */
package dev.drainboard.pki;
