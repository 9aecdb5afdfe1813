/**
 * Drainboard's drain history as the cluster keeps it: the {@code DrainRecord} custom resource
 * ({@code drainrecords.drainboard.dev}, see docs/drain.md "History").
 */
package dev.drainboard.history;
