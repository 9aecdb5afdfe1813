package dev.drainboard.ops;

/**
 * Told of every change of a drain, on the drain's own thread: return quickly and re-dispatch (a UI hands the
 * snapshot to its UI thread).
 */
@FunctionalInterface
public interface DrainListener {
    void onProgress(DrainProgress progress);
}
