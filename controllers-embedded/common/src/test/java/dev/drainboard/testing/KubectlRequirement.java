package dev.drainboard.testing;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The one place the tests of this module ask for the real kubectl. A test class or method that runs kubectl carries
 * {@link RequiresKubectl}, so JUnit reports each of its tests skipped where kubectl is missing (an assumption that
 * fails in {@code @BeforeAll} would leave surefire reporting no test at all); code that starts kubectl also calls
 * {@link #require()} as a guard. Tests that need no kubectl never ask, so they run on a machine without it.
 *
 * <p>Where kubectl is missing the kubectl tests are skipped, unless the environment variable
 * {@value #REQUIRE_VARIABLE} is {@code 1} or {@code true} (CI's {@code .ci/run} exports it): then they fail.
 * {@value #PATH_VARIABLE} names another kubectl than {@code /usr/bin/kubectl} (or a missing one, to check what
 * happens without it).
 */
public final class KubectlRequirement implements ExecutionCondition {

    /** Environment variable: a missing kubectl fails the kubectl tests instead of skipping them. */
    public static final String REQUIRE_VARIABLE = "DRAINBOARD_REQUIRE_KUBECTL";
    /** Environment variable: the kubectl binary the tests run (default {@code /usr/bin/kubectl}). */
    public static final String PATH_VARIABLE = "DRAINBOARD_KUBECTL";
    /** Where the README and {@code .ci/run} expect kubectl v1.32. */
    public static final Path DEFAULT_BINARY = Path.of("/usr/bin/kubectl");

    /** For JUnit, through {@link RequiresKubectl}. */
    public KubectlRequirement() {
    }

    /**
     * {@link RequiresKubectl}: the class or method runs where kubectl is installed, is disabled (reported skipped)
     * where it is missing, and fails where it is missing and {@value #REQUIRE_VARIABLE} is set.
     */
    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
        if (isInstalled()) {
            return ConditionEvaluationResult.enabled("kubectl is installed at " + binary());
        }
        if (isRequired()) {
            throw new AssertionError(missing() + ", and " + REQUIRE_VARIABLE + " is set: the kubectl tests must run");
        }
        return ConditionEvaluationResult.disabled(missing() + " (set " + REQUIRE_VARIABLE + "=1 to fail instead of skipping)");
    }

    /** The kubectl the tests run: {@value #PATH_VARIABLE}, or {@code /usr/bin/kubectl}. */
    public static Path binary() {
        String configured = System.getenv(PATH_VARIABLE);
        return configured == null || configured.isBlank() ? DEFAULT_BINARY : Path.of(configured);
    }

    public static boolean isInstalled() {
        return Files.isExecutable(binary());
    }

    /** {@value #REQUIRE_VARIABLE} is set to {@code 1} or {@code true}. */
    public static boolean isRequired() {
        String value = System.getenv(REQUIRE_VARIABLE);
        return value != null && (value.trim().equals("1") || value.trim().equalsIgnoreCase("true"));
    }

    /**
     * For a test that runs kubectl: the binary. Where it is missing, aborts the test (JUnit reports it skipped), or
     * fails it with an {@link AssertionError} when {@value #REQUIRE_VARIABLE} is set.
     */
    public static Path require() {
        if (!isInstalled()) {
            if (isRequired()) {
                throw new AssertionError(missing() + ", and " + REQUIRE_VARIABLE + " is set: the kubectl tests must run");
            }
            Assumptions.abort(missing() + " (set " + REQUIRE_VARIABLE + "=1 to fail instead of skipping)");
        }
        return binary();
    }

    /**
     * For a test whose subject needs no kubectl but that also checks what kubectl shows: the binary, or empty where
     * it is missing (that check is left out). Fails the test instead when {@value #REQUIRE_VARIABLE} is set.
     */
    public static Optional<Path> ifInstalled() {
        if (isInstalled()) {
            return Optional.of(binary());
        }
        if (isRequired()) {
            throw new AssertionError(missing() + ", and " + REQUIRE_VARIABLE + " is set: the kubectl checks must run");
        }
        return Optional.empty();
    }

    private static String missing() {
        return "kubectl is not installed at " + binary()
                + (System.getenv(PATH_VARIABLE) == null ? "" : " (from " + PATH_VARIABLE + ")");
    }
}
