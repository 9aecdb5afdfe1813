package dev.drainboard.testing;

import org.junit.jupiter.api.extension.ExtendWith;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * On a test class or method that runs kubectl: where kubectl is missing it is reported skipped (JUnit's
 * "disabled", which surefire counts, unlike an assumption that fails in {@code @BeforeAll}), or fails when
 * {@value KubectlRequirement#REQUIRE_VARIABLE} is set. See {@link KubectlRequirement}.
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@ExtendWith(KubectlRequirement.class)
public @interface RequiresKubectl {
}
