package dev.drainboard.ui.model;

/**
 * What the console shows of one PodDisruptionBudget.
 *
 * @param minAvailable       {@code spec.minAvailable} as written (number or percentage), empty if unset
 * @param maxUnavailable     {@code spec.maxUnavailable} as written, empty if unset
 * @param owner              {@code Kind/name} of its controller owner, empty if none
 * @param expandedForMigration KubeVirt raised it to cover a migration's target pod (the migration-name label is set)
 */
public record PdbRow(
        String namespace,
        String name,
        String selector,
        String minAvailable,
        String maxUnavailable,
        int disruptionsAllowed,
        int currentHealthy,
        int desiredHealthy,
        int expectedPods,
        String owner,
        boolean expandedForMigration,
        String created) implements Row {

    /** No eviction of a pod it covers would be allowed now. */
    public boolean blocking() {
        return disruptionsAllowed == 0 && expectedPods > 0;
    }

    @Override
    public ObjectRef ref() {
        return new ObjectRef(ObjectRef.Kind.PDB, namespace, name);
    }

    @Override
    public String searchText() {
        return String.join(" ", namespace, name, selector, owner);
    }
}
