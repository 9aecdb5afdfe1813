/** The VirtualMachines view: run strategy and status at a glance, start, stop and restart through virt-api. */
package dev.drainboard.ui.vms;
