package dev.drainboard.ui.model;

/** What the node list shows of one node. */
public record NodeRow(String name, String status, String roles, boolean schedulable, String version) {
}
