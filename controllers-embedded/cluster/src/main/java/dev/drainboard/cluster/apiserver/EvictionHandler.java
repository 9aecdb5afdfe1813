package dev.drainboard.cluster.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drainboard.cluster.apiserver.admission.AdmissionAttributes;
import dev.drainboard.cluster.apiserver.admission.ValidatingWebhooks;
import dev.drainboard.labels.LabelSelector;
import dev.drainboard.labels.SelectorException;
import dev.drainboard.cluster.apiserver.store.ObjectStore;

import java.time.Instant;
import java.util.List;

/**
 * The pods/eviction subresource, in kube-apiserver's order: validating webhooks first, then the
 * PodDisruptionBudgets that cover the pod, then a graceful delete.
 */
final class EvictionHandler {

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(EvictionHandler.class);

    static final String PDB_VIOLATION = "Cannot evict pod as it would violate the pod's disruption budget.";

    private final ObjectStore store;
    private final ValidatingWebhooks webhooks;
    private final ResourceHandler resources;

    EvictionHandler(ObjectStore store, ValidatingWebhooks webhooks, ResourceHandler resources) {
        this.store = store;
        this.webhooks = webhooks;
        this.resources = resources;
    }

    ObjectNode evict(ApiRequest request, ResourcePath path) {
        ObjectNode eviction = RequestBodies.object(request);
        String evictionName = Json.name(eviction);
        if (!evictionName.isEmpty() && !evictionName.equals(path.name())) {
            throw ApiException.badRequest("name in URL does not match name in Eviction object");
        }
        String apiVersion = Json.text(eviction, "apiVersion");
        String version = apiVersion.endsWith("v1beta1") ? "v1beta1" : "v1";
        ObjectNode pod = resources.existing(path);
        DeleteOptions opts = DeleteOptions.from(eviction.path("deleteOptions"), request);

        webhooks.admit(new AdmissionAttributes("CREATE", BuiltinResources.PODS, "eviction", path.namespace(), path.name(),
                eviction, null, "policy", version, "Eviction", opts.dryRun()));

        String budget = canIgnoreBudget(pod) ? "not subject to budgets" : checkBudget(path.namespace(), pod, opts.dryRun());
        if (!opts.dryRun()) {
            LOG.info("eviction of pod {}/{} granted ({})", path.namespace(), path.name(), budget);
        }
        resources.deleteObject(BuiltinResources.PODS, path.namespace(), path.name(), opts);
        ObjectNode status = Json.object();
        status.put("kind", "Status");
        status.put("apiVersion", "v1");
        status.putObject("metadata");
        status.put("status", "Success");
        status.put("code", 201);
        return status;
    }

    /** Terminal, pending and already-terminating pods are not protected by budgets. */
    private static boolean canIgnoreBudget(ObjectNode pod) {
        String phase = Json.text(pod, "status", "phase");
        return pod.path("metadata").has("deletionTimestamp")
                || phase.equals("Succeeded") || phase.equals("Failed") || phase.equals("Pending");
    }

    /** Takes one disruption from the pod's budget or refuses; says which budget allowed it (for the log). */
    private String checkBudget(String namespace, ObjectNode pod, boolean dryRun) {
        List<ObjectNode> budgets = store.list(BuiltinResources.POD_DISRUPTION_BUDGETS, namespace, pdb -> covers(pdb, pod));
        if (budgets.isEmpty()) {
            return "no PodDisruptionBudget covers it";
        }
        if (budgets.size() > 1) {
            throw ApiException.internal("This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.");
        }
        ObjectNode budget = budgets.getFirst();
        String podName = Json.name(pod);
        store.update(BuiltinResources.POD_DISRUPTION_BUDGETS, namespace, Json.name(budget), current -> {
            JsonNode status = current.path("status");
            long generation = current.path("metadata").path("generation").asLong(1);
            if (status.path("observedGeneration").asLong(0) < generation) {
                throw budgetError("The disruption budget " + Json.name(current) + " is still being processed by the server.");
            }
            long allowed = status.path("disruptionsAllowed").asLong(0);
            if (allowed < 0) {
                throw new ApiException(403, "Forbidden", "pdb disruptions allowed is negative", null);
            }
            if (allowed == 0) {
                throw budgetError("The disruption budget " + Json.name(current) + " needs "
                        + status.path("desiredHealthy").asLong() + " healthy pods and has "
                        + status.path("currentHealthy").asLong() + " currently");
            }
            ObjectNode newStatus = current.with("status");
            newStatus.put("disruptionsAllowed", allowed - 1);
            newStatus.with("disruptedPods").put(podName, Json.timestamp(Instant.now(store.clock())));
            return current;
        }, dryRun);
        return "PodDisruptionBudget " + Json.name(budget) + " allowed " + budget.path("status").path("disruptionsAllowed").asLong()
                + " (healthy " + budget.path("status").path("currentHealthy").asLong() + ", desired "
                + budget.path("status").path("desiredHealthy").asLong() + ")";
    }

    private static ApiException budgetError(String causeMessage) {
        ObjectNode details = Json.object();
        ObjectNode cause = details.putArray("causes").addObject();
        cause.put("reason", "DisruptionBudget");
        cause.put("message", causeMessage);
        return ApiException.tooManyRequests(PDB_VIOLATION, details);
    }

    static boolean covers(ObjectNode pdb, ObjectNode pod) {
        try {
            JsonNode selector = pdb.path("spec").get("selector");
            if (selector == null || selector.isNull()) {
                return false; // policy/v1: a null selector selects nothing
            }
            return LabelSelector.fromJson(selector).matchesObject(pod);
        } catch (SelectorException e) {
            return false;
        }
    }

    /** pods/binding: assigns an unscheduled pod to a node. */
    ObjectNode bind(ApiRequest request, ResourcePath path) {
        ObjectNode binding = RequestBodies.object(request);
        String node = Json.text(binding, "target", "name");
        if (node.isEmpty()) {
            throw ApiException.invalid(BuiltinResources.PODS, path.name(), "target.name", "Required value");
        }
        Instant now = Instant.now(store.clock());
        store.update(BuiltinResources.PODS, path.namespace(), path.name(), pod -> {
            String assigned = Json.text(pod, "spec", "nodeName");
            if (!assigned.isEmpty()) {
                throw ApiException.conflict(BuiltinResources.PODS, path.name(), "pod " + path.name() + " is already assigned to node \"" + assigned + "\"");
            }
            if (pod.path("metadata").has("deletionTimestamp")) {
                throw ApiException.conflict(BuiltinResources.PODS, path.name(), "pod " + path.name() + " is being deleted, cannot be assigned to a host");
            }
            pod.with("spec").put("nodeName", node);
            PodConditions.set(pod, "PodScheduled", "True", "", "", now);
            return pod;
        }, request.dryRun());
        ObjectNode status = Json.object();
        status.put("kind", "Status");
        status.put("apiVersion", "v1");
        status.putObject("metadata");
        status.put("status", "Success");
        status.put("code", 201);
        return status;
    }
}
