package dev.drainboard.scheduling.archfixture;

/** Fixture for CommonArchitectureRulesTest: a decision without the @Pure mark. */
public final class UnmarkedDecision {

    private UnmarkedDecision() {
    }

    public static int decide(int input) {
        return input * 2;
    }
}
