package dev.drainboard.handler;

import dev.drainboard.kubevirt.KubeVirtAnnotations;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drainboard.hypervisor.Domain;
import dev.drainboard.hypervisor.DomainDefinition;
import dev.drainboard.hypervisor.DomainListener;
import dev.drainboard.hypervisor.DomainState;
import dev.drainboard.hypervisor.Hypervisor;
import dev.drainboard.hypervisor.HypervisorRegistry;
import dev.drainboard.hypervisor.MigrationOptions;
import dev.drainboard.hypervisor.MigrationProgress;
import dev.drainboard.kubevirt.DrainboardAnnotations;
import dev.drainboard.kubevirt.KubeVirtDefaults;
import dev.drainboard.kubevirt.KubeVirtEventReasons;
import dev.drainboard.kubevirt.KubeVirtLabels;
import dev.drainboard.kubevirt.KubeVirtMessages;
import dev.drainboard.kubevirt.KubeVirtValues;
import dev.drainboard.kubevirt.DeschedulerAnnotations;
import dev.drainboard.kubevirt.api.MigrationState;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceMigration;
import dev.drainboard.kubevirt.api.VmiPhase;
import dev.drainboard.kubevirt.config.ClusterConfigSource;
import dev.drainboard.runtime.ControllerFigures;
import dev.drainboard.runtime.ControllerLoop;
import dev.drainboard.runtime.EventRecorder;
import dev.drainboard.runtime.EventType;
import dev.drainboard.runtime.Keys;
import dev.drainboard.runtime.LeanWrites;
import dev.drainboard.runtime.Result;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The node-side half of KubeVirt (virt-handler) for every node that has a {@link Hypervisor} in the registry. It
 * sees the cluster only through the Kubernetes API (informers on VMIs and PVCs, JSON patches on VMI status, core
 * Events), as virt-handler does, and drives the hypervisors; the decisions are {@link VmiSync} and
 * {@link LiveMigratability}.
 *
 * <p>It is not subject to leader election: the hypervisors it drives live in this process, so this process is the
 * only one that can serve them. Against a real cluster the registry is empty and it does nothing.
 *
 * <p>Queue key: the VMI's {@code namespace/name}. A VMI is looked at when it changes, when a PVC in its namespace
 * changes, and when one of its domains changes.
 */
public final class NodeHandler implements AutoCloseable {

    /** {@code source.component} of its events, as KubeVirt's node agent names itself. */
    public static final String EVENT_COMPONENT = "virt-handler";
    private static final Logger LOG = LoggerFactory.getLogger(NodeHandler.class);
    private static final ObjectMapper JSON = Serialization.jsonMapper();

    private final KubernetesClient client;
    private final LeanWrites writes;
    private final HypervisorRegistry hypervisors;
    private final Clock clock;
    private final SharedIndexInformer<VirtualMachineInstance> vmis;
    private final SharedIndexInformer<PersistentVolumeClaim> claims;
    private final SharedIndexInformer<VirtualMachineInstanceMigration> migrations;
    private final SharedIndexInformer<Node> nodes;
    private ClusterConfigSource config;
    private final EventRecorder events;
    private final ControllerLoop<String> loop;
    /** Every domain this handler may have to deal with, by VMI key: node name → VMI uid. */
    private final Map<String, Map<String, String>> domainsByVmi = new ConcurrentHashMap<>();
    private final DomainListener domainListener = this::onDomainChanged;
    private final java.util.function.Consumer<String> nodeListener = this::onNodeChanged;
    private boolean started;

    /**
     * @param client      used for informers, patches and events; not closed by this handler
     * @param hypervisors the nodes served
     * @param workers     reconcile threads (KubeVirt's virt-handler uses 10 per node)
     */
    public NodeHandler(KubernetesClient client, HypervisorRegistry hypervisors, int workers) {
        this(client, hypervisors, workers, Clock.systemUTC());
    }

    public NodeHandler(KubernetesClient client, HypervisorRegistry hypervisors) {
        this(client, hypervisors, 4);
    }

