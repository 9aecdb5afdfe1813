package dev.drainboard.cluster.apiserver.table;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.List;

import static dev.drainboard.cluster.apiserver.table.ColumnDefinition.ageColumn;
import static dev.drainboard.cluster.apiserver.table.ColumnDefinition.column;
import static dev.drainboard.cluster.apiserver.table.ColumnDefinition.nameColumn;
import static dev.drainboard.cluster.apiserver.table.ColumnDefinition.wideColumn;

/** The apps/v1 workload printers: Deployment, ReplicaSet, StatefulSet and DaemonSet. */
final class WorkloadPrinters {
    private static final ColumnDefinition CONTAINERS =
            wideColumn("Containers", "string", "Names of the containers in the pod template.");
    private static final ColumnDefinition IMAGES =
            wideColumn("Images", "string", "Images of the containers in the pod template.");
    private static final ColumnDefinition SELECTOR =
            wideColumn("Selector", "string", "The label selector for the managed pods.");

    private WorkloadPrinters() {
    }

    /** NAME READY UP-TO-DATE AVAILABLE AGE, wide CONTAINERS IMAGES SELECTOR. */
    static ResourcePrinter deployments() {
        return new SimplePrinter(List.of(
                nameColumn(),
                column("Ready", "string", "Ready replicas out of desired replicas."),
                column("Up-to-date", "string", "Replicas running the latest pod template."),
                column("Available", "string", "Replicas available for at least minReadySeconds."),
                ageColumn(), CONTAINERS, IMAGES, SELECTOR),
                (deployment, now) -> {
                    ContainerCells containers = ContainerCells.of(podSpec(deployment));
                    return new Cells()
                            .text(Fields.text(deployment, "metadata", "name"))
                            .text(Fields.integer(deployment, "status", "readyReplicas") + "/" + desiredReplicas(deployment))
                            .integer(Fields.integer(deployment, "status", "updatedReplicas"))
                            .integer(Fields.integer(deployment, "status", "availableReplicas"))
                            .text(Ages.since(Fields.at(deployment, "metadata", "creationTimestamp"), now))
                            .text(containers.names())
                            .text(containers.images())
                            .text(LabelFormats.selector(Fields.at(deployment, "spec", "selector")));
                });
    }

    /** NAME DESIRED CURRENT READY AGE, wide CONTAINERS IMAGES SELECTOR. */
    static ResourcePrinter replicaSets() {
        return new SimplePrinter(List.of(
                nameColumn(),
                column("Desired", "integer", "Replicas the ReplicaSet should run."),
                column("Current", "integer", "Replicas the ReplicaSet currently runs."),
                column("Ready", "integer", "Replicas that are ready."),
                ageColumn(), CONTAINERS, IMAGES, SELECTOR),
                (replicaSet, now) -> {
                    ContainerCells containers = ContainerCells.of(podSpec(replicaSet));
                    return new Cells()
                            .text(Fields.text(replicaSet, "metadata", "name"))
                            .integer(desiredReplicas(replicaSet))
                            .integer(Fields.integer(replicaSet, "status", "replicas"))
                            .integer(Fields.integer(replicaSet, "status", "readyReplicas"))
                            .text(Ages.since(Fields.at(replicaSet, "metadata", "creationTimestamp"), now))
                            .text(containers.names())
                            .text(containers.images())
                            .text(LabelFormats.selectorOrNone(Fields.at(replicaSet, "spec", "selector")));
                });
    }

    /** NAME READY AGE, wide CONTAINERS IMAGES. */
    static ResourcePrinter statefulSets() {
        return new SimplePrinter(List.of(
                nameColumn(),
                column("Ready", "string", "Ready replicas out of desired replicas."),
                ageColumn(), CONTAINERS, IMAGES),
                (statefulSet, now) -> {
                    ContainerCells containers = ContainerCells.of(podSpec(statefulSet));
                    return new Cells()
                            .text(Fields.text(statefulSet, "metadata", "name"))
                            .text(Fields.integer(statefulSet, "status", "readyReplicas") + "/" + desiredReplicas(statefulSet))
                            .text(Ages.since(Fields.at(statefulSet, "metadata", "creationTimestamp"), now))
                            .text(containers.names())
                            .text(containers.images());
                });
    }

    /** NAME DESIRED CURRENT READY UP-TO-DATE AVAILABLE NODE SELECTOR AGE, wide CONTAINERS IMAGES SELECTOR. */
    static ResourcePrinter daemonSets() {
        return new SimplePrinter(List.of(
                nameColumn(),
                column("Desired", "integer", "Nodes that should run the daemon pod."),
                column("Current", "integer", "Nodes running at least one daemon pod."),
                column("Ready", "integer", "Nodes whose daemon pod is ready."),
                column("Up-to-date", "integer", "Nodes running the latest daemon pod template."),
                column("Available", "integer", "Nodes whose daemon pod is available."),
                column("Node Selector", "string", "The node selector of the pod template."),
                ageColumn(), CONTAINERS, IMAGES, SELECTOR),
                (daemonSet, now) -> {
                    JsonNode status = Fields.at(daemonSet, "status");
                    ContainerCells containers = ContainerCells.of(podSpec(daemonSet));
                    return new Cells()
                            .text(Fields.text(daemonSet, "metadata", "name"))
                            .integer(Fields.integer(status, "desiredNumberScheduled"))
                            .integer(Fields.integer(status, "currentNumberScheduled"))
                            .integer(Fields.integer(status, "numberReady"))
                            .integer(Fields.integer(status, "updatedNumberScheduled"))
                            .integer(Fields.integer(status, "numberAvailable"))
                            .text(LabelFormats.labels(Fields.at(podSpec(daemonSet), "nodeSelector")))
                            .text(Ages.since(Fields.at(daemonSet, "metadata", "creationTimestamp"), now))
                            .text(containers.names())
                            .text(containers.images())
                            .text(LabelFormats.selectorOrNone(Fields.at(daemonSet, "spec", "selector")));
                });
    }

    private static JsonNode podSpec(JsonNode workload) {
        return Fields.at(workload, "spec", "template", "spec");
    }

    /** spec.replicas, which the API defaults to 1 when it is left out. */
    private static long desiredReplicas(JsonNode workload) {
        return Fields.has(workload, "spec", "replicas") ? Fields.integer(workload, "spec", "replicas") : 1;
    }
}
