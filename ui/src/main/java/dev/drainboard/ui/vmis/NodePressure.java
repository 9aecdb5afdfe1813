package dev.drainboard.ui.vmis;

import dev.drainboard.ui.common.Badge;
import dev.drainboard.ui.common.Formats;
import dev.drainboard.ui.model.VmiRow;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Locale;

/**
 * What the console says about a VMI and node-pressure eviction (issue 8): nothing; racing the kubelet (the launcher
 * was signalled, KubeVirt migrates the VM before the kill at a known time, shown as a countdown); or lost (killed
 * before its migration finished, with the node handler's message verbatim). A pure function of the row and the time.
 *
 * @param label   the badge's text ({@code kill in 42s}, {@code Lost to node pressure}); empty for NONE
 * @param detail  the hover text and the details pane's line
 */
public record NodePressure(State state, String label, String detail) {

    public enum State { NONE, RACING, LOST }

    private static final NodePressure NONE = new NodePressure(State.NONE, "", "");
    private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm:ss", Locale.ROOT);

    /** @param zone the zone the operator reads times in */
    public static NodePressure of(VmiRow vmi, Instant now, ZoneId zone) {
        if (vmi.isLostToNodePressure()) {
            return new NodePressure(State.LOST, "Lost to node pressure", vmi.lostToNodePressure());
        }
        String raw = vmi.nodePressureDeadline();
        if (raw.isEmpty()) {
            return NONE;
        }
        String where = vmi.node().isEmpty() ? "its node" : vmi.node();
        Instant kill;
        try {
            kill = Instant.parse(raw);
        } catch (DateTimeParseException e) {
            return new NodePressure(State.RACING, "Node pressure",
                    "Evicted from " + where + " by the kubelet (node-pressure eviction): live-migrating before the kill; "
                            + "kill time unreadable: " + raw);
        }
        Duration left = Duration.between(now, kill);
        // Rounded up: "kill in 1s" until the very moment, then "kill due".
        long seconds = (left.toMillis() + 999) / 1000;
        String label = seconds > 0 ? "kill in " + Formats.duration(Duration.ofSeconds(seconds)) : "kill due";
        return new NodePressure(State.RACING, label,
                "Evicted from " + where + " by the kubelet (node-pressure eviction): live-migrating before the kubelet "
                        + "kills its launcher at " + CLOCK.format(kill.atZone(zone))
                        + (vmi.migration().isEmpty() ? "" : " · migration " + vmi.migration()));
    }

    public Badge.Tone tone() {
        return switch (state) {
            case LOST -> Badge.Tone.DANGER;
            case RACING -> Badge.Tone.WARNING;
            case NONE -> Badge.Tone.NEUTRAL;
        };
    }

    /** The details pane's line: the state without the ticking countdown (facts are not redrawn every second). */
    public String fact() {
        return switch (state) {
            case NONE -> "not affected";
            case RACING, LOST -> detail;
        };
    }
}
