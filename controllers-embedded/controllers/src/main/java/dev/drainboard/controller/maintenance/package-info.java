/**
 * The executor of maintenance plans ({@code maintenanceplans.drainboard.dev}, docs/maintenance.md): while this
 * process leads, a thin loop follows each plan's status node by node. What it does to the cluster goes through
 * {@link dev.drainboard.controller.maintenance.MaintenanceActions} (the planner and the drain code of {@code ops},
 * wired in by the control plane), so this package stays below {@code ops}.
 */
package dev.drainboard.controller.maintenance;
