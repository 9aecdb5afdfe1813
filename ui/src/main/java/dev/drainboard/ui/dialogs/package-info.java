/**
 * Where an operator's action starts and is confirmed: {@link dev.drainboard.ui.dialogs.ActionCenter} holds each
 * kind of row's {@link dev.drainboard.ui.dialogs.ActionSet} (toolbar, keys, context menu) and shows the confirm,
 * taint and scale dialogs and the actions' outcomes.
 */
package dev.drainboard.ui.dialogs;
