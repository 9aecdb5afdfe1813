/**
 * Maintenance plans worked out before anything is written: the node order and each VM's targets so that a VM moves
 * once where possible ({@link dev.drainboard.ops.maintenance.MaintenancePlanDecision}), see docs/maintenance.md.
 */
package dev.drainboard.ops.maintenance;
