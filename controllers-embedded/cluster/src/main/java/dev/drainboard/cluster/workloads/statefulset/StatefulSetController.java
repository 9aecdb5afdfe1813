package dev.drainboard.cluster.workloads.statefulset;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drainboard.cluster.apiserver.ApiException;
import dev.drainboard.cluster.apiserver.BuiltinResources;
import dev.drainboard.cluster.apiserver.Json;
import dev.drainboard.cluster.workloads.TemplateHashes;
import dev.drainboard.cluster.workloads.WorkloadApi;
import dev.drainboard.cluster.workloads.WorkloadController;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * kube-controller-manager's StatefulSet controller ({@code pkg/controller/statefulset}): pods {@code <set>-0 …
 * <set>-N-1} with their identity labels, created in order (OrderedReady) or together (Parallel), the claims of their
 * volumeClaimTemplates, a missing or finished ordinal created again under its name, rolling updates by revision,
 * and the status {@code kubectl rollout status sts/NAME} reads. Each sync asks {@link StatefulSetDecision}.
 *
 * <p>ControllerRevisions are simplified: they are not stored as objects. A revision is {@code <set>-<hash>} of the
 * template ({@link TemplateHashes#revisionHash}), and the controller remembers, per set, the template of each
 * revision it has seen. When it first meets a set whose status describes its current generation, it takes the
 * status's {@code updateRevision} (and {@code currentRevision} when equal) as the name of the set's template, as
 * kube would find it among the set's ControllerRevisions: a scenario copied from a real cluster keeps its pods.
 */
public final class StatefulSetController extends WorkloadController {

    /** Per set uid: revision name by the canonical JSON of its template, and the template by name. */
    private final Map<String, History> histories = new ConcurrentHashMap<>();

    private record History(Map<String, String> namesByTemplate, Map<String, JsonNode> templatesByName) {
        History() {
            this(new ConcurrentHashMap<>(), new ConcurrentHashMap<>());
        }
    }

    public StatefulSetController(WorkloadApi api) {
        super(api, "statefulset-controller", BuiltinResources.STATEFUL_SETS, BuiltinResources.PODS);
    }

    @Override
    protected boolean selects(ObjectNode set, ObjectNode pod) {
        return StatefulSetDecision.isMemberOf(set, pod) && selectorMatches(set, pod);
    }

    @Override
    protected void sync(String namespace, String name) {
        ObjectNode set = store.get(BuiltinResources.STATEFUL_SETS, namespace, name);
        if (set == null) {
            return;
        }
        List<ObjectNode> pods = claim(set, p -> true);
        StatefulSetDecision.Revisions revisions = revisions(set);
        Instant now = store.clock().instant();
        StatefulSetDecision.Result result = StatefulSetDecision.sync(set, pods, revisions, now);
        for (StatefulSetDecision.Action action : result.actions()) {
            switch (action) {
                case StatefulSetDecision.CreatePod create -> createPod(set, create);
                case StatefulSetDecision.DeletePod delete -> {
                    try {
                        if (deletePod(namespace, delete.name())) {
                            events.normal(set, "SuccessfulDelete", "delete Pod " + delete.name() + " in StatefulSet " + name + " successful");
                        }
                    } catch (ApiException e) {
                        events.warning(set, "FailedDelete", "delete Pod " + delete.name() + " in StatefulSet " + name + " failed error: " + e.getMessage());
                        throw e;
                    }
                }
                case StatefulSetDecision.LabelPod label -> labelPod(namespace, label);
            }
        }
        writeStatus(set, result.status());
        Instant next = StatefulSetDecision.nextAvailability(set, pods, now);
        if (next != null) {
            queue.addAfter(namespace + "/" + name, Math.max(10, Duration.between(now, next).toMillis() + 1000));
        }
    }

    /** The update revision of the set's template, and the current revision when its template is known. */
    private StatefulSetDecision.Revisions revisions(ObjectNode set) {
        History history = histories.computeIfAbsent(Json.uid(set), uid -> new History());
        JsonNode template = set.path("spec").path("template");
        String key = TemplateHashes.canonicalJson(template);
        JsonNode status = set.path("status");
        String updateName = history.namesByTemplate().get(key);
        if (updateName == null) {
            String fromStatus = status.path("updateRevision").asText("");
            boolean statusIsCurrent = status.path("observedGeneration").asLong(0) == set.path("metadata").path("generation").asLong(1);
            updateName = history.templatesByName().isEmpty() && statusIsCurrent && !fromStatus.isEmpty()
                    ? fromStatus : Json.name(set) + "-" + TemplateHashes.revisionHash(template);
            history.namesByTemplate().put(key, updateName);
            history.templatesByName().put(updateName, template.deepCopy());
        }
        String currentName = status.path("currentRevision").asText("");
        JsonNode currentTemplate = history.templatesByName().get(currentName);
        return currentTemplate == null
                ? new StatefulSetDecision.Revisions(null, null, updateName)
                : new StatefulSetDecision.Revisions(currentName, currentTemplate, updateName);
    }

    private void createPod(ObjectNode set, StatefulSetDecision.CreatePod create) {
        String namespace = Json.namespace(set);
        String podName = Json.name(create.pod());
        for (ObjectNode claim : create.claims()) {
            if (store.get(BuiltinResources.PERSISTENT_VOLUME_CLAIMS, namespace, Json.name(claim)) != null) {
                continue;
            }
            try {
                api.create(BuiltinResources.PERSISTENT_VOLUME_CLAIMS, namespace, claim);
                events.normal(set, "SuccessfulCreate", "create Claim " + Json.name(claim) + " Pod " + podName + " in StatefulSet "
                        + Json.name(set) + " success");
            } catch (ApiException e) {
                if (e.code() != 409) {
                    events.warning(set, "FailedCreate", "create Claim " + Json.name(claim) + " for Pod " + podName + " in StatefulSet "
                            + Json.name(set) + " failed error: " + e.getMessage());
                    throw e;
                }
            }
        }
        try {
            api.create(BuiltinResources.PODS, namespace, create.pod());
            events.normal(set, "SuccessfulCreate", "create Pod " + podName + " in StatefulSet " + Json.name(set) + " successful");
        } catch (ApiException e) {
            events.warning(set, "FailedCreate", "create Pod " + podName + " in StatefulSet " + Json.name(set) + " failed error: " + e.getMessage());
            throw e;
        }
    }

    private void labelPod(String namespace, StatefulSetDecision.LabelPod label) {
        try {
            store.update(BuiltinResources.PODS, namespace, label.name(), pod -> {
                if (Json.uid(pod).equals(label.uid())) {
                    ObjectNode labels = Json.metadata(pod).with("labels");
                    label.labels().forEach(labels::put);
                }
                return pod;
            }, false);
        } catch (ApiException e) {
            if (e.code() != 404) {
                throw e;
            }
        }
    }

    @Override
    protected void forget(String uid) {
        histories.remove(uid);
    }
}
