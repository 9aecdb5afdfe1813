package dev.drainboard.runtime;

/**
 * One controller's decision loop for one key: read the caches, decide, write. A thrown exception
 * is treated as {@link Result#error}. The loop never calls it for the same key on two threads at once.
 */
@FunctionalInterface
public interface Reconciler<K> {

    Result reconcile(K key) throws Exception;
}
