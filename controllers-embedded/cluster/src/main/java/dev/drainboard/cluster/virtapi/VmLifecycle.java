package dev.drainboard.cluster.virtapi;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drainboard.cluster.apiserver.ApiException;
import dev.drainboard.cluster.apiserver.ApiRequest;
import dev.drainboard.cluster.apiserver.ApiServer;
import dev.drainboard.cluster.apiserver.Json;
import dev.drainboard.cluster.apiserver.ResourceType;
import dev.drainboard.cluster.apiserver.ResponseChannel;
import dev.drainboard.cluster.apiserver.patch.PatchException;
import dev.drainboard.cluster.apiserver.patch.Patches;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * virt-api's VM lifecycle subresources, {@code PUT /apis/subresources.kubevirt.io/v1/namespaces/{ns}/virtualmachines/{name}/start|stop|restart|migrate}
 * ({@code pkg/virt-api/rest/lifecycle.go}): each checks the VM's run strategy and VMI, then either switches the run
 * strategy ({@code spec.runStrategy}, or the deprecated {@code spec.running}) or queues
 * {@code status.stateChangeRequests} for the VM controller, with JSON patches that test what was read. Success is
 * 202 with no body; refusals are virt-api's Status objects and messages. {@code migrate} creates a VMIM through the
 * API, so the VMIM admission applies. Starting paused is not simulated (the embedded VMIs have no guest to pause).
 */
final class VmLifecycle {

    static final Set<String> ACTIONS = Set.of("start", "stop", "restart", "migrate");
    private static final String KUBEVIRT = "kubevirt.io";
    private static final String VM_NOT_RUNNING = "VM is not running";
    private static final String MANUAL_RECOVERY = "VM recovery required: Volume migration failed, leaving some volumes "
            + "pointing to non-consistent targets; manual intervention is needed to reassign them to their original volumes.";
    private static final Set<String> FINAL = Set.of("Succeeded", "Failed");

    private final ApiServer api;

    VmLifecycle(ApiServer api) {
        this.api = api;
    }

    /** {@code v1/namespaces/{ns}/virtualmachines/{name}/{action}} */
    static boolean matches(List<String> segments) {
        return segments.size() == 6 && segments.get(0).equals("v1") && segments.get(1).equals("namespaces")
                && segments.get(3).equals("virtualmachines") && ACTIONS.contains(segments.get(5));
    }

    void handle(ApiRequest request, List<String> segments, ResponseChannel channel) {
        if (!request.method().equals("PUT")) {
            throw ApiException.methodNotAllowed("the server does not allow this method on the requested resource");
        }
        String namespace = segments.get(2);
        String name = segments.get(4);
        api.authorization().authorizeAggregated("update", EvacuateCancel.GROUP, "virtualmachines", segments.get(5), namespace, name);
        switch (segments.get(5)) {
            case "start" -> start(namespace, name, request);
            case "stop" -> stop(namespace, name, request);
            case "restart" -> restart(namespace, name, request);
            default -> migrate(namespace, name, request);
        }
        channel.respond(202, "application/json", new byte[0]);
    }

    private void start(String namespace, String name, ApiRequest request) {
        ObjectNode vm = vm(namespace, name);
        ObjectNode vmi = vmi(namespace, name);
        String phase = vmi == null ? "" : vmi.path("status").path("phase").asText("");
        if (vmi != null && !FINAL.contains(phase) && !phase.equals("Unknown") && !phase.isEmpty()) {
            throw conflict(name, "VM is already running");
        }
        if (conditionTrue(vm, "ManualRecoveryRequired")) {
            throw conflict(name, MANUAL_RECOVERY);
        }
        JsonNode options = body(request, "StartOptions");
        boolean dryRun = dryRun(options);
        if (options.path("paused").asBoolean(false)) {
            throw ApiException.badRequest("starting paused is not simulated by the embedded cluster");
        }
        String strategy = runStrategy(vm, name);
        switch (strategy) {
            case "Halted" -> patchVm(namespace, name, runningPatch(vm, true), dryRun);
            case "RerunOnFailure", "Manual" -> {
                if (strategy.equals("RerunOnFailure") && phase.equals("Failed")) {
                    throw conflict(name, "RerunOnFailure does not support starting VM from failed state");
                }
                boolean needsRestart = vmi != null && (strategy.equals("RerunOnFailure") ? phase.equals("Succeeded") : FINAL.contains(phase));
                ArrayNode changes = JsonNodeFactory.instance.arrayNode();
                if (needsRestart) {
                    changes.add(stop(uid(vmi)));
                }
                changes.addObject().put("action", "Start");
                patchVm(namespace, name, changeRequests(vm, changes), dryRun);
            }
            case "Always", "Once" -> throw conflict(name, strategy + " does not support manual start requests");
            default -> {
                // a run strategy virt-api does not know falls through its switch: accepted, nothing changed
            }
        }
    }

