/**
 * The operator's actions on the cluster (cordon, drain, taint, evict, migrate, scale, cancel): {@link
 * dev.drainboard.ui.actions.ClusterActions} runs ops' blocking calls off the FX thread, and {@link
 * dev.drainboard.ui.actions.Permissions} says, per connection, which of them the credentials allow.
 */
package dev.drainboard.ui.actions;
