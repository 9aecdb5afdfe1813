package dev.drainboard.ui.vmis;

import dev.drainboard.ui.common.Badge;
import dev.drainboard.ui.model.VmiRow;

import java.time.Instant;
import java.time.ZoneId;

/**
 * The VMIs table's Evacuation cell: an eviction's mark ({@code from node02}), the countdown to the kubelet's kill
 * instead when the eviction is a node-pressure one ({@code kill in 42s}), or that the VMI was lost to it.
 *
 * @param text     the badge's text; empty when there is nothing to say
 * @param tip      the hover text
 * @param counting whether the text changes with time (the cell is redrawn every second)
 */
record EvacuationState(String text, Badge.Tone tone, String tip, boolean counting) {

    private static final EvacuationState NONE = new EvacuationState("", Badge.Tone.NEUTRAL, "", false);

    static EvacuationState of(VmiRow vmi, Instant now, ZoneId zone) {
        NodePressure pressure = NodePressure.of(vmi, now, zone);
        String from = vmi.markedForEvacuation() ? "from " + vmi.evacuationNode() : "";
        return switch (pressure.state()) {
            case LOST -> new EvacuationState(pressure.label(), Badge.Tone.DANGER, pressure.detail(), false);
            // The countdown alone fits the column; the node it leaves is in the Node column and the hover text.
            case RACING -> new EvacuationState(pressure.label(), Badge.Tone.WARNING, pressure.detail(), true);
            case NONE -> from.isEmpty() ? NONE : new EvacuationState(from, Badge.Tone.WARNING,
                    "Marked for evacuation: an eviction asked it to leave " + vmi.evacuationNode()
                            + "; KubeVirt live-migrates it away", false);
        };
    }

    /** Sorts lost first, then racing (nearest kill first), then marked, then the rest. */
    int rank() {
        return switch (tone) {
            case DANGER -> 3;
            case WARNING -> counting ? 2 : 1;
            default -> 0;
        };
    }
}
