/** The replica sets screen: VMI replica sets, their counts, why scaling does not happen, and scaling. */
package dev.drainboard.ui.replicasets;
