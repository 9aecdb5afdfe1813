/**
 * Checks of what ships beside the code: packaging/rbac.yaml grants every request the control plane makes in a real drain.
 */
package dev.drainboard.packaging;
