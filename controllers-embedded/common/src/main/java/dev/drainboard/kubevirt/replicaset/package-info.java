/**
 * A VMI replica set's selector and spec, checked as KubeVirt's VMIRS validation checks them: shared by the
 * replica-set controller and the embedded cluster's admission.
 */
package dev.drainboard.kubevirt.replicaset;
