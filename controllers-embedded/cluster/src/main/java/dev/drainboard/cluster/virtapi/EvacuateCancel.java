package dev.drainboard.cluster.virtapi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drainboard.cluster.apiserver.ApiException;
import dev.drainboard.cluster.apiserver.ApiRequest;
import dev.drainboard.cluster.apiserver.ApiServer;
import dev.drainboard.cluster.apiserver.BuiltinResources;
import dev.drainboard.cluster.apiserver.Json;
import dev.drainboard.cluster.apiserver.ResourceType;
import dev.drainboard.cluster.apiserver.ResponseChannel;
import dev.drainboard.kubevirt.ProfileChoice;
import dev.drainboard.kubevirt.config.ClusterConfig;
import dev.drainboard.kubevirt.config.MigrationConfig;

import java.util.List;

/**
 * virt-api's {@code PUT /apis/subresources.kubevirt.io/v1/namespaces/{ns}/virtualmachineinstances|virtualmachines/{name}/evacuate/cancel}
 * ({@code pkg/virt-api/rest/evacuate_cancel.go}, KubeVirt v1.8; Drainboard's 1.7–1.8 profile serves it): takes the
 * VMI's eviction mark off with a JSON patch that tests it first, so a mark for another node is not lost. A VMI not
 * marked answers 200 as well; the node still carrying the deprecated drain taint refuses with 400. Clusters reporting
 * an older release answer 404, as their virt-api has no such route. Existing migrations are left alone.
 */
final class EvacuateCancel implements ApiServer.ExtensionApi {

    static final String GROUP = "subresources.kubevirt.io";
    private static final String KUBEVIRT = "kubevirt.io";

    private final ApiServer api;

    EvacuateCancel(ApiServer api) {
        this.api = api;
    }

    @Override
    public void handle(ApiRequest request, List<String> segments, ResponseChannel channel) {
        // v1/namespaces/{ns}/{resource}/{name}/evacuate/cancel
        if (segments.size() != 7 || !segments.get(0).equals("v1") || !segments.get(1).equals("namespaces")
                || !segments.get(5).equals("evacuate") || !segments.get(6).equals("cancel")
                || !(segments.get(3).equals("virtualmachineinstances") || segments.get(3).equals("virtualmachines"))
                || !served()) {
            throw ApiException.pathNotFound();
        }
        if (!request.method().equals("PUT")) {
            throw ApiException.methodNotAllowed("the server does not allow this method on the requested resource");
        }
        String namespace = segments.get(2);
        String name = segments.get(4);
        // virt-api's own authorizer asks for the rest of the path as the subresource (pkg/virt-api/rest/authorizer.go).
        api.authorization().authorizeAggregated("update", GROUP, segments.get(3), "evacuate/cancel", namespace, name);
        ObjectNode vmi = segments.get(3).equals("virtualmachines") ? vmiForVm(namespace, name) : vmi(namespace, name);
        validateEvacuationNode(vmi);
        String marked = vmi.path("status").path("evacuationNodeName").asText("");
        if (marked.isEmpty()) {
            channel.respond(200, "application/json", new byte[0]);
            return;
        }
        if (request.body() == null || request.body().length == 0) {
            throw ApiException.badRequest("No body");
        }
        JsonNode options;
        try {
            options = Json.MAPPER.readTree(request.body());
        } catch (java.io.IOException e) {
            throw ApiException.badRequest("Can not unmarshal Request body to struct, error: " + (e instanceof com.fasterxml.jackson.core.JsonProcessingException j ? j.getOriginalMessage() : e.getMessage()));
        }
        String expected = options.path("evacuationNodeName").asText("");
        boolean dryRun = false;
        for (JsonNode d : options.path("dryRun")) {
            dryRun |= d.asText().equals("All");
        }
        ResourceType vmis = type("virtualmachineinstances");
        api.store().update(vmis, namespace, Json.name(vmi), current -> {
            String now = current.path("status").path("evacuationNodeName").asText(null);
            if (!expected.equals(now)) {
                // the JSON patch's test op failing; virt-api reports the patch error as an internal error
                throw ApiException.internal("testing value /status/evacuationNodeName failed: test failed");
            }
            ((ObjectNode) current.get("status")).remove("evacuationNodeName");
            return current;
        }, dryRun);
        channel.respond(200, "application/json", new byte[0]);
    }

