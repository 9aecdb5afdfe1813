package dev.drainboard.cluster.apiserver.table;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static dev.drainboard.cluster.apiserver.table.ColumnDefinition.ageColumn;
import static dev.drainboard.cluster.apiserver.table.ColumnDefinition.column;
import static dev.drainboard.cluster.apiserver.table.ColumnDefinition.nameColumn;
import static dev.drainboard.cluster.apiserver.table.ColumnDefinition.wideColumn;

/** Pods: NAME READY STATUS RESTARTS AGE, wide IP NODE NOMINATED NODE READINESS GATES. */
final class PodPrinter implements ResourcePrinter {
    // The reason the node lifecycle controller gives pods on an unreachable node.
    private static final String NODE_LOST = "NodeLost";

    private static final List<ColumnDefinition> COLUMNS = List.of(
            nameColumn(),
            column("Ready", "string", "Ready containers out of all containers (sidecar init containers included)."),
            column("Status", "string", "The pod's aggregate status as derived from its phase and container states."),
            column("Restarts", "string", "Container restarts in total, and how long ago the last one was."),
            ageColumn(),
            wideColumn("IP", "string", "The pod's primary IP address."),
            wideColumn("Node", "string", "The node the pod is bound to."),
            wideColumn("Nominated Node", "string", "The node the scheduler nominated while preempting for this pod."),
            wideColumn("Readiness Gates", "string", "Readiness gates whose condition is True, out of all gates."));

    @Override
    public List<ColumnDefinition> columns() {
        return COLUMNS;
    }

    @Override
    public ArrayNode cells(ObjectNode pod, Instant now) {
        PodStatusSummary summary = PodStatusSummary.of(pod);
        String restarts = String.valueOf(summary.restarts);
        if (summary.restarts != 0 && summary.lastRestart != null) {
            restarts += " (" + Ages.since(summary.lastRestart, now) + " ago)";
        }
        return new Cells()
                .text(Fields.text(pod, "metadata", "name"))
                .text(summary.readyContainers + "/" + summary.totalContainers)
                .text(summary.status)
                .text(restarts)
                .text(Ages.since(Fields.at(pod, "metadata", "creationTimestamp"), now))
                .text(podIp(pod))
                .text(Fields.textOr("<none>", pod, "spec", "nodeName"))
                .text(Fields.textOr("<none>", pod, "status", "nominatedNodeName"))
                .text(readinessGates(pod))
                .toJson();
    }

    /** Finished pods carry a Completed row condition, as kube-apiserver marks them. */
    @Override
    public ArrayNode conditions(ObjectNode pod) {
        String phase = Fields.text(pod, "status", "phase");
        String message = switch (phase) {
            case "Succeeded" -> "The pod completed successfully.";
            case "Failed" -> "The pod failed.";
            default -> null;
        };
        if (message == null) {
            return null;
        }
        ArrayNode conditions = JsonNodeFactory.instance.arrayNode();
        conditions.addObject().put("type", "Completed").put("status", "True").put("reason", phase).put("message", message);
        return conditions;
    }

    /** status.podIPs[0] wins over the legacy status.podIP, as in the v1-to-internal conversion. */
    private static String podIp(JsonNode pod) {
        String ip = Fields.list(pod, "status", "podIPs").stream().findFirst().map(p -> Fields.text(p, "ip")).orElse("");
        if (ip.isEmpty()) {
            ip = Fields.text(pod, "status", "podIP");
        }
        return ip.isEmpty() ? "<none>" : ip;
    }

    private static String readinessGates(JsonNode pod) {
        List<JsonNode> gates = Fields.list(pod, "spec", "readinessGates");
        if (gates.isEmpty()) {
            return "<none>";
        }
        List<JsonNode> conditions = Fields.list(pod, "status", "conditions");
        long passing = gates.stream()
                .map(gate -> Fields.text(gate, "conditionType"))
                .filter(type -> conditions.stream()
                        .filter(condition -> type.equals(Fields.text(condition, "type")))
                        .findFirst()
                        .map(condition -> "True".equals(Fields.text(condition, "status")))
                        .orElse(false))
                .count();
        return passing + "/" + gates.size();
    }

    /** The READY, STATUS and RESTARTS figures, computed the way kubectl users know them. */
    private static final class PodStatusSummary {
        private String status;
        private int readyContainers;
        private int totalContainers;
        private long restarts;
        private Instant lastRestart;
        private long sidecarRestarts;
        private Instant lastSidecarRestart;

        static PodStatusSummary of(JsonNode pod) {
            PodStatusSummary summary = new PodStatusSummary();
            summary.summarise(pod);
            return summary;
        }

