/**
 * The VM controller: keeps a VM's VMI in line with its run strategy ({@link
 * dev.drainboard.controller.vm.VmDecision}) and writes the VM's status.
 */
package dev.drainboard.controller.vm;