    NodeHandler(KubernetesClient client, HypervisorRegistry hypervisors, int workers, Clock clock) {
        this.client = client;
        this.writes = new LeanWrites(client);
        this.hypervisors = hypervisors;
        this.clock = clock;
        this.vmis = client.resources(VirtualMachineInstance.class).inAnyNamespace().runnableInformer(0);
        this.claims = client.persistentVolumeClaims().inAnyNamespace().runnableInformer(0);
        this.migrations = client.resources(VirtualMachineInstanceMigration.class).inAnyNamespace().runnableInformer(0);
        this.nodes = client.nodes().runnableInformer(0);
        this.events = new EventRecorder(client, EVENT_COMPONENT, "drainboard-node-handler");
        this.loop = ControllerLoop.builder("node-handler", this::reconcile)
                .workers(workers)
                .watch(vmis, this::keyIfConcerned)
                .watchAll(claims, this::vmiKeysInNamespaceOf)
                .waitFor(migrations)
                .waitFor(nodes)
                .build();
    }

    /** Starts the informers and the workers (once the caches are synced); returns at once. */
    public synchronized void start() {
        if (started) {
            return;
        }
        started = true;
        hypervisors.addDomainListener(domainListener);
        hypervisors.addNodeListener(nodeListener);
        for (Hypervisor h : hypervisors.all()) {
            h.domains().forEach(this::index);
        }
        config = ClusterConfigSource.start(client);
        vmis.start();
        claims.start();
        migrations.start();
        nodes.start();
        loop.start();
    }

    public boolean hasSynced() {
        return vmis.hasSynced() && claims.hasSynced() && loop.isRunning();
    }

    public ControllerFigures figures() {
        return loop.figures();
    }

    /** Stops the workers, the informers and the event writer; the hypervisors keep their domains. */
    @Override
    public synchronized void close() {
        hypervisors.removeDomainListener(domainListener);
        hypervisors.removeNodeListener(nodeListener);
        loop.close();
        vmis.stop();
        claims.stop();
        migrations.stop();
        nodes.stop();
        if (config != null) {
            config.close();
        }
        events.close();
    }

    private String keyIfConcerned(VirtualMachineInstance vmi) {
        String key = Keys.of(vmi);
        String node = vmi.getStatus() == null ? null : vmi.getStatus().getNodeName();
        return hypervisors.serves(node) || domainsByVmi.containsKey(key) ? key : null;
    }

    private List<String> vmiKeysInNamespaceOf(PersistentVolumeClaim claim) {
        List<String> keys = new ArrayList<>();
        for (VirtualMachineInstance vmi : vmis.getIndexer().byIndex(Cache.NAMESPACE_INDEX, claim.getMetadata().getNamespace())) {
            String key = keyIfConcerned(vmi);
            if (key != null) {
                keys.add(key);
            }
        }
        return keys;
    }

    private void onDomainChanged(Domain domain) {
        index(domain);
        loop.enqueue(Keys.of(domain.namespace(), domain.name()));
    }

    private void index(Domain domain) {
        String key = Keys.of(domain.namespace(), domain.name());
        if (domain.state() == DomainState.NONE) {
            domainsByVmi.computeIfPresent(key, (k, m) -> {
                m.remove(domain.nodeName(), domain.vmiUid());
                return m.isEmpty() ? null : m;
            });
        } else {
            domainsByVmi.computeIfAbsent(key, k -> new ConcurrentHashMap<>()).put(domain.nodeName(), domain.vmiUid());
        }
    }

    private void onNodeChanged(String node) {
        for (VirtualMachineInstance vmi : vmis.getStore().list()) {
            if (vmi.getStatus() != null && node.equals(vmi.getStatus().getNodeName())) {
                loop.enqueue(Keys.of(vmi));
            }
        }
    }

