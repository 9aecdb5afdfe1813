package dev.drainboard.scheduling.archfixture;

import dev.drainboard.architecture.Pure;

import java.time.Duration;
import java.time.Instant;

/** Fixture for CommonArchitectureRulesTest: a pure decision, given "now". */
@Pure
public final class GoodDecision {

    private GoodDecision() {
    }

    public static boolean expired(Instant deadline, Instant now) {
        return now.isAfter(deadline.plus(Duration.ofSeconds(1)));
    }
}