        private void summarise(JsonNode pod) {
            JsonNode podStatus = Fields.at(pod, "status");
            String phase = Fields.text(podStatus, "phase");
            status = Fields.textOr(phase, podStatus, "reason");
            if (hasCondition(podStatus, "PodScheduled", "reason", "SchedulingGated")) {
                status = "SchedulingGated";
            }
            totalContainers = Fields.size(pod, "spec", "containers");

            Map<String, JsonNode> initContainers = new HashMap<>();
            for (JsonNode container : Fields.list(pod, "spec", "initContainers")) {
                initContainers.put(Fields.text(container, "name"), container);
                if (isSidecar(container)) {
                    totalContainers++;
                }
            }

            boolean initializing = summariseInitContainers(pod, initContainers);
            if (!initializing || hasCondition(podStatus, "Initialized", "status", "True")) {
                // Regular init containers are done by now, so only sidecar restarts still count.
                restarts = sidecarRestarts;
                lastRestart = lastSidecarRestart;
                summariseContainers(podStatus);
            }

            boolean deleting = Fields.has(pod, "metadata", "deletionTimestamp");
            if (deleting && NODE_LOST.equals(Fields.text(podStatus, "reason"))) {
                status = "Unknown";
            } else if (deleting && !phase.equals("Succeeded") && !phase.equals("Failed")) {
                status = "Terminating";
            }
        }

        // Stops at the first init container that has not finished; returns whether the pod is still initialising.
        private boolean summariseInitContainers(JsonNode pod, Map<String, JsonNode> initContainers) {
            int initContainerCount = Fields.size(pod, "spec", "initContainers");
            List<JsonNode> statuses = Fields.list(pod, "status", "initContainerStatuses");
            for (int index = 0; index < statuses.size(); index++) {
                JsonNode container = statuses.get(index);
                long restartCount = Fields.integer(container, "restartCount");
                Instant finishedAt = lastTerminationTime(container);
                restarts += restartCount;
                lastRestart = later(lastRestart, finishedAt);
                boolean sidecar = isSidecar(initContainers.get(Fields.text(container, "name")));
                if (sidecar) {
                    sidecarRestarts += restartCount;
                    lastSidecarRestart = later(lastSidecarRestart, finishedAt);
                }
                JsonNode terminated = Fields.at(container, "state", "terminated");
                String waitingReason = Fields.text(container, "state", "waiting", "reason");
                if (!terminated.isMissingNode() && Fields.integer(terminated, "exitCode") == 0) {
                    continue;
                }
                if (sidecar && Fields.bool(container, "started")) {
                    if (Fields.bool(container, "ready")) {
                        readyContainers++;
                    }
                    continue;
                }
                if (!terminated.isMissingNode()) {
                    status = "Init:" + terminationReason(terminated);
                } else if (!waitingReason.isEmpty() && !waitingReason.equals("PodInitializing")) {
                    status = "Init:" + waitingReason;
                } else {
                    status = "Init:" + index + "/" + initContainerCount;
                }
                return true;
            }
            return false;
        }

        // Walks backwards so the first container with a waiting/terminated reason sets the status.
        private void summariseContainers(JsonNode podStatus) {
            List<JsonNode> statuses = Fields.list(podStatus, "containerStatuses");
            boolean hasRunning = false;
            for (int index = statuses.size() - 1; index >= 0; index--) {
                JsonNode container = statuses.get(index);
                restarts += Fields.integer(container, "restartCount");
                lastRestart = later(lastRestart, lastTerminationTime(container));
                JsonNode terminated = Fields.at(container, "state", "terminated");
                String waitingReason = Fields.text(container, "state", "waiting", "reason");
                if (!waitingReason.isEmpty()) {
                    status = waitingReason;
                } else if (!terminated.isMissingNode()) {
                    status = terminationReason(terminated);
                } else if (Fields.bool(container, "ready") && Fields.has(container, "state", "running")) {
                    hasRunning = true;
                    readyContainers++;
                }
            }
            // A pod whose first container completed while another still runs is not "Completed".
            if (status.equals("Completed") && hasRunning) {
                status = hasCondition(podStatus, "Ready", "status", "True") ? "Running" : "NotReady";
            }
        }

        private static String terminationReason(JsonNode terminated) {
            String reason = Fields.text(terminated, "reason");
            if (!reason.isEmpty()) {
                return reason;
            }
            long signal = Fields.integer(terminated, "signal");
            return signal != 0 ? "Signal:" + signal : "ExitCode:" + Fields.integer(terminated, "exitCode");
        }

        private static Instant lastTerminationTime(JsonNode containerStatus) {
            return Ages.instant(Fields.at(containerStatus, "lastState", "terminated", "finishedAt")).orElse(null);
        }

        private static Instant later(Instant current, Instant candidate) {
            return candidate != null && (current == null || candidate.isAfter(current)) ? candidate : current;
        }

        /** A sidecar is an init container with restartPolicy Always; it counts as a regular container. */
        private static boolean isSidecar(JsonNode initContainer) {
            return initContainer != null && "Always".equals(Fields.text(initContainer, "restartPolicy"));
        }

        private static boolean hasCondition(JsonNode podStatus, String type, String field, String value) {
            return Fields.list(podStatus, "conditions").stream()
                    .anyMatch(c -> type.equals(Fields.text(c, "type")) && value.equals(Fields.text(c, field)));
        }
    }
}
