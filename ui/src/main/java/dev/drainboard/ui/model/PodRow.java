package dev.drainboard.ui.model;

/**
 * A VMI's launcher pod, as far as the console relates it to other objects (the details pane's "Related" links).
 * Only pods owned by a VMI are kept as rows.
 *
 * @param vmi            the owning VMI's name (same namespace)
 * @param migrationUid   {@code kubevirt.io/migrationJobUID}: the VMIM this pod is the target of; empty otherwise
 */
public record PodRow(
        String namespace,
        String name,
        String vmi,
        String node,
        String phase,
        String migrationUid,
        String created) implements Row {

    @Override
    public ObjectRef ref() {
        return new ObjectRef(ObjectRef.Kind.POD, namespace, name);
    }

    @Override
    public String searchText() {
        return String.join(" ", namespace, name, vmi, node, phase);
    }
}
