/**
 * End-to-end tests with the real {@code kubectl} that need the controllers too: drains paced by the eviction
 * webhook, replica sets scaled from kubectl.
 */
package dev.drainboard.cluster.e2e;
