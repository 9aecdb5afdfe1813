package dev.drainboard.ui.maintenance;

import dev.drainboard.ui.model.MaintenancePlanRow;
import dev.drainboard.ui.model.MaintenanceRequest;

import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * What the Maintenance view asks of the cluster: ClusterActions in the console, a hand-driven fake in tests. Futures
 * complete on the FX thread in the console; they complete exceptionally with a message the operator can read.
 */
public interface MaintenanceBackend {

    /** The maintenance plans in the cluster, newest first. */
    CompletableFuture<List<MaintenancePlanRow>> plans();

    /** The planner's answer for this request (the same as {@code drainboard maintain --dry-run}): phase "Preview". */
    CompletableFuture<MaintenancePlanRow> preview(MaintenanceRequest request);

    /** Creates the plan in the cluster (the leader of the controllers runs it); completes with its name. */
    CompletableFuture<String> create(MaintenanceRequest request);

    /** Sets the plan's {@code spec.action}: Run (resume), Pause or Abort. */
    CompletableFuture<Void> setAction(String plan, String action);

    /** Whether this connection can change nothing (Observe); why, else empty. */
    default String readOnlyReason() {
        return "";
    }
}
