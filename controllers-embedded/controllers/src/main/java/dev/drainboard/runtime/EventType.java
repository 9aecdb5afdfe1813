package dev.drainboard.runtime;

/** The two core/v1 Event types. */
public enum EventType {
    Normal, Warning
}
