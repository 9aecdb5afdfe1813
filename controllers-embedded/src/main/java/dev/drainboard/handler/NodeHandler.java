package dev.drainboard.handler;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drainboard.kubevirt.KubeVirtNames.Defaults;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.kubevirt.api.VmiPhase;
import dev.drainboard.runtime.ControllerFigures;
import dev.drainboard.runtime.ControllerLoop;
import dev.drainboard.runtime.EventRecorder;
import dev.drainboard.runtime.EventType;
import dev.drainboard.runtime.Keys;
import dev.drainboard.runtime.PatchTargets;
import dev.drainboard.runtime.Result;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
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
    private final HypervisorRegistry hypervisors;
    private final Clock clock;
    private final SharedIndexInformer<VirtualMachineInstance> vmis;
    private final SharedIndexInformer<PersistentVolumeClaim> claims;
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
        this.hypervisors = hypervisors;
        this.clock = clock;
        this.vmis = client.resources(VirtualMachineInstance.class).inAnyNamespace().runnableInformer(0);
        this.claims = client.persistentVolumeClaims().inAnyNamespace().runnableInformer(0);
        this.events = new EventRecorder(client, EVENT_COMPONENT, "drainboard-node-handler");
        this.loop = ControllerLoop.builder("node-handler", this::reconcile)
                .workers(workers)
                .watch(vmis, this::keyIfConcerned)
                .watchAll(claims, this::vmiKeysInNamespaceOf)
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
        vmis.start();
        claims.start();
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
            // The VMI's own domain on a node it has left (e.g. after a migration) only needs undefining once off.
            VirtualMachineInstance owner = uid.equals(vmiUid) && d.isAlive() ? vmi : null;
            if (owner != null) {
                continue;
            }
            VmiSync.Plan plan = VmiSync.decide(null, d, null, now);
            apply(null, h, d, plan);
            requeue = earlier(requeue, plan.requeueAfter());
        }

        if (vmi != null && hypervisors.serves(vmiNode)) {
            Hypervisor h = hypervisors.forNode(vmiNode).orElseThrow();
            Domain domain = h.domain(vmiUid).orElse(null);
            var liveMigratable = LiveMigratability.evaluate(vmi, claimAccessModes(vmi.getMetadata().getNamespace()));
            VmiSync.Plan plan = VmiSync.decide(vmi, domain, liveMigratable, now);
            apply(vmi, h, domain, plan);
            requeue = earlier(requeue, plan.requeueAfter());
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

    static DomainDefinition definitionOf(VirtualMachineInstance vmi) {
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
                memory, grace != null ? grace : Defaults.GRACE_PERIOD_SECONDS, vmi.getMetadata().getAnnotations());
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
            client.resources(VirtualMachineInstance.class).inNamespace(vmi.getMetadata().getNamespace())
                    .resource(PatchTargets.of(vmi, VirtualMachineInstance::new))
                    .patch(PatchContext.of(PatchType.JSON), ops.toString());
        } catch (KubernetesClientException e) {
            if (e.getCode() == 404) {
                return; // gone meanwhile: its deletion brings the key back
            }
            throw e;
        }
        LOG.debug("VMI {}/{}: phase {} → {}", vmi.getMetadata().getNamespace(), vmi.getMetadata().getName(),
                vmi.phase().map(VmiPhase::value).orElse(""), plan.phase());
    }

    /** For tests: the VMI keys whose domains the handler knows. */
    Set<String> indexedVmis() {
        return Set.copyOf(domainsByVmi.keySet());
    }
}
