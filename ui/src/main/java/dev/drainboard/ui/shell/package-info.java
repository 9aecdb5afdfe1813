/**
 * The frame once connected: navigation, the current {@link dev.drainboard.ui.shell.ConsoleView} with its header,
 * the status bar, the command palette (Ctrl+K) and the light/dark theme.
 */
package dev.drainboard.ui.shell;
