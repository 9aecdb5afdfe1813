/**
 * The informers the controllers share (VMIs, VMs, VMIMs, pods, replica sets, with their indexes), and
 * {@link dev.drainboard.controller.informers.FreshMigrations}: the VMIM cache plus this process's own writes it does not show yet.
 */
package dev.drainboard.controller.informers;
