package dev.drainboard.ops.maintenance;

import dev.drainboard.maintenance.MaintenancePlan;
import dev.drainboard.maintenance.MaintenancePlanSpec;
import dev.drainboard.ops.OpsException;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Maintenance plans through the API (blocking calls): the planner's preview of a spec read from the cluster now (the
 * same reads and {@code MaintenancePlanDecision} a plan's leader runs), the plans in the cluster, creating one and
 * setting its {@code spec.action}. The console's Maintenance view calls these off the FX thread.
 */
public final class MaintenancePlans {

    private final KubernetesClient client;
    private final MaintenanceOps maintenance;

    public MaintenancePlans(KubernetesClient client) {
        this.client = client;
        this.maintenance = new MaintenanceOps(client);
    }

    /**
     * What the plan would do if it started now, as its leader would work it out ({@link MaintenanceOps#nodes},
     * {@link MaintenanceOps#preview}); writes nothing. A spec the leader would refuse, an unknown node or a selector
     * that matches nothing or that the API server rejects is an {@link OpsException} with its reason.
     */
    public MaintenancePlanPreview preview(MaintenancePlanSpec spec) {
        String invalid = spec.invalidBecause();
        if (invalid != null) {
            throw new OpsException(OpsException.Kind.REFUSED, invalid, null);
        }
        List<String> nodes;
        try {
            nodes = maintenance.nodes(spec);
        } catch (IllegalArgumentException e) {
            throw new OpsException(OpsException.Kind.REFUSED, e.getMessage(), e);
        } catch (KubernetesClientException e) {
            throw OpsException.from("nodes", e);
        }
        return maintenance.preview(spec, nodes);
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
}
