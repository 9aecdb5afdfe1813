/**
 * Connecting: kubeconfig contexts, the embedded cluster, the connection mode, and the errors an operator can act
 * on. {@link dev.drainboard.ui.connect.Connector} makes a {@link dev.drainboard.ui.connect.Session} (client, live
 * model, embedded cluster) off the FX thread.
 */
package dev.drainboard.ui.connect;
