package dev.drainboard.ui.model;

/**
 * A pod that is no VMI's launcher and has nowhere to run: Pending, with the scheduler's {@code PodScheduled=False}
 * message (a Deployment's replacement after a drain, say). Shown in red on the overview until it runs.
 */
public record StrandedPodRow(String namespace, String name, String reason) implements Row {

    @Override
    public ObjectRef ref() {
        return new ObjectRef(ObjectRef.Kind.POD, namespace, name);
    }

    @Override
    public String searchText() {
        return String.join(" ", namespace, name, reason);
    }
}
