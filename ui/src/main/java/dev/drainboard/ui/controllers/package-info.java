/**
 * The control plane screen: this connection's mode, leadership, the eviction webhook, each controller's figures and
 * the KubeVirt configuration in force.
 */
package dev.drainboard.ui.controllers;
