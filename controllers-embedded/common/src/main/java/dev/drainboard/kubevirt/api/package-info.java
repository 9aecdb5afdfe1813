/**
 * KubeVirt's API types (kubevirt.io/v1) as fabric8 custom resources: VMs, VMIs, VMIMs, VMI replica sets and the
 * KubeVirt CR, with the fields the drain path reads and the rest kept as they came.
 */
package dev.drainboard.kubevirt.api;