    private Result reconcile(String key) {
        VirtualMachineInstance vmi = vmis.getStore().getByKey(key);
        String vmiUid = vmi == null ? null : vmi.getMetadata().getUid();
        String vmiNode = vmi == null || vmi.getStatus() == null ? null : vmi.getStatus().getNodeName();
        Instant now = clock.instant();
        java.time.Duration requeue = null;

        // Domains of this name elsewhere: left behind on another node, or of an older VMI with this name.
        for (Map.Entry<String, String> e : Map.copyOf(domainsByVmi.getOrDefault(key, Map.of())).entrySet()) {
            String node = e.getKey();
            String uid = e.getValue();
            if (uid.equals(vmiUid) && node.equals(vmiNode)) {
                continue;
            }
            Hypervisor h = hypervisors.forNode(node).orElse(null);
            Domain d = h == null ? null : h.domain(uid).orElse(null);
            if (d == null) {
                index(Domain.none(uid, Keys.namespace(key), Keys.name(key), node));
                continue;
            }
            // The VMI's own domain on another node: a migration's source or target. It stays defined while the VMI
            // exists, so the launcher pod there sees it end (and completes) however late its kubelet looks.
            if (uid.equals(vmiUid)) {
                continue;
            }
            VmiSync.Plan plan = VmiSync.decide(null, d, null, config.current(), Map.of(), now);
            apply(null, h, d, plan);
            requeue = earlier(requeue, plan.requeueAfter());
        }

        if (vmi != null && hypervisors.serves(vmiNode)) {
            Hypervisor h = hypervisors.forNode(vmiNode).orElseThrow();
            Domain domain = h.domain(vmiUid).orElse(null);
            var liveMigratable = LiveMigratability.evaluate(vmi, claimAccessModes(vmi.getMetadata().getNamespace()));
            Node node = nodes.getStore().getByKey(vmiNode);
            VmiSync.Plan plan = VmiSync.decide(vmi, domain, liveMigratable, config.current(),
                    node == null || node.getMetadata().getAnnotations() == null ? Map.of() : node.getMetadata().getAnnotations(), now);
            apply(vmi, h, domain, plan);
            requeue = earlier(requeue, plan.requeueAfter());
        }
        if (vmi != null) {
            syncMigration(vmi, now);
        }
        return requeue == null ? Result.done() : Result.requeueAfter(requeue);
    }

    private static java.time.Duration earlier(java.time.Duration a, java.time.Duration b) {
        if (a == null) {
            return b;
        }
        return b == null || a.compareTo(b) <= 0 ? a : b;
    }

    private Map<String, List<String>> claimAccessModes(String namespace) {
        Map<String, List<String>> modes = new HashMap<>();
        for (PersistentVolumeClaim c : claims.getIndexer().byIndex(Cache.NAMESPACE_INDEX, namespace)) {
            List<String> accessModes = c.getSpec() == null || c.getSpec().getAccessModes() == null
                    ? List.of() : c.getSpec().getAccessModes();
            modes.put(c.getMetadata().getName(), accessModes);
        }
        return modes;
    }

    private void apply(VirtualMachineInstance vmi, Hypervisor h, Domain domain, VmiSync.Plan plan) {
        switch (plan.action()) {
            case NONE -> {
            }
            case START -> {
                Domain started = h.start(definitionOf(vmi));
                index(started);
            }
            case SHUTDOWN -> h.shutdown(domain.vmiUid());
            case DESTROY -> h.destroy(domain.vmiUid());
            case UNDEFINE -> h.undefine(domain.vmiUid());
        }
        if (vmi != null && plan.changesStatus()) {
            patchStatus(vmi, plan);
        }
        if (vmi != null) {
            for (VmiSync.Event e : plan.events()) {
                events.event(vmi, e.warning() ? EventType.Warning : EventType.Normal, e.reason(), "%s", e.message());
            }
        }
    }

