package dev.drainboard.ui.model;

/**
 * Names one Kubernetes object for the views (details pane, command palette, selection) without handing them
 * the object itself. {@code namespace} is empty for cluster-scoped kinds.
 */
public record ObjectRef(Kind kind, String namespace, String name) {

    /** The kinds the console shows. */
    public enum Kind {
        NODE("Node"), POD("Pod"), VMI("VirtualMachineInstance"), VM("VirtualMachine"),
        VMIM("VirtualMachineInstanceMigration"), VMIRS("VirtualMachineInstanceReplicaSet"),
        PDB("PodDisruptionBudget"), EVENT("Event"), KUBEVIRT("KubeVirt"),
        /** Drainboard's drain history (drainrecords.drainboard.dev). */
        DRAIN_RECORD("DrainRecord");

        private final String kubernetesKind;

        Kind(String kubernetesKind) {
            this.kubernetesKind = kubernetesKind;
        }

        public String kubernetesKind() {
            return kubernetesKind;
        }
    }

    public ObjectRef {
        namespace = namespace == null ? "" : namespace;
    }

    public static ObjectRef node(String name) {
        return new ObjectRef(Kind.NODE, "", name);
    }

    /** {@code namespace/name}, or the name alone for cluster-scoped objects; the informer cache key. */
    public String key() {
        return namespace.isEmpty() ? name : namespace + "/" + name;
    }

    @Override
    public String toString() {
        return kind.kubernetesKind() + " " + key();
    }
}
