package dev.drainboard.ui.maintenance;

import dev.drainboard.ui.model.MaintenancePlanRow;
import dev.drainboard.ui.model.MaintenancePlanRow.NodeLane;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Where the Gantt's bars go, in real seconds from the plan's start: per node its predicted bar and, once the plan
 * runs, its actual bars (draining, then the after-drain step) laid over it. No drawing here, so it is tested
 * without FX.
 */
final class GanttLayout {

    /** A stretch of a lane: what happened (or is predicted) from {@code start} to {@code end}, seconds. */
    record Bar(double start, double end, Kind kind) {
        double length() {
            return end - start;
        }
    }

    enum Kind { PREDICTED, DRAINING, AFTER_DRAIN, DONE, FAILED }

    /** One node's lane; {@code late} when its actual bar runs past the predicted end. */
    record Lane(NodeLane node, Bar predicted, List<Bar> actual, boolean late) {
    }

    /**
     * @param span      seconds the axis covers (the longest of prediction and reality, never zero)
     * @param now       seconds from the plan's start to now while it runs; null otherwise
     * @param tickStep  seconds between axis ticks
     */
    record Layout(List<Lane> lanes, double span, Double now, double tickStep) {
    }

    /** Ticks a person reads easily: 5, 10, 15, 30 s, 1, 2, 5, 10, 15, 30 min, 1, 2, 4, 6, 12 h. */
    private static final double[] STEPS = {5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 14400, 21600, 43200};

    private GanttLayout() {
    }

    static Layout of(MaintenancePlanRow plan, Instant now) {
        List<Lane> lanes = new ArrayList<>();
        double span = Math.max(plan.predictedSeconds(), 1);
        boolean running = plan.startedAt() != null && plan.finishedAt() == null && !plan.ended();
        for (NodeLane n : plan.nodes()) {
            Bar predicted = new Bar(n.predictedStartSeconds(), n.predictedStartSeconds() + n.predictedSeconds(), Kind.PREDICTED);
            span = Math.max(span, predicted.end());
            List<Bar> actual = new ArrayList<>();
            Double start = plan.realSecondsAt(n.startedAt());
            if (start != null) {
                boolean failed = "Failed".equals(n.phase());
                boolean done = "Done".equals(n.phase());
                Instant until = running ? now : plan.finishedAt();
                Double drained = plan.realSecondsAt(n.drainedAt());
                Double finished = plan.realSecondsAt(n.finishedAt());
                Double open = plan.realSecondsAt(until);
                double drainEnd = drained != null ? drained : finished != null ? finished : open != null ? open : start;
                actual.add(new Bar(start, Math.max(start, drainEnd), failed ? Kind.FAILED : done ? Kind.DONE : Kind.DRAINING));
                if (drained != null) {
                    double end = finished != null ? finished : open != null ? open : drained;
                    if (end > drained) {
                        actual.add(new Bar(drained, end, failed ? Kind.FAILED : done ? Kind.DONE : Kind.AFTER_DRAIN));
                    }
                }
            }
            double actualEnd = actual.stream().mapToDouble(Bar::end).max().orElse(0);
            span = Math.max(span, actualEnd);
            lanes.add(new Lane(n, predicted, List.copyOf(actual), !actual.isEmpty() && actualEnd > predicted.end() + 0.5));
        }
        Double nowSeconds = running ? plan.realSecondsAt(now) : null;
        if (nowSeconds != null) {
            span = Math.max(span, nowSeconds);
        }
        span *= 1.04; // room after the last bar for its end to be seen
        return new Layout(List.copyOf(lanes), span, nowSeconds, tickStep(span));
    }

    /** The smallest readable step that puts at most 8 ticks on the axis. */
    static double tickStep(double span) {
        for (double step : STEPS) {
            if (span / step <= 8) {
                return step;
            }
        }
        return Math.ceil(span / 8 / 86400) * 86400;
    }

    /** An axis label: "0", "30 s", "5 min", "1 h", "1 h 30". */
    static String tick(double seconds) {
        long s = Math.round(seconds);
        if (s == 0) {
            return "0";
        }
        if (s < 60) {
            return s + " s";
        }
        if (s < 3600) {
            return (s / 60) + " min" + (s % 60 == 0 ? "" : " " + s % 60 + " s");
        }
        long m = (s % 3600) / 60;
        return (s / 3600) + " h" + (m == 0 ? "" : String.format(" %02d", m));
    }
}
