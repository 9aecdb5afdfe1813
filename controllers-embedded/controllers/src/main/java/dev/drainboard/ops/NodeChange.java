package dev.drainboard.ops;

/**
 * What a node operation did. {@code message} is kubectl's line for it ({@code node/node01 cordoned},
 * {@code node/node01 already uncordoned}, {@code node/node01 tainted}).
 */
public record NodeChange(String node, boolean changed, String message) {
}