    private void stop(String namespace, String name, ApiRequest request) {
        JsonNode options = body(request, "StopOptions");
        boolean dryRun = dryRun(options);
        ObjectNode vm = vm(namespace, name);
        String strategy = runStrategy(vm, name);
        ObjectNode vmi = vmi(namespace, name);
        boolean running = vmi != null && !FINAL.contains(vmi.path("status").path("phase").asText(""));
        JsonNode grace = options.get("gracePeriod");
        long oldGrace = 0;
        if (running && grace != null && !grace.isNull()) {
            // virt-api shortens the VMI's grace period before it looks at the run strategy, even when it then refuses
            oldGrace = patchGracePeriod(vmi, grace.asLong(), dryRun);
        }
        switch (strategy) {
            case "Halted" -> {
                if (!running) {
                    throw conflict(name, VM_NOT_RUNNING);
                }
                boolean hadGrace = vmi.path("spec").has("terminationGracePeriodSeconds");
                if (grace == null || grace.isNull() || (hadGrace && grace.asLong() >= oldGrace)) {
                    throw conflict(name, "Halted only supports manual stop requests with a shorter graceperiod");
                }
                patchVm(namespace, name, changeRequests(vm, JsonNodeFactory.instance.arrayNode().add(stop(uid(vmi)))), dryRun);
            }
            case "RerunOnFailure", "Manual" -> {
                if (!running) {
                    throw conflict(name, VM_NOT_RUNNING);
                }
                patchVm(namespace, name, changeRequests(vm, JsonNodeFactory.instance.arrayNode().add(stop(uid(vmi)))), dryRun);
            }
            case "Always", "Once" -> patchVm(namespace, name, runningPatch(vm, false), dryRun);
            default -> {
            }
        }
    }

    private void restart(String namespace, String name, ApiRequest request) {
        JsonNode options = body(request, "RestartOptions");
        boolean dryRun = dryRun(options);
        JsonNode grace = options.get("gracePeriodSeconds");
        if (grace != null && !grace.isNull()) {
            if (grace.asLong() > 0) {
                throw ApiException.badRequest("For force restart, only gracePeriod=0 is supported for now");
            } else if (grace.asLong() < 0) {
                throw ApiException.badRequest("gracePeriod has to be greater or equal to 0");
            }
        }
        ObjectNode vm = vm(namespace, name);
        if (conditionTrue(vm, "VolumesChange")) {
            throw conflict(name, MANUAL_RECOVERY);
        }
        String strategy = runStrategy(vm, name);
        if (strategy.equals("Halted") || strategy.equals("Once")) {
            // "RunStategy" is virt-api's spelling
            throw conflict(name, "RunStategy " + strategy + " does not support manual restart requests");
        }
        ObjectNode vmi = vmi(namespace, name);
        if (vmi == null) {
            throw conflict(name, VM_NOT_RUNNING + ": Halted");
        }
        long oldGrace = 0;
        boolean force = grace != null && !grace.isNull() && grace.asLong() == 0;
        if (force) {
            // the shortest safe period, set before the requests are queued (virt-api's force restart)
            oldGrace = patchGracePeriod(vmi, 1, dryRun);
            if (vmi.get("spec") instanceof ObjectNode spec) {
                spec.put("terminationGracePeriodSeconds", 1);
            }
        }
        ArrayNode changes = JsonNodeFactory.instance.arrayNode().add(stop(uid(vmi)));
        changes.addObject().put("action", "Start");
        try {
            patchVm(namespace, name, changeRequests(vm, changes), dryRun);
        } catch (ApiException e) {
            if (force) {
                patchGracePeriod(vmi, oldGrace, dryRun);
            }
            throw e;
        }
    }

