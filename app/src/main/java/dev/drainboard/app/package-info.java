/**
 * The {@code drainboard} command: picocli entry point and subcommands (ui, serve, controllers, drain, cordon, taint, scale, …) and the AOT training run the build records.
 */
package dev.drainboard.app;