    /** The cluster's KubeVirt serves the route (v1.8; Drainboard's 1.7–1.8 profile and later). */
    private boolean served() {
        String version = VirtApi.kubeVirtInForce(api).path("status").path("observedKubeVirtVersion").asText(null);
        return ProfileChoice.resolve(version, null).profile().servesEvacuateCancel();
    }

    private ObjectNode vmi(String namespace, String name) {
        ObjectNode vmi = api.store().get(type("virtualmachineinstances"), namespace, name);
        if (vmi == null) {
            throw new ApiException(404, "NotFound", "virtualmachineinstance." + KUBEVIRT + " \"" + name + "\" not found", null);
        }
        return vmi;
    }

    /** {@code FetchVirtualMachineInstanceForVM}: the VM must have created its VMI, and the VMI must be the VM's. */
    private ObjectNode vmiForVm(String namespace, String name) {
        ObjectNode vm = api.store().get(type("virtualmachines"), namespace, name);
        if (vm == null) {
            throw new ApiException(404, "NotFound", "virtualmachine." + KUBEVIRT + " \"" + name + "\" not found", null);
        }
        if (!vm.path("status").path("created").asBoolean(false)) {
            throw new ApiException(409, "Conflict", "Operation cannot be fulfilled on virtualmachine." + KUBEVIRT + " \""
                    + name + "\": VMI is not started", null);
        }
        ObjectNode vmi = vmi(namespace, name);
        String vmUid = vm.path("metadata").path("uid").asText();
        for (JsonNode ref : vmi.path("metadata").path("ownerReferences")) {
            if (vmUid.equals(ref.path("uid").asText())) {
                return vmi;
            }
        }
        throw ApiException.internal("VMI is not owned by VM");
    }

    /** The deprecated drain taint on the node still makes the evacuation controller move the VMI: refused. */
    private void validateEvacuationNode(ObjectNode vmi) {
        String taintKey = drainTaintKey();
        String node = vmi.path("status").path("evacuationNodeName").asText("");
        if (node.isEmpty()) {
            node = vmi.path("status").path("nodeName").asText("");
        }
        ObjectNode found = api.store().get(BuiltinResources.NODES, null, node);
        if (found == null) {
            throw ApiException.internal("nodes \"" + node + "\" not found");
        }
        for (JsonNode taint : found.path("spec").path("taints")) {
            if (taintKey.equals(taint.path("key").asText()) && "NoSchedule".equals(taint.path("effect").asText())) {
                throw ApiException.badRequest("Node \"" + node + "\" has NodeDrainTaintKey \"" + taintKey + ":NoSchedule\"");
            }
        }
    }

    private String drainTaintKey() {
        JsonNode kubeVirt = VirtApi.kubeVirtInForce(api);
        try {
            if (!kubeVirt.isMissingNode()) {
                return ClusterConfig.from(Json.MAPPER.convertValue(kubeVirt, dev.drainboard.kubevirt.api.KubeVirt.class))
                        .migrations().nodeDrainTaintKey();
            }
        } catch (RuntimeException | dev.drainboard.kubevirt.config.InvalidClusterConfigException e) {
            // an unreadable CR: KubeVirt's defaults
        }
        return MigrationConfig.defaults().nodeDrainTaintKey();
    }

    private ResourceType type(String plural) {
        return api.registry().find(KUBEVIRT, "v1", plural).orElseThrow(ApiException::pathNotFound);
    }
}