    /** A VMIM for the VM's running VMI, created through the API as virt-api's client does (admission applies). */
    private void migrate(String namespace, String name, ApiRequest request) {
        JsonNode options = body(request, "MigrateOptions");
        vm(namespace, name);
        ObjectNode vmi = vmi(namespace, name);
        if (vmi == null) {
            throw new ApiException(404, "NotFound", "virtualmachineinstance." + KUBEVIRT + " \"" + name + "\" not found",
                    details(name, "virtualmachineinstance"));
        }
        if (!"Running".equals(vmi.path("status").path("phase").asText())) {
            throw conflict(name, VM_NOT_RUNNING);
        }
        ObjectNode vmim = JsonNodeFactory.instance.objectNode();
        vmim.put("apiVersion", KUBEVIRT + "/v1").put("kind", "VirtualMachineInstanceMigration");
        vmim.putObject("metadata").put("generateName", "kubevirt-migrate-vm-").put("namespace", namespace);
        ObjectNode spec = vmim.putObject("spec").put("vmiName", name);
        JsonNode selector = options.get("addedNodeSelector");
        if (selector != null && selector.isObject() && !selector.isEmpty()) {
            spec.set("addedNodeSelector", selector);
        }
        Map<String, List<String>> query = dryRun(options) ? Map.of("dryRun", List.of("All")) : Map.of();
        Captured answer = new Captured();
        api.handle(new ApiRequest("POST", "/apis/" + KUBEVIRT + "/v1/namespaces/" + namespace + "/virtualmachineinstancemigrations",
                query, "application/json", "application/json", Json.bytes(vmim)), answer);
        if (answer.code >= 300) {
            String message;
            try {
                message = Json.MAPPER.readTree(answer.body.toByteArray()).path("message").asText("");
            } catch (java.io.IOException e) {
                message = answer.body.toString(StandardCharsets.UTF_8);
            }
            throw ApiException.internal(message);
        }
    }

    // --- reads

    private ObjectNode vm(String namespace, String name) {
        ObjectNode vm = api.store().get(type("virtualmachines"), namespace, name);
        if (vm == null) {
            throw new ApiException(404, "NotFound", "virtualmachine." + KUBEVIRT + " \"" + name + "\" not found",
                    details(name, "virtualmachine"));
        }
        return vm;
    }

    private ObjectNode vmi(String namespace, String name) {
        ObjectNode vmi = api.store().get(type("virtualmachineinstances"), namespace, name);
        return vmi == null ? null : vmi.deepCopy(); // the store's own copy: never changed in place
    }

    /** KubeVirt's {@code vm.RunStrategy()}: runStrategy, else running true/false, else Halted; both set is an error. */
    private static String runStrategy(ObjectNode vm, String name) {
        JsonNode spec = vm.path("spec");
        boolean hasStrategy = spec.hasNonNull("runStrategy");
        boolean hasRunning = spec.hasNonNull("running");
        if (hasStrategy && hasRunning) {
            throw ApiException.internal("running and runstrategy are mutually exclusive");
        }
        if (hasStrategy) {
            return spec.get("runStrategy").asText();
        }
        return hasRunning && spec.get("running").asBoolean() ? "Always" : "Halted";
    }

    private static boolean conditionTrue(ObjectNode vm, String type) {
        for (JsonNode c : vm.path("status").path("conditions")) {
            if (type.equals(c.path("type").asText()) && "True".equals(c.path("status").asText())) {
                return true;
            }
        }
        return false;
    }

    private static String uid(ObjectNode vmi) {
        return vmi.path("metadata").path("uid").asText();
    }

    private static ObjectNode stop(String uid) {
        return JsonNodeFactory.instance.objectNode().put("action", "Stop").put("uid", uid);
    }

    /** {@code decodeBody}: JSON or YAML; none at all is the zero options. */
    private static JsonNode body(ApiRequest request, String goType) {
        byte[] bytes = request.body();
        if (bytes == null || new String(bytes, StandardCharsets.UTF_8).isBlank()) {
            return JsonNodeFactory.instance.objectNode();
        }
        try {
            JsonNode node = Json.MAPPER.readTree(bytes);
            if (node == null || node.isNull()) {
                return JsonNodeFactory.instance.objectNode();
            }
            if (!node.isObject()) {
                throw ApiException.badRequest("Can not unmarshal Request body to struct, error: json: cannot unmarshal "
                        + (node.isArray() ? "array" : node.isTextual() ? "string" : node.isNumber() ? "number" : "bool")
                        + " into Go value of type v1." + goType);
            }
            return node;
        } catch (java.io.IOException e) {
            String why = e instanceof JsonProcessingException j ? j.getOriginalMessage() : e.getMessage();
            throw ApiException.badRequest("Can not unmarshal Request body to struct, error: " + why);
        }
    }

    private static boolean dryRun(JsonNode options) {
        for (JsonNode d : options.path("dryRun")) {
            if (d.asText().equals("All")) {
                return true;
            }
        }
        return false;
    }

    // --- writes

    /** {@code getRunningPatch}: tests and replaces {@code spec.runStrategy}, or the deprecated {@code spec.running}. */
    private static ArrayNode runningPatch(ObjectNode vm, boolean running) {
        ArrayNode patch = JsonNodeFactory.instance.arrayNode();
        JsonNode spec = vm.path("spec");
        if (spec.hasNonNull("runStrategy")) {
            patch.addObject().put("op", "test").put("path", "/spec/runStrategy").set("value", spec.get("runStrategy"));
            patch.addObject().put("op", "replace").put("path", "/spec/runStrategy").put("value", running ? "Always" : "Halted");
        } else {
            patch.addObject().put("op", "test").put("path", "/spec/running").set("value", spec.has("running") ? spec.get("running") : Json.MAPPER.nullNode());
            patch.addObject().put("op", "replace").put("path", "/spec/running").put("value", running);
        }
        return patch;
    }

