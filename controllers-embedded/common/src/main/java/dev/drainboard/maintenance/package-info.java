/**
 * Drainboard's maintenance plans as the cluster keeps them: the {@code MaintenancePlan} custom resource
 * ({@code maintenanceplans.drainboard.dev}, see docs/maintenance.md): a rolling drain of many nodes that the leader of
 * the controllers executes.
 */
package dev.drainboard.maintenance;
