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
