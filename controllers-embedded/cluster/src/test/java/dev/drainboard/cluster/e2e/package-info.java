/**
 * End-to-end tests of the embedded cluster with the real {@code kubectl}: everyday commands, drains, custom
 * resources, bad input, and validating webhooks on evictions.
 */
package dev.drainboard.cluster.e2e;
