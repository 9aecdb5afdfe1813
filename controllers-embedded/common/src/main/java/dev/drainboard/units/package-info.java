/**
 * Kubernetes' text units: Go durations ({@code 1m30s}) and resource quantities ({@code 512Mi}), read and
 * written as Go and apimachinery do.
 */
package dev.drainboard.units;
