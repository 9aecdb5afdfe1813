package dev.drainboard.kubevirt;

/**
 * The events only Drainboard records, each reason with its message: the node handler's account of a node-pressure
 * eviction, which no KubeVirt release turns into a live migration (docs/behaviour.md, "Node-pressure eviction turned
 * into live migration"). Messages with substitutions are {@link String#format} patterns.
 */
public final class DrainboardEvents {

    private DrainboardEvents() {
    }

    /** Normal, on the VMI: the launcher got SIGTERM without the VMI being deleted; the VMI is migrated instead. */
    public static final String NODE_PRESSURE_EVACUATION_REASON = "NodePressureEvacuation";
    /** Node, then when the kubelet is expected to kill the launcher pod. */
    public static final String NODE_PRESSURE_EVACUATION_MESSAGE = "The launcher pod was signalled to shut down on node %s without the VirtualMachineInstance being deleted (node-pressure eviction): live-migrating it instead of shutting it down; the kubelet kills the pod at %s";

    /** Warning, on the VMI: the kubelet killed the launcher before the migration finished. */
    public static final String LOST_TO_NODE_PRESSURE_REASON = "LostToNodePressure";
    /** The node the launcher was killed on. */
    public static final String LOST_TO_NODE_PRESSURE_MESSAGE = "The VirtualMachineInstance was lost: the kubelet killed its launcher pod on node %s (node-pressure eviction) before the live migration finished";
}
