/**
 * KubeVirt's and Drainboard's own CustomResourceDefinitions, and their installation where a cluster lacks them (the embedded one).
 */
package dev.drainboard.kubevirt.crd;