    /**
     * {@code getChangeRequestJson}: a VM with no status gets one holding the requests; otherwise the list read is
     * tested and the requests added to an empty list, or a lone Stop replaces what is queued; anything else is
     * refused as already underway. A start failure record is cleared.
     */
    private static ArrayNode changeRequests(ObjectNode vm, ArrayNode changes) {
        ArrayNode patch = JsonNodeFactory.instance.arrayNode();
        JsonNode status = vm.path("status");
        if (status.isMissingNode() || status.isNull() || status.isEmpty()) {
            ObjectNode value = JsonNodeFactory.instance.objectNode();
            value.set("stateChangeRequests", changes);
            patch.addObject().put("op", "add").put("path", "/status").set("value", value);
            return patch;
        }
        JsonNode queued = status.path("stateChangeRequests");
        boolean empty = !queued.isArray() || queued.isEmpty();
        patch.addObject().put("op", "test").put("path", "/status/stateChangeRequests")
                .set("value", queued.isMissingNode() ? Json.MAPPER.nullNode() : queued);
        if (empty) {
            patch.addObject().put("op", "add").put("path", "/status/stateChangeRequests").set("value", changes);
        } else if (changes.size() == 1 && "Stop".equals(changes.get(0).path("action").asText())) {
            patch.addObject().put("op", "replace").put("path", "/status/stateChangeRequests").set("value", changes);
        } else {
            throw ApiException.internal("unable to complete request: stop/start already underway");
        }
        if (status.has("startFailure")) {
            patch.addObject().put("op", "remove").put("path", "/status/startFailure");
        }
        return patch;
    }

    private void patchVm(String namespace, String name, ArrayNode patch, boolean dryRun) {
        api.store().update(type("virtualmachines"), namespace, name, current -> apply(current, patch, name), dryRun);
    }

    /** Sets {@code spec.terminationGracePeriodSeconds} of the VMI, testing the value read; returns that value (0 when unset). */
    private long patchGracePeriod(ObjectNode vmi, long seconds, boolean dryRun) {
        JsonNode old = vmi.path("spec").get("terminationGracePeriodSeconds");
        ArrayNode patch = JsonNodeFactory.instance.arrayNode();
        patch.addObject().put("op", "test").put("path", "/spec/terminationGracePeriodSeconds").set("value", old == null ? Json.MAPPER.nullNode() : old);
        patch.addObject().put("op", "replace").put("path", "/spec/terminationGracePeriodSeconds").put("value", seconds);
        String name = Json.name(vmi);
        try {
            api.store().update(type("virtualmachineinstances"), vmi.path("metadata").path("namespace").asText(), name,
                    current -> apply(current, patch, name), dryRun);
        } catch (ApiException e) {
            throw e.code() == 500 ? e : ApiException.internal(e.getMessage());
        }
        return old == null ? 0 : old.asLong();
    }

    /** A test that fails means the object changed since it was read: a conflict, as virt-api reports it. */
    private static ObjectNode apply(ObjectNode current, ArrayNode patch, String name) {
        try {
            return Patches.applyJsonPatch(current, patch);
        } catch (PatchException e) {
            throw conflict(name, e.getMessage());
        }
    }

    private static ApiException conflict(String name, String why) {
        return new ApiException(409, "Conflict", "Operation cannot be fulfilled on virtualmachine." + KUBEVIRT + " \""
                + name + "\": " + why, details(name, "virtualmachine"));
    }

    private static ObjectNode details(String name, String kind) {
        return JsonNodeFactory.instance.objectNode().put("name", name).put("group", KUBEVIRT).put("kind", kind);
    }

    private ResourceType type(String plural) {
        return api.registry().find(KUBEVIRT, "v1", plural).orElseThrow(ApiException::pathNotFound);
    }

    /** The answer of an in-process request. */
    private static final class Captured implements ResponseChannel {
        int code;
        final ByteArrayOutputStream body = new ByteArrayOutputStream();

        @Override
        public void respond(int c, String contentType, byte[] b) {
            code = c;
            body.writeBytes(b == null ? new byte[0] : b);
        }

        @Override
        public void startStream(String contentType) {
        }

        @Override
        public void sendFrame(byte[] frame) {
        }

        @Override
        public void endStream() {
        }

        @Override
        public void onClose(Runnable action) {
        }
    }
}
