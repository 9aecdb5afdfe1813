package dev.drainboard.ui.model;

import dev.drainboard.ops.PodOutcome;

/**
 * A pod other than a VMI's launcher on a node, with what draining that node does with it: the drain preview's
 * outcome ({@link dev.drainboard.ops.DrainPreview}), the same decision the drain dialog and {@code drainboard drain}
 * show.
 *
 * @param owner   the kind of its controller, "Node" for a static pod, "" for none
 * @param options the drain options the outcome was worked out with, as kubectl flags ("" for kubectl's defaults)
 */
public record NodePodRow(String namespace, String name, String node, String owner, PodOutcome outcome,
                         String reason, String options) implements Row {

    @Override
    public ObjectRef ref() {
        return new ObjectRef(ObjectRef.Kind.POD, namespace, name);
    }

    @Override
    public String searchText() {
        return String.join(" ", namespace, name, node, owner, outcome.name(), reason);
    }
}
