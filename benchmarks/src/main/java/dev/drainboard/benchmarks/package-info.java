/**
 * Benchmarks that print the figures docs/benchmarks.md records (API server, webhook, control plane, drains, cold CLI drain, replica sets, node pressure); never run as tests, each has a smoke test.
 */
package dev.drainboard.benchmarks;
