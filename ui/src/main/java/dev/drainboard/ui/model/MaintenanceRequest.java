package dev.drainboard.ui.model;

import dev.drainboard.maintenance.MaintenancePlanSpec;

import java.util.List;

/**
 * A maintenance plan as the operator asked for it in the console: the spec of a {@code MaintenancePlan}
 * (controllers-embedded/common/src/main/resources/drainboard/crds/maintenanceplans.drainboard.dev.yaml). Either {@code nodes} or {@code selector} is set.
 *
 * @param afterDrain  None, Pause or WaitForAnnotation
 * @param pause       a Go duration ("10m", "1h30m") when Pause
 * @param annotation  the annotation key that says the node may be uncordoned, when WaitForAnnotation
 */
public record MaintenanceRequest(List<String> nodes, String selector, int maxUnavailable, String afterDrain,
                                 String pause, String annotation) {

    public MaintenanceRequest {
        nodes = List.copyOf(nodes);
        selector = selector == null ? "" : selector;
        afterDrain = afterDrain == null ? "None" : afterDrain;
        pause = pause == null ? "" : pause;
        annotation = annotation == null ? "" : annotation;
    }

    /** The plan's spec (action Run). */
    public MaintenancePlanSpec spec() {
        MaintenancePlanSpec.AfterDrain after = switch (afterDrain) {
            case "Pause" -> new MaintenancePlanSpec.AfterDrain(MaintenancePlanSpec.AfterDrain.Type.Pause, pause, null);
            case "WaitForAnnotation" -> MaintenancePlanSpec.AfterDrain.waitForAnnotation(annotation);
            default -> MaintenancePlanSpec.AfterDrain.none();
        };
        return new MaintenancePlanSpec(selector.isEmpty() ? nodes : null, selector.isEmpty() ? null : selector, maxUnavailable,
                after, MaintenancePlanSpec.Action.Run);
    }

    /** What happens to each node once drained, as the operator reads it. */
    public String afterDrainText() {
        return switch (afterDrain) {
            case "Pause" -> "pause " + pause;
            case "WaitForAnnotation" -> "wait for annotation " + annotation;
            default -> "none";
        };
    }
}