    /**
     * The domain a VMI asks for: its guest memory ({@code spec.domain.memory.guest}, else its memory request), grace
     * period and annotations. Public so that what a migration moves can be computed as the handler does.
     */
    public static DomainDefinition definitionOf(VirtualMachineInstance vmi) {
        long memory = 0;
        var domain = vmi.getSpec() == null ? null : vmi.getSpec().getDomain();
        if (domain != null) {
            Quantity guest = domain.getMemory() == null ? null : domain.getMemory().getGuest();
            if (guest == null && domain.getResources() != null && domain.getResources().getRequests() != null) {
                guest = domain.getResources().getRequests().get("memory");
            }
            if (guest != null) {
                memory = Quantity.getAmountInBytes(guest).longValue();
            }
        }
        Long grace = vmi.getSpec() == null ? null : vmi.getSpec().getTerminationGracePeriodSeconds();
        return new DomainDefinition(vmi.getMetadata().getUid(), vmi.getMetadata().getNamespace(), vmi.getMetadata().getName(),
                memory, grace != null ? grace : KubeVirtDefaults.GRACE_PERIOD_SECONDS, vmi.getMetadata().getAnnotations());
    }

    /**
     * A JSON patch of the fields the plan changes, guarded by the resourceVersion the decision was made on: the VMI
     * CRD has no status subresource, and a write built from a stale or partial model must never land. A conflict
     * fails the pass, which is retried from the refreshed cache.
     */
    private void patchStatus(VirtualMachineInstance vmi, VmiSync.Plan plan) {
        ArrayNode ops = JsonNodeFactory.instance.arrayNode();
        ops.addObject().put("op", "test").put("path", "/metadata/resourceVersion").put("value", vmi.getMetadata().getResourceVersion());
        var status = vmi.getStatus();
        if (status == null) {
            ops.addObject().put("op", "add").put("path", "/status").set("value", JsonNodeFactory.instance.objectNode());
        }
        if (plan.conditions() != null) {
            ops.addObject().put("op", status != null && status.getConditions() != null ? "replace" : "add")
                    .put("path", "/status/conditions").set("value", JSON.valueToTree(plan.conditions()));
        }
        if (plan.evacuation() != null) {
            // A node-pressure eviction: the evacuation controller takes it from here; the cause and the expected kill
            // go with it.
            ops.addObject().put("op", "add").put("path", "/status/evacuationNodeName").put("value", plan.evacuation().node());
            addAnnotations(ops, vmi, Map.of(
                    DrainboardAnnotations.EVACUATION_CAUSE, DrainboardAnnotations.CAUSE_NODE_PRESSURE,
                    DrainboardAnnotations.NODE_PRESSURE_DEADLINE, plan.evacuation().expectedKill().truncatedTo(ChronoUnit.MILLIS).toString()));
            LOG.info("VMI {}/{}: node-pressure eviction on {}, marked for evacuation (kill expected at {})",
                    vmi.getMetadata().getNamespace(), vmi.getMetadata().getName(), plan.evacuation().node(), plan.evacuation().expectedKill());
        }
        if (plan.lostToNodePressure() != null) {
            addAnnotations(ops, vmi, Map.of(DrainboardAnnotations.LOST_TO_NODE_PRESSURE, plan.lostToNodePressure()));
            LOG.warn("VMI {}/{} lost to a node-pressure eviction: {}", vmi.getMetadata().getNamespace(), vmi.getMetadata().getName(),
                    plan.lostToNodePressure());
        }
        if (plan.phase() != null) {
            ops.addObject().put("op", status != null && status.getPhase() != null ? "replace" : "add")
                    .put("path", "/status/phase").put("value", plan.phase());
            ObjectNode stamp = JsonNodeFactory.instance.objectNode()
                    .put("phase", plan.phase())
                    .put("phaseTransitionTimestamp", clock.instant().truncatedTo(ChronoUnit.SECONDS).toString());
            if (status != null && status.getPhaseTransitionTimestamps() != null) {
                ops.addObject().put("op", "add").put("path", "/status/phaseTransitionTimestamps/-").set("value", stamp);
            } else {
                ops.addObject().put("op", "add").put("path", "/status/phaseTransitionTimestamps")
                        .set("value", JsonNodeFactory.instance.arrayNode().add(stamp));
            }
        }
        try {
            writes.patch(VirtualMachineInstance.class, vmi.getMetadata().getNamespace(), vmi.getMetadata().getName(), null,
                    PatchType.JSON, ops.toString());
        } catch (KubernetesClientException e) {
            if (e.getCode() == 404) {
                return; // gone meanwhile: its deletion brings the key back
            }
            throw e;
        }
        LOG.debug("VMI {}/{}: phase {} → {}", vmi.getMetadata().getNamespace(), vmi.getMetadata().getName(),
                vmi.phase().map(VmiPhase::value).orElse(""), plan.phase());
    }

