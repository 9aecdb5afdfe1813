package dev.drainboard.runtime;

/**
 * A monotonic time source in nanoseconds. The queue, rate limiters, expectations and figures
 * read time only through this, so tests can drive them with a hand-moved clock instead of sleeping.
 */
@FunctionalInterface
public interface Ticker {

    long nanoTime();

    static Ticker system() {
        return System::nanoTime;
    }
}
