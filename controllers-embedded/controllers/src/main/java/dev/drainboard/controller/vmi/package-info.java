/**
 * The VMI controller: creates and retires a VMI's launcher pod and moves the VMI's phase and conditions with it
 * ({@link dev.drainboard.controller.vmi.VmiDecision}); the launcher pod's template is {@link dev.drainboard.controller.vmi.LauncherPods}.
 */
package dev.drainboard.controller.vmi;
