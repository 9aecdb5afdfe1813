package dev.drainboard.history;

import io.fabric8.kubernetes.api.model.KubernetesResourceList;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.MixedOperation;
import io.fabric8.kubernetes.client.dsl.Resource;

import java.net.HttpURLConnection;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * The drain records of one cluster: read, created, their status written, the oldest deleted beyond
 * {@link HistoryLimits#RECORDS_KEPT}. Every failure becomes a {@link HistoryUnavailableException} that tells the
 * operator what to do.
 */
public final class HistoryStore {

    /** What a cluster without the CRD gets told. */
    public static final String NO_CRD_MESSAGE = "drain history is not kept on this cluster: the CRD "
            + DrainRecord.CRD_NAME + " is not installed (run `drainboard install-crds --kubeconfig FILE` to keep it)";

    /** Newest first; ties by name, so a listing is stable. */
    public static final Comparator<DrainRecord> NEWEST_FIRST = Comparator.comparing(DrainRecord::startedAt).reversed()
            .thenComparing(DrainRecord::name, Comparator.reverseOrder());

    private final KubernetesClient client;

    public HistoryStore(KubernetesClient client) {
        this.client = client;
    }

    private MixedOperation<DrainRecord, ? extends KubernetesResourceList<DrainRecord>, Resource<DrainRecord>> records() {
        return client.resources(DrainRecord.class);
    }

    /** Every record, newest first. */
    public List<DrainRecord> list() throws HistoryUnavailableException {
        try {
            List<DrainRecord> all = new ArrayList<>(records().list().getItems());
            all.sort(NEWEST_FIRST);
            return all;
        } catch (KubernetesClientException e) {
            throw unavailable("list", e);
        }
    }

    /** One record (from the list: a missing CRD then says so, where a get would only answer "not found"). */
    public Optional<DrainRecord> get(String name) throws HistoryUnavailableException {
        return list().stream().filter(r -> r.name().equals(name)).findFirst();
    }

    /** Creates the record (its name generated from its prefix) and writes its status; returns it as stored. */
    public DrainRecord create(DrainRecord record, DrainRecordStatus status) throws HistoryUnavailableException {
        DrainRecord created;
        try {
            created = records().resource(record).create();
        } catch (KubernetesClientException e) {
            throw unavailable("create", e);
        }
        return writeStatus(created, status);
    }

    /** Replaces the record's status; on a conflict reads it again once. Returns it as stored. */
    public DrainRecord writeStatus(DrainRecord current, DrainRecordStatus status) throws HistoryUnavailableException {
        DrainRecord next = copy(current);
        next.setStatus(status);
        try {
            return records().resource(next).updateStatus();
        } catch (KubernetesClientException e) {
            if (e.getCode() != HttpURLConnection.HTTP_CONFLICT) {
                throw unavailable("update", e);
            }
        }
        try {
            DrainRecord fresh = records().withName(current.name()).get();
            if (fresh == null) {
                throw new HistoryUnavailableException(HistoryUnavailableException.Reason.FAILED,
                        "drain record " + current.name() + " was deleted", null);
            }
            fresh.setStatus(status);
            return records().resource(fresh).updateStatus();
        } catch (KubernetesClientException e) {
            throw unavailable("update", e);
        }
    }

    /** Deletes the oldest records beyond {@code keep}; returns how many. */
    public int prune(int keep) throws HistoryUnavailableException {
        List<DrainRecord> all = list();
        int deleted = 0;
        for (DrainRecord old : all.subList(Math.min(keep, all.size()), all.size())) {
            try {
                records().withName(old.name()).delete();
                deleted++;
            } catch (KubernetesClientException e) {
                if (e.getCode() != HttpURLConnection.HTTP_NOT_FOUND) {
                    throw unavailable("delete", e);
                }
            }
        }
        return deleted;
    }

    private DrainRecord copy(DrainRecord record) {
        return client.getKubernetesSerialization().clone(record);
    }

    /** A client error as the operator should read it. */
    public static HistoryUnavailableException unavailable(String verb, KubernetesClientException e) {
        String serverMessage = e.getStatus() != null && e.getStatus().getMessage() != null ? e.getStatus().getMessage() : e.getMessage();
        if (e.getCode() == HttpURLConnection.HTTP_NOT_FOUND && !"get".equals(verb)) {
            return new HistoryUnavailableException(HistoryUnavailableException.Reason.NO_CRD, NO_CRD_MESSAGE, e);
        }
        if (e.getCode() == HttpURLConnection.HTTP_FORBIDDEN) {
            return new HistoryUnavailableException(HistoryUnavailableException.Reason.FORBIDDEN,
                    "drain history is not kept on this cluster: " + serverMessage, e);
        }
        return new HistoryUnavailableException(HistoryUnavailableException.Reason.FAILED,
                "cannot " + verb + " drain records: " + (e.getCode() == 0 ? rootMessage(e) : serverMessage), e);
    }

    private static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return String.valueOf(t.getMessage());
    }
}
