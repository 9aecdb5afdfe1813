/**
 * The History view: the drains, evacuations and cancelled migrations the cluster has recorded, with their exports
 * (JSON, Markdown). {@link dev.drainboard.ui.history.HistoryViewModel} holds the logic, the view only shows it.
 */
package dev.drainboard.ui.history;