    /**
     * JSON-patch operations that set annotations, creating the map when the object has none (the model shows a
     * missing map as an empty one, and adding below a missing member fails the whole patch).
     */
    private static void addAnnotations(ArrayNode ops, VirtualMachineInstance vmi, Map<String, String> values) {
        if (vmi.getMetadata().getAnnotations() == null || vmi.getMetadata().getAnnotations().isEmpty()) {
            ObjectNode all = JsonNodeFactory.instance.objectNode();
            values.forEach(all::put);
            ops.addObject().put("op", "add").put("path", "/metadata/annotations").set("value", all);
            return;
        }
        values.forEach((k, v) -> ops.addObject().put("op", "add").put("path", "/metadata/annotations/" + escape(k)).put("value", v));
    }

    /** The node-side steps of a live migration ({@link MigrationSync}) for the nodes this process drives. */
    private void syncMigration(VirtualMachineInstance vmi, Instant now) {
        MigrationState state = vmi.getStatus() == null ? null : vmi.getStatus().getMigrationState();
        if (state == null || state.getTargetNode() == null) {
            return;
        }
        String uid = vmi.getMetadata().getUid();
        Hypervisor source = hypervisors.forNode(vmi.getStatus().getNodeName()).orElse(null);
        Hypervisor target = hypervisors.forNode(state.getTargetNode()).orElse(null);
        MigrationProgress transfer = source == null ? null : source.migration(uid).orElse(null);
        String stamp = now.truncatedTo(ChronoUnit.SECONDS).toString();
        switch (MigrationSync.decide(vmi, source != null, target != null, transfer)) {
            case NONE -> {
            }
            case PREPARE_TARGET -> {
                index(target.prepareIncoming(definitionOf(vmi)));
                patchMigrationState(vmi, Map.of("targetNodeAddress", nodeAddress(state.getTargetNode()),
                        "targetNodeDomainDetected", true, "targetNodeDomainReadyTimestamp", stamp), List.of());
            }
            case START -> {
                Node node = nodes.getStore().getByKey(vmi.getStatus().getNodeName());
                MigrationOptions options = MigrationSync.options(MigrationSync.configOf(state, config.current().migrations()),
                        node == null ? Map.of() : node.getMetadata().getAnnotations(),
                        vmi.getMetadata().getAnnotations(), definitionOf(vmi).memoryBytes(), config.current().timeScale());
                options = MigrationSync.withNodePressureAssist(options, config.current().nodePressureAssist(), vmi,
                        source.domain(uid).map(Domain::gracefulShutdownRequestedAt).orElse(null));
                if (target == null) {
                    patchMigrationState(vmi, failure(stamp, "target node " + state.getTargetNode() + " is not reachable"),
                            List.of(removeLabel(vmi, KubeVirtLabels.MIGRATION_TARGET_NODE_NAME)));
                    return;
                }
                source.migrate(uid, target, options);
                patchMigrationState(vmi, Map.of("startTimestamp", stamp, "mode", KubeVirtValues.MIGRATION_MODE_PRE_COPY), List.of());
            }
            case ABORT -> {
                source.abortMigration(uid);
                patchMigrationState(vmi, Map.of("abortStatus", KubeVirtValues.ABORT_STATUS_ABORTING), List.of());
            }
            case REPORT_PROGRESS -> {
                publishProgress(vmi, transfer);
                if (!transfer.mode().equals(state.getMode())) {
                    patchMigrationState(vmi, Map.of("mode", transfer.mode()), List.of());
                }
            }
            case COMPLETE -> {
                publishProgress(vmi, transfer);
                complete(vmi, transfer, stamp);
            }
            case FAIL -> {
                if (transfer != null) {
                    publishProgress(vmi, transfer);
                }
                Map<String, Object> fields = failure(stamp, transfer == null ? "migration was lost by the source node"
                        : transfer.failureReason());
                if (Boolean.TRUE.equals(state.getAbortRequested())) {
                    fields = new HashMap<>(fields);
                    fields.put("abortStatus", KubeVirtValues.ABORT_STATUS_SUCCEEDED);
                }
                patchMigrationState(vmi, fields, List.of(removeLabel(vmi, KubeVirtLabels.MIGRATION_TARGET_NODE_NAME)));
            }
        }
    }

