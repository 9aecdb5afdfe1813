/**
 * KubeVirt's disruption budget controller as it was up to v1.5
 * ({@code pkg/virt-controller/watch/drain/disruptionbudget/disruptionbudget.go} at v1.5.0; docs/behaviour.md, "One
 * PodDisruptionBudget per VMI"): one PDB with
 * {@code minAvailable: 1} per VMI that needs protection ({@link
 * dev.drainboard.controller.disruptionbudget.DisruptionBudgetDecision}, pure), applied by {@link
 * dev.drainboard.controller.disruptionbudget.DisruptionBudgetController}.
 */
package dev.drainboard.controller.disruptionbudget;
