package dev.drainboard.cluster.apiserver.store;

/**
 * Receives a subscription's events. Called while the store holds its write lock, so that every
 * subscriber sees changes in commit order: implementations only hand the event on, never block.
 */
public interface WatchSink {

    void onEvent(WatchEvent event);

    /** A bookmark: everything up to this resourceVersion has been delivered. */
    default void onBookmark(long resourceVersion) {
    }
}
