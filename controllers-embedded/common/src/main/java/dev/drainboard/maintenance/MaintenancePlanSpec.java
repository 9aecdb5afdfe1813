package dev.drainboard.maintenance;

import com.fasterxml.jackson.annotation.JsonInclude;

import dev.drainboard.units.GoDurations;

import java.time.Duration;
import java.util.List;

/**
 * What to maintain and how.
 *
 * @param nodes          the nodes by name (or {@code nodeSelector})
 * @param nodeSelector   a label selector in kubectl's syntax ({@code role=worker,zone in (a,b)}), read when the plan starts
 * @param maxUnavailable how many nodes are drained at once (≥ 1; null: 1)
 * @param afterDrain     what happens to a node once drained, before it is uncordoned (null: nothing)
 * @param action         {@link Action#Run} (null), {@link Action#Pause} or {@link Action#Abort}; patched to pause, resume, abort
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record MaintenancePlanSpec(List<String> nodes, String nodeSelector, Integer maxUnavailable, AfterDrain afterDrain,
                                  Action action) {

    public MaintenancePlanSpec {
        nodes = nodes == null ? null : List.copyOf(nodes);
    }

    public enum Action { Run, Pause, Abort }

    /**
     * @param type       what to do
     * @param pause      for {@link Type#Pause}: a Go duration ({@code 10m}, {@code 1h30m})
     * @param annotation for {@link Type#WaitForAnnotation}: the key that something outside (an upgrade, a reboot) puts
     *                   on the node when it is ready to be uncordoned
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record AfterDrain(Type type, String pause, String annotation) {

        public enum Type { None, Pause, WaitForAnnotation }

        public static AfterDrain none() {
            return new AfterDrain(Type.None, null, null);
        }

        public static AfterDrain pause(Duration d) {
            return new AfterDrain(Type.Pause, GoDurations.format(d.toNanos()), null);
        }

        public static AfterDrain waitForAnnotation(String key) {
            return new AfterDrain(Type.WaitForAnnotation, null, key);
        }

        public Type typeOrNone() {
            return type == null ? Type.None : type;
        }

        /** The pause of a {@link Type#Pause}; zero otherwise. */
        public Duration pauseDuration() {
            return typeOrNone() == Type.Pause && pause != null ? GoDurations.parse(pause) : Duration.ZERO;
        }
    }

    public int maxUnavailableOrDefault() {
        return maxUnavailable == null ? 1 : maxUnavailable;
    }

    public AfterDrain afterDrainOrNone() {
        return afterDrain == null ? AfterDrain.none() : afterDrain;
    }

    public Action actionOrRun() {
        return action == null ? Action.Run : action;
    }

    /**
     * What is wrong with it, or null: the reasons the leader (and {@code drainboard maintain}) refuse it with, so a
     * plan never starts half-understood.
     */
    public String invalidBecause() {
        boolean byName = nodes != null && !nodes.isEmpty();
        boolean bySelector = nodeSelector != null && !nodeSelector.isBlank();
        if (byName == bySelector) {
            return "spec.nodes or spec.nodeSelector must be given (one of them)";
        }
        if (maxUnavailable != null && maxUnavailable < 1) {
            return "spec.maxUnavailable must be at least 1, not " + maxUnavailable;
        }
        AfterDrain after = afterDrainOrNone();
        if (after.typeOrNone() == AfterDrain.Type.Pause) {
            if (after.pause() == null) {
                return "spec.afterDrain.pause is required for type Pause";
            }
            try {
                GoDurations.parse(after.pause());
            } catch (IllegalArgumentException e) {
                return "spec.afterDrain.pause: " + e.getMessage();
            }
        }
        if (after.typeOrNone() == AfterDrain.Type.WaitForAnnotation && (after.annotation() == null || after.annotation().isBlank())) {
            return "spec.afterDrain.annotation is required for type WaitForAnnotation";
        }
        return null;
    }
}