    private static Map<String, Object> failure(String stamp, String reason) {
        return Map.of("failed", true, "completed", true, "endTimestamp", stamp,
                "failureReason", reason == null ? KubeVirtMessages.MIGRATION_ABORTED : reason);
    }

    /**
     * The switch-over as the target handler acknowledges it (KubeVirt's {@code ackMigrationCompletion} in
     * {@code pkg/virt-handler/migration-target.go}): the VMI now runs on the target node, is no
     * longer marked for evacuation, and its migration state is completed.
     */
    private void complete(VirtualMachineInstance vmi, MigrationProgress transfer, String stamp) {
        String target = vmi.getStatus().getMigrationState().getTargetNode();
        ArrayNode extra = JsonNodeFactory.instance.arrayNode();
        extra.addObject().put("op", "replace").put("path", "/status/nodeName").put("value", target);
        if (vmi.getMetadata().getLabels() == null) {
            extra.addObject().put("op", "add").put("path", "/metadata/labels").set("value",
                    JsonNodeFactory.instance.objectNode().put(KubeVirtLabels.NODE_NAME, target));
        } else {
            extra.addObject().put("op", "add").put("path", "/metadata/labels/" + escape(KubeVirtLabels.NODE_NAME)).put("value", target);
        }
        List<ObjectNode> ops = new ArrayList<>();
        extra.forEach(n -> ops.add((ObjectNode) n));
        ObjectNode label = removeLabel(vmi, KubeVirtLabels.MIGRATION_TARGET_NODE_NAME);
        if (label != null) {
            ops.add(label);
        }
        if (vmi.getStatus().getEvacuationNodeName() != null) {
            ops.add(JsonNodeFactory.instance.objectNode().put("op", "remove").put("path", "/status/evacuationNodeName"));
        }
        if (DeschedulerAnnotations.hasEvictionSource(vmi)) {
            // The evacuation is over, and with it what started it (KubeVirt: virt-handler's ackMigrationCompletion).
            ops.add(JsonNodeFactory.instance.objectNode().put("op", "remove")
                    .put("path", "/metadata/annotations/" + escape(KubeVirtAnnotations.EVICTION_SOURCE)));
        }
        if (NodePressureEvacuation.markedForNodePressure(vmi)) {
            // Saved from the node-pressure eviction: its marks go with the evacuation.
            for (String key : List.of(DrainboardAnnotations.EVACUATION_CAUSE, DrainboardAnnotations.NODE_PRESSURE_DEADLINE)) {
                ops.add(JsonNodeFactory.instance.objectNode().put("op", "remove").put("path", "/metadata/annotations/" + escape(key)));
            }
        }
        patchMigrationState(vmi, Map.of("completed", true, "endTimestamp", stamp, "mode", transfer.mode()), ops);
        events.event(vmi, EventType.Normal, KubeVirtEventReasons.MIGRATED, KubeVirtMessages.MIGRATED_TO_NODE, target);
        LOG.info("VMI {}/{} migrated to {}", vmi.getMetadata().getNamespace(), vmi.getMetadata().getName(), target);
    }

    private static ObjectNode removeLabel(VirtualMachineInstance vmi, String key) {
        if (vmi.getMetadata().getLabels() == null || !vmi.getMetadata().getLabels().containsKey(key)) {
            return null;
        }
        return JsonNodeFactory.instance.objectNode().put("op", "remove").put("path", "/metadata/labels/" + escape(key));
    }

