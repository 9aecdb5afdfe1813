package dev.drainboard.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RateLimitersTest {

    @ParameterizedTest(name = "retry after {0} failures waits {1} ms")
    @CsvSource({
            "0, 5",
            "1, 10",
            "2, 20",
            "10, 5120",
            "17, 655360",
            "18, 1000000",   // 1310.72 s, capped at 1000 s
            "62, 1000000",
            "200, 1000000",  // no overflow however long a key keeps failing
    })
    void exponentialBackoffDoublesFromFiveMillisUpToThousandSeconds(int previousFailures, long expectedMillis) {
        var limiter = new ExponentialBackoffRateLimiter<String>(RateLimiters.BACKOFF_BASE, RateLimiters.BACKOFF_MAX);
        for (int i = 0; i < previousFailures; i++) {
            limiter.when("k");
        }
        assertThat(limiter.when("k")).isEqualTo(Duration.ofMillis(expectedMillis));
        assertThat(limiter.numRequeues("k")).isEqualTo(previousFailures + 1);
    }

    @Test
    void backoffIsPerKeyAndForgetResetsIt() {
        var limiter = new ExponentialBackoffRateLimiter<String>(RateLimiters.BACKOFF_BASE, RateLimiters.BACKOFF_MAX);
        limiter.when("a");
        limiter.when("a");
        assertThat(limiter.when("b")).isEqualTo(Duration.ofMillis(5));

        limiter.forget("a");
        assertThat(limiter.numRequeues("a")).isZero();
        assertThat(limiter.when("a")).isEqualTo(Duration.ofMillis(5));
    }

    @ParameterizedTest(name = "reservation #{0} after {1} ms waits {2} ms")
    @CsvSource({
            "1, 0, 0",
            "100, 0, 0",      // the burst
            "101, 0, 100",    // then one token per 100 ms at 10 qps
            "102, 0, 200",
            "110, 0, 1000",
            "101, 100, 0",    // 100 ms later one token is back
            "110, 1000, 0",   // a second later ten are back: they pay off the nine reserved ahead, then this one
            "111, 1000, 100",
    })
    void tokenBucketAllowsTheBurstThenTenPerSecond(int reservation, long elapsedMillis, long expectedWaitMillis) {
        FakeTicker ticker = new FakeTicker();
        var bucket = new TokenBucketRateLimiter<String>(RateLimiters.OVERALL_QPS, RateLimiters.OVERALL_BURST, ticker);
        for (int i = 1; i < reservation; i++) {
            bucket.when("k" + i);
        }
        ticker.advance(Duration.ofMillis(elapsedMillis));
        assertThat(bucket.when("last")).isEqualTo(Duration.ofMillis(expectedWaitMillis));
    }

    @Test
    void tokenBucketNeverHoldsMoreThanTheBurst() {
        FakeTicker ticker = new FakeTicker();
        var bucket = new TokenBucketRateLimiter<String>(10, 100, ticker);
        ticker.advance(Duration.ofHours(1));
        for (int i = 0; i < 100; i++) {
            assertThat(bucket.when("k")).isZero();
        }
        assertThat(bucket.when("k")).isEqualTo(Duration.ofMillis(100));
    }

    @Test
    void theDefaultTakesTheLongerOfBackoffAndOverallLimit() {
        FakeTicker ticker = new FakeTicker();
        RateLimiter<String> limiter = RateLimiters.controllerDefault(ticker);

        assertThat(limiter.when("a")).as("back-off wins while the bucket is full").isEqualTo(Duration.ofMillis(5));
        for (int i = 0; i < 99; i++) {
            limiter.when("other-" + i); // empties the bucket
        }
        assertThat(limiter.when("fresh")).as("the overall limit wins for a fresh key once the bucket is empty")
                .isEqualTo(Duration.ofMillis(100));
        assertThat(limiter.numRequeues("a")).isEqualTo(1);
        limiter.forget("a");
        assertThat(limiter.numRequeues("a")).isZero();
    }
}
