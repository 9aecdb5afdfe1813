package dev.drainboard.cluster.scenario;

import com.fasterxml.jackson.databind.node.ObjectNode;

/** One object of a scenario and where it came from, for error messages. */
public record ScenarioDocument(String source, int documentNumber, ObjectNode object) {

    public String where() {
        return source + ": document " + documentNumber;
    }
}
