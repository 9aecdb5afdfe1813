/**
 * The KubeVirt CR's {@code spec.configuration} with KubeVirt's defaults filled in ({@link
 * dev.drainboard.kubevirt.config.ClusterConfig}), and the live source that follows the CR.
 */
package dev.drainboard.kubevirt.config;
