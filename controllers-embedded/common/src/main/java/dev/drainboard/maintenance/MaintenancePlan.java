package dev.drainboard.maintenance;

import com.fasterxml.jackson.annotation.JsonIgnore;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Singular;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * A rolling maintenance of nodes (cluster-scoped, group {@value #GROUP}): which nodes, how many at once, what happens
 * to a node once drained; its status is the plan worked out when it started and how each node went.
 */
@Group(MaintenancePlan.GROUP)
@Version(MaintenancePlan.VERSION)
@Kind("MaintenancePlan")
@Plural("maintenanceplans")
@Singular("maintenanceplan")
@ShortNames("mp")
public class MaintenancePlan extends CustomResource<MaintenancePlanSpec, MaintenancePlanStatus> {

    public static final String GROUP = "drainboard.dev";
    public static final String VERSION = "v1alpha1";
    public static final String API_VERSION = GROUP + "/" + VERSION;
    public static final String KIND = "MaintenancePlan";
    /** The CRD's name. */
    public static final String CRD_NAME = "maintenanceplans." + GROUP;

    /**
     * Held by a started, unfinished plan so that deleting it first lets the leader undo its part (cancel its
     * migrations, uncordon the nodes it cordoned: docs/maintenance.md); removed once the plan has ended.
     */
    public static final String FINALIZER = GROUP + "/maintenance-plan";

    public MaintenancePlan() {
    }

    public MaintenancePlan(String name, MaintenancePlanSpec spec) {
        ObjectMeta meta = new ObjectMeta();
        if (name.endsWith("-")) {
            meta.setGenerateName(name);
        } else {
            meta.setName(name);
        }
        setMetadata(meta);
        setSpec(spec);
    }

    @Override
    protected MaintenancePlanSpec initSpec() {
        return null;
    }

    @Override
    protected MaintenancePlanStatus initStatus() {
        return null;
    }

    @JsonIgnore
    public String name() {
        return getMetadata() == null ? "" : getMetadata().getName();
    }

    /** The phase, {@link MaintenancePlanStatus.Phase#Planning} before the leader has looked at it. */
    @JsonIgnore
    public MaintenancePlanStatus.Phase phase() {
        return getStatus() == null || getStatus().phase() == null ? MaintenancePlanStatus.Phase.Planning : getStatus().phase();
    }

    /** Whether it has ended (Succeeded, Failed or Aborted): nothing more happens to it. */
    @JsonIgnore
    public boolean finished() {
        return phase().finished();
    }
}
