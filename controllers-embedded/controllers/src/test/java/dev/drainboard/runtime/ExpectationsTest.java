package dev.drainboard.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.function.Consumer;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

class ExpectationsTest {

    private final FakeTicker ticker = new FakeTicker();
    private final Expectations<String> expectations = new Expectations<>(ticker, Expectations.DEFAULT_TTL);

    static Stream<Arguments> histories() {
        return Stream.<Arguments>of(
                row("nothing expected", e -> { }, true),
                row("2 creations expected, none seen", e -> e.expectCreations("k", 2), false),
                row("2 creations expected, 1 seen", e -> {
                    e.expectCreations("k", 2);
                    e.creationObserved("k");
                }, false),
                row("2 creations expected, 2 seen", e -> {
                    e.expectCreations("k", 2);
                    e.creationObserved("k");
                    e.creationObserved("k");
                }, true),
                row("more seen than expected (another writer)", e -> {
                    e.expectCreations("k", 1);
                    e.creationObserved("k");
                    e.creationObserved("k");
                }, true),
                row("2 creations expected, 1 seen, 1 create failed", e -> {
                    e.expectCreations("k", 2);
                    e.creationObserved("k");
                    e.lowerExpectations("k", 1, 0);
                }, true),
                row("1 deletion expected, none seen", e -> e.expectDeletions("k", 1), false),
                row("1 deletion expected, seen", e -> {
                    e.expectDeletions("k", 1);
                    e.deletionObserved("k");
                }, true),
                row("a creation seen does not satisfy a deletion", e -> {
                    e.expectDeletions("k", 1);
                    e.creationObserved("k");
                }, false),
                row("raised by a second batch", e -> {
                    e.expectCreations("k", 1);
                    e.raiseExpectations("k", 2, 0);
                    e.creationObserved("k");
                    e.creationObserved("k");
                }, false),
                row("expectations deleted with the object", e -> {
                    e.expectCreations("k", 3);
                    e.delete("k");
                }, true),
                row("observations for a key with nothing expected are ignored", e -> {
                    e.creationObserved("k");
                    e.expectCreations("k", 1);
                }, false),
                row("other keys do not count", e -> {
                    e.expectCreations("k", 1);
                    e.creationObserved("other");
                }, false));
    }

    private static Arguments row(String name, Consumer<Expectations<String>> history, boolean satisfied) {
        return Arguments.of(name, history, satisfied);
    }

    @ParameterizedTest(name = "{0} → satisfied: {2}")
    @MethodSource("histories")
    void satisfiedOnlyWhenEverythingExpectedWasSeen(String name, Consumer<Expectations<String>> history, boolean satisfied) {
        history.accept(expectations);
        assertThat(expectations.satisfied("k")).isEqualTo(satisfied);
    }

    @Test
    void anExpectationOlderThanFiveMinutesCountsAsSatisfied() {
        expectations.expectCreations("k", 1);
        ticker.advance(Duration.ofMinutes(5));
        assertThat(expectations.satisfied("k")).isFalse();
        ticker.advance(Duration.ofMillis(1));
        assertThat(expectations.satisfied("k")).as("a lost watch event must not wedge the key").isTrue();
    }

    @Test
    void loweringDoesNotExtendTheLifeButRaisingDoes() {
        expectations.expectCreations("k", 3);
        ticker.advance(Duration.ofMinutes(4));
        expectations.creationObserved("k");
        ticker.advance(Duration.ofMinutes(2));
        assertThat(expectations.satisfied("k")).isTrue();

        expectations.expectCreations("j", 1);
        ticker.advance(Duration.ofMinutes(4));
        expectations.raiseExpectations("j", 1, 0);
        ticker.advance(Duration.ofMinutes(2));
        assertThat(expectations.satisfied("j")).isFalse();
        assertThat(expectations.pending("j")).hasValueSatisfying(p -> assertThat(p.creations()).isEqualTo(2));
    }
}