    /**
     * Sets fields of {@code status.migrationState} (plus other operations), guarded by the migration's uid and the
     * VMI's resourceVersion; a conflict fails the pass, which is retried on the refreshed cache.
     */
    private void patchMigrationState(VirtualMachineInstance vmi, Map<String, Object> fields, List<ObjectNode> more) {
        ArrayNode ops = JsonNodeFactory.instance.arrayNode();
        ops.addObject().put("op", "test").put("path", "/metadata/resourceVersion").put("value", vmi.getMetadata().getResourceVersion());
        ops.addObject().put("op", "test").put("path", "/status/migrationState/migrationUid")
                .put("value", vmi.getStatus().getMigrationState().getMigrationUid());
        fields.forEach((k, v) -> ops.addObject().put("op", "add").put("path", "/status/migrationState/" + k).set("value", JSON.valueToTree(v)));
        more.stream().filter(java.util.Objects::nonNull).forEach(ops::add);
        try {
            writes.patch(VirtualMachineInstance.class, vmi.getMetadata().getNamespace(), vmi.getMetadata().getName(), null,
                    PatchType.JSON, ops.toString());
        } catch (KubernetesClientException e) {
            if (e.getCode() != 404) {
                throw e;
            }
        }
    }

    /**
     * The transfer's progress on its VMIM, annotation {@value DrainboardAnnotations#MIGRATION_PROGRESS} (JSON: mode,
     * iteration, totalBytes, processedBytes, remainingBytes, bytesPerSecond, state, updated). The hypervisor reports
     * a running transfer at most four times a second, so this is written no more often.
     */
    private void publishProgress(VirtualMachineInstance vmi, MigrationProgress p) {
        String uid = vmi.getStatus().getMigrationState().getMigrationUid();
        VirtualMachineInstanceMigration vmim = migrations.getIndexer().byIndex(Cache.NAMESPACE_INDEX, vmi.getMetadata().getNamespace())
                .stream().filter(m -> uid.equals(m.getMetadata().getUid())).findFirst().orElse(null);
        if (vmim == null) {
            return;
        }
        ObjectNode progress = JsonNodeFactory.instance.objectNode()
                .put("state", p.state().name())
                .put("mode", p.mode())
                .put("iteration", p.iteration())
                .put("totalBytes", p.totalBytes())
                .put("processedBytes", p.processedBytes())
                .put("remainingBytes", p.remainingBytes())
                .put("bytesPerSecond", p.bytesPerSecond())
                .put("updated", clock.instant().toString());
        ObjectNode body = JsonNodeFactory.instance.objectNode();
        body.putObject("metadata").putObject("annotations").put(DrainboardAnnotations.MIGRATION_PROGRESS, progress.toString());
        try {
            writes.patch(VirtualMachineInstanceMigration.class, vmim.getMetadata().getNamespace(), vmim.getMetadata().getName(),
                    null, PatchType.JSON_MERGE, body.toString());
        } catch (KubernetesClientException e) {
            LOG.debug("progress of {} not written: {}", vmim.getMetadata().getName(), e.getMessage());
        }
    }

    /** The address the node reports (InternalIP), else its name. */
    private String nodeAddress(String nodeName) {
        Node node = nodes.getStore().getByKey(nodeName);
        if (node != null && node.getStatus() != null && node.getStatus().getAddresses() != null) {
            for (var a : node.getStatus().getAddresses()) {
                if ("InternalIP".equals(a.getType())) {
                    return a.getAddress();
                }
            }
        }
        return nodeName;
    }

    private static String escape(String key) {
        return key.replace("~", "~0").replace("/", "~1");
    }

    /** For tests: look at a VMI again now (as a timed re-check would). */
    void resync(String key) {
        loop.enqueue(key);
    }

    /** For tests: the VMI keys whose domains the handler knows. */
    Set<String> indexedVmis() {
        return Set.copyOf(domainsByVmi.keySet());
    }
}
