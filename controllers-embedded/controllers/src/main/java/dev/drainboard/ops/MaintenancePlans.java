package dev.drainboard.ops;

import dev.drainboard.kubevirt.api.VirtualMachine;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceMigration;
import dev.drainboard.maintenance.MaintenancePlan;
import dev.drainboard.maintenance.MaintenancePlanSpec;
import dev.drainboard.ops.maintenance.MaintenanceInputs;
import dev.drainboard.ops.maintenance.MaintenancePlanDecision;
import dev.drainboard.ops.maintenance.MaintenancePlanPreview;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Maintenance plans through the API (blocking calls): the planner's preview of a spec read from the cluster now (the
 * same {@link MaintenancePlanDecision} a plan's leader runs), the plans in the cluster, creating one and setting its
 * {@code spec.action}. The console's Maintenance view calls these off the FX thread.
 */
public final class MaintenancePlans {

    /** How a plan drains each node: as {@code drainboard drain} of a node holding VMs (DaemonSets stay, emptyDir data goes). */
    public static final DrainOptions DRAIN = DrainOptions.defaults().withIgnoreDaemonSets(true).withDeleteEmptyDirData(true);

    private final KubernetesClient client;

    public MaintenancePlans(KubernetesClient client) {
        this.client = client;
    }

    /**
     * What the plan would do if it started now; writes nothing. A spec the leader would refuse, an unknown node or a
     * selector the API server rejects is an {@link OpsException} with its reason.
     */
    public MaintenancePlanPreview preview(MaintenancePlanSpec spec) {
        String invalid = spec.invalidBecause();
        if (invalid != null) {
            throw new OpsException(OpsException.Kind.REFUSED, invalid, null);
        }
        List<String> nodes = nodesOf(spec);
        PlacementInputs cluster = ClusterReads.placement(client);
        Set<String> known = new java.util.HashSet<>();
        cluster.nodes().forEach(n -> known.add(n.getMetadata().getName()));
        for (String n : nodes) {
            if (!known.contains(n)) {
                throw new OpsException(OpsException.Kind.NOT_FOUND, "nodes \"" + n + "\" not found", null);
            }
        }
        MaintenanceInputs in = new MaintenanceInputs(nodes, spec.maxUnavailableOrDefault(),
                spec.afterDrainOrNone().pauseDuration(), cluster,
                all(() -> client.resources(VirtualMachineInstance.class).inAnyNamespace().list().getItems()),
                all(() -> client.resources(VirtualMachine.class).inAnyNamespace().list().getItems()),
                client.policy().v1().podDisruptionBudget().inAnyNamespace().list().getItems(),
                all(() -> client.resources(VirtualMachineInstanceMigration.class).inAnyNamespace().list().getItems()),
                ClusterReads.clusterConfig(client), DRAIN, Instant.now());
        return MaintenancePlanDecision.decide(in);
    }

    /** The spec's nodes: its list, or the nodes its selector matches now (sorted by name). */
    private List<String> nodesOf(MaintenancePlanSpec spec) {
        if (spec.nodes() != null && !spec.nodes().isEmpty()) {
            return spec.nodes();
        }
        try {
            List<String> matched = client.nodes().withLabelSelector(spec.nodeSelector()).list().getItems().stream()
                    .map(n -> n.getMetadata().getName()).sorted().toList();
            if (matched.isEmpty()) {
                throw new OpsException(OpsException.Kind.REFUSED, "no node matches the selector \"" + spec.nodeSelector() + "\"", null);
            }
            return matched;
        } catch (KubernetesClientException e) {
            if (e.getCode() == 400) {
                throw new OpsException(OpsException.Kind.REFUSED, "invalid node selector \"" + spec.nodeSelector() + "\": "
                        + (e.getStatus() == null ? e.getMessage() : e.getStatus().getMessage()), e);
            }
            throw OpsException.from("nodes", e);
        }
    }

    /** The plans in the cluster, newest first. */
    public List<MaintenancePlan> list() {
        try {
            List<MaintenancePlan> plans = new ArrayList<>(client.resources(MaintenancePlan.class).list().getItems());
            plans.sort(Comparator.comparing((MaintenancePlan p) -> String.valueOf(p.getMetadata().getCreationTimestamp()))
                    .reversed().thenComparing(MaintenancePlan::name));
            return plans;
        } catch (KubernetesClientException e) {
            if (e.getCode() == 404) {
                throw new OpsException(OpsException.Kind.NOT_FOUND, "this cluster has no " + MaintenancePlan.CRD_NAME
                        + " CRD (drainboard controllers --install-crds installs it)", e);
            }
            throw OpsException.from("maintenanceplans", e);
        }
    }

    /** Creates a plan named {@code maintenance-<random>}; returns its name. */
    public String create(MaintenancePlanSpec spec) {
        String invalid = spec.invalidBecause();
        if (invalid != null) {
            throw new OpsException(OpsException.Kind.REFUSED, invalid, null);
        }
        try {
            return client.resource(new MaintenancePlan("maintenance-", spec)).create().name();
        } catch (KubernetesClientException e) {
            throw OpsException.from("maintenanceplans", e);
        }
    }

    /** Sets {@code spec.action} (Run resumes, Pause, Abort) with a merge patch, as {@code kubectl patch mp} would. */
    public void setAction(String plan, MaintenancePlanSpec.Action action) {
        try {
            client.resources(MaintenancePlan.class).withName(plan).patch(
                    io.fabric8.kubernetes.client.dsl.base.PatchContext.of(io.fabric8.kubernetes.client.dsl.base.PatchType.JSON_MERGE),
                    "{\"spec\":{\"action\":\"" + action.name() + "\"}}");
        } catch (KubernetesClientException e) {
            throw OpsException.from("maintenanceplan \"" + plan + "\"", e);
        }
    }

    /** A list of a KubeVirt kind; none when the cluster does not serve it (KubeVirt not installed). */
    private static <T extends HasMetadata> List<T> all(Supplier<List<T>> list) {
        try {
            return list.get();
        } catch (KubernetesClientException e) {
            if (e.getCode() == 404) {
                return List.of();
            }
            throw OpsException.from("reading the cluster", e);
        }
    }
}
