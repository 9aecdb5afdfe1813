package dev.drainboard.cluster.apiserver.store;

import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.List;

/**
 * A page of a list. {@code nextKey} is the storage key to continue after, or null on the last page.
 */
public record ListPage(List<ObjectNode> items, long resourceVersion, String nextKey, long remainingItemCount) {
}
