package dev.drainboard.history;

import com.fasterxml.jackson.annotation.JsonIgnore;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Singular;
import io.fabric8.kubernetes.model.annotation.Version;

import java.time.Instant;
import java.util.List;

/**
 * One drain, cancelled migration or evacuation as Drainboard recorded it (cluster-scoped, group
 * {@value #GROUP}). Created when it starts; its status follows it until it ends.
 */
@Group(DrainRecord.GROUP)
@Version(DrainRecord.VERSION)
@Kind("DrainRecord")
@Plural("drainrecords")
@Singular("drainrecord")
@ShortNames("drec")
public class DrainRecord extends CustomResource<DrainRecordSpec, DrainRecordStatus> {

    /** Drainboard's own API group. */
    public static final String GROUP = "drainboard.dev";
    public static final String VERSION = "v1alpha1";
    public static final String API_VERSION = GROUP + "/" + VERSION;
    /** The CRD's name. */
    public static final String CRD_NAME = "drainrecords." + GROUP;
    /** Label with the record's kind in lower case, to list one kind. */
    public static final String KIND_LABEL = GROUP + "/record-kind";

    public DrainRecord() {
    }

    public DrainRecord(String generateNamePrefix, DrainRecordSpec spec) {
        ObjectMeta meta = new ObjectMeta();
        meta.setGenerateName(generateNamePrefix);
        meta.setLabels(new java.util.LinkedHashMap<>(java.util.Map.of(KIND_LABEL, spec.kind().name().toLowerCase(java.util.Locale.ROOT))));
        setMetadata(meta);
        setSpec(spec);
    }

    /**
     * A {@code metadata.generateName} from these parts: joined by dashes, lower-case, at most 48 characters so the
     * generated name stays well inside Kubernetes' limits however many nodes a drain has.
     */
    public static String namePrefix(String kind, List<String> nodes) {
        String what = nodes.isEmpty() ? "" : nodes.size() == 1 ? nodes.getFirst()
                : nodes.getFirst() + "-and-" + (nodes.size() - 1) + "-more";
        String prefix = (kind + "-" + what).toLowerCase(java.util.Locale.ROOT).replaceAll("[^a-z0-9.-]", "-");
        if (prefix.length() > 47) {
            prefix = prefix.substring(0, 47);
        }
        return prefix.replaceAll("[.-]+$", "") + "-";
    }

    @Override
    protected DrainRecordSpec initSpec() {
        return null;
    }

    @Override
    protected DrainRecordStatus initStatus() {
        return null;
    }

    /** When it started: the status' time, else the object's creation. */
    @JsonIgnore
    public Instant startedAt() {
        if (getStatus() != null && getStatus().startedAt() != null) {
            return HistoryTimes.parse(getStatus().startedAt());
        }
        String created = getMetadata() == null ? null : getMetadata().getCreationTimestamp();
        return created == null ? Instant.EPOCH : HistoryTimes.parse(created);
    }

    @JsonIgnore
    public String name() {
        return getMetadata() == null ? "" : getMetadata().getName();
    }
}
