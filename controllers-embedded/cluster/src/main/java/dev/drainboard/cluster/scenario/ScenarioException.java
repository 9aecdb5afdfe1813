package dev.drainboard.cluster.scenario;

/** A scenario that cannot be loaded; the message names the file, the document and the reason. */
public final class ScenarioException extends Exception {
    public ScenarioException(String message) {
        super(message);
    }
}
