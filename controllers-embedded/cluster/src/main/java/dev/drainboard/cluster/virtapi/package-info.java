/**
 * KubeVirt's admission as virt-api does it, in-process: the VMI, VM and VMIM mutating webhooks' defaults and the
 * validating webhooks' refusals, with the webhook names KubeVirt registers and kube-apiserver's wording of a denial.
 * The decisions are pure ({@code VmiDefaults}, {@code VmiSpecValidation}, {@code VmiUpdateDecision},
 * {@code MigrationCreateDecision}, {@code VmReferences}); {@code VirtApi} is the glue the API server calls.
 */
package dev.drainboard.cluster.virtapi;
