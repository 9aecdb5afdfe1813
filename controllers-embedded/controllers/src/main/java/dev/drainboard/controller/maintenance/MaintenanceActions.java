package dev.drainboard.controller.maintenance;

import dev.drainboard.maintenance.MaintenancePlanSpec;
import dev.drainboard.maintenance.MaintenancePlanStatus;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * What the executor does to the cluster, each read or written now: the planner, cordon, the plan's migrations, the
 * drain of what is left (through the eviction API, never a delete), uncordon. {@code ops.maintenance.MaintenanceOps}
 * implements it.
 */
public interface MaintenanceActions {

    /**
     * The nodes a spec names: its list, or the nodes its selector selects now.
     *
     * @throws IllegalArgumentException with the reason for a selector the API server refuses, or no node at all
     */
    List<String> nodes(MaintenancePlanSpec spec);

    /**
     * The plan worked out on the cluster as it is now.
     *
     * @param maintained nodes of the plan already maintained (empty at the start)
     * @param order      the batches still to go (empty at the start: the planner chooses)
     */
    Planned plan(MaintenancePlanSpec spec, List<String> nodes, Set<String> maintained, List<List<String>> order);

    /** The plan's facts for the status, and each node's part. */
    record Planned(MaintenancePlanStatus.Plan plan, List<NodePart> nodes) {
        public Planned {
            nodes = List.copyOf(nodes);
        }

        public NodePart node(String name) {
            return nodes.stream().filter(n -> n.name().equals(name)).findFirst().orElse(null);
        }
    }

    /**
     * @param skipped why the node is left alone (a VMI on it cannot move), or null
     * @param targets VMI ({@code namespace/name}) → the node it is sent to
     */
    record NodePart(String name, int batch, String skipped, double predictedStartSeconds, double predictedSeconds,
                    Map<String, String> targets) {
        public NodePart {
            targets = Map.copyOf(targets);
        }
    }

    /** Cordons the node; true when it was schedulable (the plan cordoned it). */
    boolean cordon(String node);

    void uncordon(String node);

    /** Whether the node is cordoned now; null when the node is gone from the cluster. */
    Boolean unschedulable(String node);

    /** Whether the node carries this annotation now. */
    boolean hasAnnotation(String node, String key);

    /**
     * Creates the plan's migration of a VMI towards {@code target} (a hint the KubeVirt release may not be able to
     * carry: see docs/maintenance.md); returns the migration's name.
     */
    String migrate(String plan, String namespace, String vmi, String from, String target);

    /** Deletes an unfinished migration (cancelled before the hand-off, aborted after); recorded in the history. */
    void cancelMigration(String namespace, String name);

    /** Clears the evacuation marks of the node's VMIs (an aborted drain's). */
    void clearEvacuationMarks(String node);

    /** Starts draining what is left on the node through the eviction API; returns at once. */
    Drain drain(String node);

    /** A running drain of one node. */
    interface Drain {
        /** Completes with null once drained, or the reason it did not. */
        CompletableFuture<String> result();

        void cancel();
    }

    /** The cluster's time scale (the embedded cluster's {@code --time-scale}; 1 on a real cluster). */
    double timeScale();
}
