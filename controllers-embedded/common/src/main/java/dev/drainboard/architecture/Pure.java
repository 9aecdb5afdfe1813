package dev.drainboard.architecture;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a pure decision: objects in, an answer out, nothing read or written on the way. A class carrying it (and
 * every class nested in it) uses no Kubernetes client and reads no clock of its own: "now" is one of its inputs,
 * so the same table rows give the same answers in a test, in the drain preview and in the reconcile loop.
 * {@code CommonArchitectureTest} checks both, and that every {@code *Decision} class of the control plane, the
 * embedded cluster and common carries the mark (docs/architecture.md, "Pure decisions").
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.TYPE)
public @interface Pure {
}
