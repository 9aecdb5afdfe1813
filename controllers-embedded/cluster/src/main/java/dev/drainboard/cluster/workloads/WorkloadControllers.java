package dev.drainboard.cluster.workloads;

import dev.drainboard.cluster.ClusterComponent;
import dev.drainboard.cluster.apiserver.ApiServer;
import dev.drainboard.cluster.apiserver.BuiltinResources;
import dev.drainboard.cluster.workloads.daemonset.DaemonSetController;
import dev.drainboard.cluster.workloads.deployment.DeploymentController;
import dev.drainboard.cluster.workloads.replicaset.ReplicaSetController;
import dev.drainboard.cluster.workloads.statefulset.StatefulSetController;

import java.util.List;

/** The workload controllers of kube-controller-manager the embedded cluster runs, and the API checks they rely on. */
public final class WorkloadControllers {

    private WorkloadControllers() {
    }

    public static List<ClusterComponent> all(WorkloadApi api) {
        return List.of(new ReplicaSetController(api), new DeploymentController(api), new StatefulSetController(api),
                new DaemonSetController(api));
    }

    /** apps/v1 validation for Deployments, ReplicaSets, StatefulSets and DaemonSets. */
    public static void installValidation(ApiServer api) {
        for (var type : List.of(BuiltinResources.DEPLOYMENTS, BuiltinResources.REPLICA_SETS,
                BuiltinResources.STATEFUL_SETS, BuiltinResources.DAEMON_SETS)) {
            api.addValidator(type.groupResource(), WorkloadValidation::validate);
        }
    }
}
