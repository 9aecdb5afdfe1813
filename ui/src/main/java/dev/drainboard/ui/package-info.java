/**
 * The console's entry point and window: {@link dev.drainboard.ui.ConsoleApplication} starts it with
 * {@link dev.drainboard.ui.ConsoleOptions}, {@link dev.drainboard.ui.Console} shows the start screen until a
 * connection is made and then the shell over it. One subpackage per screen, with the shared parts beside them.
 */
package dev.drainboard.ui;
