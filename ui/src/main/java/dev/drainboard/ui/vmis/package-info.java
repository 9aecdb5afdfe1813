/**
 * The VMIs screen: every VMI and how a drain treats it (eviction strategy, migratability, PDB), with the evacuation
 * and node-pressure state in a column of its own, and the VMI actions (evict, migrate, cancel evacuation).
 */
package dev.drainboard.ui.vmis;
