package dev.drainboard.cluster.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.Objects;

/**
 * What kube-apiserver does to the apps/v1 workloads on create and update: the defaults of
 * {@code pkg/apis/apps/v1/defaults.go} (replicas, strategies, revision history, progress deadline, pod management
 * policy, PVC retention), the pod defaults inside their templates ({@code pkg/apis/core/v1/defaults.go}, the same
 * subset this server gives pods), a cleared status on create, and the DaemonSet's template generation
 * ({@code deprecated.daemonset.template.generation}, {@code pkg/registry/apps/daemonset/strategy.go}): 1 on create,
 * one more each time an update changes the template.
 */
final class WorkloadDefaults {

    static final String TEMPLATE_GENERATION = "deprecated.daemonset.template.generation";

    private WorkloadDefaults() {
    }

    static boolean handles(ResourceType type) {
        return type == BuiltinResources.DEPLOYMENTS || type == BuiltinResources.REPLICA_SETS
                || type == BuiltinResources.STATEFUL_SETS || type == BuiltinResources.DAEMON_SETS;
    }

    /** Defaults of a new object; its status starts empty, as each strategy's PrepareForCreate resets it. */
    static void prepareForCreate(ResourceType type, ObjectNode object) {
        if (!handles(type)) {
            return;
        }
        applyDefaults(type, object);
        object.putObject("status");
        if (type == BuiltinResources.DAEMON_SETS) {
            ObjectNode annotations = Json.metadata(object).with("annotations");
            long generation = parse(annotations.path(TEMPLATE_GENERATION).asText(""));
            if (generation < 1) {
                annotations.put(TEMPLATE_GENERATION, "1");
            }
        }
    }

    /**
     * Defaults again (a replaced object may leave fields out), and a DaemonSet keeps its template generation,
     * raised by one when the template changed. {@code current} is the stored object before the update.
     */
    static ObjectNode prepareForUpdate(ResourceType type, ObjectNode current, ObjectNode desired) {
        if (!handles(type) || desired == null) {
            return desired;
        }
        applyDefaults(type, desired);
        if (type == BuiltinResources.DAEMON_SETS && current != null) {
            long generation = Math.max(1, parse(Json.text(current, "metadata", "annotations", TEMPLATE_GENERATION)));
            if (!Objects.equals(current.path("spec").get("template"), desired.path("spec").get("template"))) {
                generation++;
            }
            Json.metadata(desired).with("annotations").put(TEMPLATE_GENERATION, Long.toString(generation));
        }
        return desired;
    }

    private static void applyDefaults(ResourceType type, ObjectNode object) {
        ObjectNode spec = object.with("spec");
        if (type == BuiltinResources.DEPLOYMENTS) {
            putIfAbsent(spec, "replicas", 1);
            ObjectNode strategy = spec.with("strategy");
            if (strategy.path("type").asText("").isEmpty()) {
                strategy.put("type", "RollingUpdate");
            }
            if (strategy.path("type").asText().equals("RollingUpdate")) {
                ObjectNode rollingUpdate = strategy.with("rollingUpdate");
                if (isAbsent(rollingUpdate.get("maxUnavailable"))) {
                    rollingUpdate.put("maxUnavailable", "25%");
                }
                if (isAbsent(rollingUpdate.get("maxSurge"))) {
                    rollingUpdate.put("maxSurge", "25%");
                }
            }
            putIfAbsent(spec, "revisionHistoryLimit", 10);
            putIfAbsent(spec, "progressDeadlineSeconds", 600);
        } else if (type == BuiltinResources.REPLICA_SETS) {
            putIfAbsent(spec, "replicas", 1);
        } else if (type == BuiltinResources.STATEFUL_SETS) {
            if (spec.path("podManagementPolicy").asText("").isEmpty()) {
                spec.put("podManagementPolicy", "OrderedReady");
            }
            ObjectNode strategy = spec.with("updateStrategy");
            if (strategy.path("type").asText("").isEmpty()) {
                strategy.put("type", "RollingUpdate");
                strategy.with("rollingUpdate");
            }
            if (strategy.path("type").asText().equals("RollingUpdate") && strategy.get("rollingUpdate") instanceof ObjectNode rollingUpdate
                    && isAbsent(rollingUpdate.get("partition"))) {
                rollingUpdate.put("partition", 0);
            }
            // StatefulSetAutoDeletePVC is on by default (beta since 1.27): both policies default to Retain.
            ObjectNode retention = spec.with("persistentVolumeClaimRetentionPolicy");
            if (retention.path("whenDeleted").asText("").isEmpty()) {
                retention.put("whenDeleted", "Retain");
            }
            if (retention.path("whenScaled").asText("").isEmpty()) {
                retention.put("whenScaled", "Retain");
            }
            putIfAbsent(spec, "replicas", 1);
            putIfAbsent(spec, "revisionHistoryLimit", 10);
        } else if (type == BuiltinResources.DAEMON_SETS) {
            ObjectNode strategy = spec.with("updateStrategy");
            if (strategy.path("type").asText("").isEmpty()) {
                strategy.put("type", "RollingUpdate");
            }
            if (strategy.path("type").asText().equals("RollingUpdate")) {
                ObjectNode rollingUpdate = strategy.with("rollingUpdate");
                if (isAbsent(rollingUpdate.get("maxUnavailable"))) {
                    rollingUpdate.put("maxUnavailable", 1);
                }
                if (isAbsent(rollingUpdate.get("maxSurge"))) {
                    rollingUpdate.put("maxSurge", 0);
                }
            }
            putIfAbsent(spec, "revisionHistoryLimit", 10);
        }
        if (spec.path("template").path("spec") instanceof ObjectNode podSpec) {
            defaultPodSpec(podSpec);
        }
    }

    /** The pod defaults this server gives a new pod (see Strategies), for a template's pod spec. */
    private static void defaultPodSpec(ObjectNode spec) {
        putIfAbsent(spec, "restartPolicy", "Always");
        putIfAbsent(spec, "terminationGracePeriodSeconds", 30);
        putIfAbsent(spec, "dnsPolicy", "ClusterFirst");
        putIfAbsent(spec, "schedulerName", "default-scheduler");
        for (String list : new String[] {"initContainers", "containers"}) {
            for (JsonNode c : spec.path(list)) {
                if (c instanceof ObjectNode container) {
                    if (!container.has("imagePullPolicy")) {
                        String image = container.path("image").asText();
                        boolean latest = !image.contains(":") || image.endsWith(":latest");
                        container.put("imagePullPolicy", latest ? "Always" : "IfNotPresent");
                    }
                    for (JsonNode port : container.path("ports")) {
                        if (port instanceof ObjectNode p && !p.has("protocol")) {
                            p.put("protocol", "TCP");
                        }
                    }
                }
            }
        }
    }

    private static boolean isAbsent(JsonNode value) {
        return value == null || value.isNull();
    }

    private static void putIfAbsent(ObjectNode node, String field, int value) {
        if (isAbsent(node.get(field))) {
            node.put(field, value);
        }
    }

    private static void putIfAbsent(ObjectNode node, String field, String value) {
        if (isAbsent(node.get(field)) || node.get(field).asText().isEmpty()) {
            node.put(field, value);
        }
    }

    private static long parse(String text) {
        try {
            return Long.parseLong(text.trim());
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
