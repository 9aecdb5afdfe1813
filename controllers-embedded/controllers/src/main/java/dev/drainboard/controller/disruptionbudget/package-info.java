/**
 * KubeVirt's disruption budget controller as it was up to v1.5 (seed 000, spec §3.2 history): one PDB with
 * {@code minAvailable: 1} per VMI that needs protection ({@link
 * dev.drainboard.controller.disruptionbudget.DisruptionBudgetDecision}, pure), applied by {@link
 * dev.drainboard.controller.disruptionbudget.DisruptionBudgetController}.
 */
package dev.drainboard.controller.disruptionbudget;
