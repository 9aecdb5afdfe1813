package dev.drainboard.ui.drain;

import dev.drainboard.ops.DrainProgress;
import dev.drainboard.ui.common.Badge;

/**
 * One node's line while it drains, as its bar shows it: the state badge, the bar and the line under it.
 *
 * @param fraction the bar's progress; negative: indeterminate
 * @param bar      the bar's colour
 */
public record NodeStatus(String node, String state, Badge.Tone tone, double fraction, Bar bar, String line) {

    /** The bar's colour: plain while it runs or when cancelled, green once drained, red after a failure. */
    public enum Bar { PLAIN, SUCCESS, DANGER }

    /** Before the drain's first word on this node. */
    public static NodeStatus starting(String node) {
        return new NodeStatus(node, "Starting", Badge.Tone.ACCENT, -1, Bar.PLAIN, "");
    }

    public static NodeStatus of(DrainProgress p) {
        DrainSummary.EndState s = DrainSummary.endState(p);
        String state = s == DrainSummary.EndState.RUNNING ? switch (p.phase()) {
            case PREPARING -> "Preparing";
            case CORDONING -> "Cordoning";
            default -> "Draining";
        } : s.label();
        Bar bar = switch (s) {
            case DRAINED -> Bar.SUCCESS;
            case FAILED, TIMED_OUT -> Bar.DANGER;
            case RUNNING, CANCELLED, STRANDED -> Bar.PLAIN;
        };
        return new NodeStatus(p.node(), state, DrainSummary.endTone(s), DrainSummary.fraction(p), bar, DrainSummary.nodeLine(p));
    }
}
