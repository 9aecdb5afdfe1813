/**
 * The base of the list screens (nodes, VMIs, migrations, PDBs, replica sets, events): {@link
 * dev.drainboard.ui.lists.ListScreen} wires a live table to the shell and to a kind of row's actions, so each screen
 * declares only its columns, facts, row styles and actions.
 */
package dev.drainboard.ui.lists;
