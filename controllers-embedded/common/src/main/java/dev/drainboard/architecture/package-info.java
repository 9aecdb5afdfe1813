/**
 * What the architecture rules read in the code: {@link dev.drainboard.architecture.Pure} marks the pure decisions,
 * which the shared ArchUnit rules (in this module's test jar) hold to using neither the Kubernetes client nor the clock.
 */
package dev.drainboard.architecture;
