/**
 * The drain dialog: {@link dev.drainboard.ui.drain.DrainDialogModel} is its workflow (options, preview, run, end
 * state) without the FX toolkit, reaching the cluster through {@link dev.drainboard.ui.drain.DrainBackend};
 * {@link dev.drainboard.ui.drain.DrainDialog} lays it out and binds to it; the tables' cells and the node bars are
 * classes of their own; {@link dev.drainboard.ui.drain.DrainSummary} holds the words, colours and sums.
 */
package dev.drainboard.ui.drain;
