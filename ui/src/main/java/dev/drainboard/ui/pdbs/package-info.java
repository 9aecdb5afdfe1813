/** The PDBs screen: pod disruption budgets, what they select and what they allow now. */
package dev.drainboard.ui.pdbs;
