package dev.drainboard.kubevirt.crd;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionCondition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.KubernetesClientTimeoutException;

import java.net.HttpURLConnection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Installs CRDs into a cluster. An existing CRD is never touched unless {@code force} is given: then its spec is
 * replaced by ours (labels and annotations are merged, so other owners' metadata stays). Each CRD is handled on its
 * own; a failure is reported for that CRD and the others still go ahead.
 */
public final class CrdInstaller {

    /** What happened to one CRD. */
    public enum Outcome {
        /** It did not exist and was created. */
        CREATED,
        /** It existed and was left alone (no {@code force}). */
        SKIPPED,
        /** It existed and was replaced ({@code force}). */
        UPDATED,
        /** The API server refused, or it did not become Established in time. */
        FAILED
    }

    /** The outcome for the CRD {@code name}; {@code message} says why it failed, else is empty. */
    public record Result(String name, Outcome outcome, String message) {
    }

    private static final int UPDATE_ATTEMPTS = 3;

    private final KubernetesClient client;
    private final Duration establishTimeout;

    public CrdInstaller(KubernetesClient client) {
        this(client, Duration.ofSeconds(30));
    }

    /** {@code establishTimeout}: how long to wait for a created or updated CRD to report {@code Established}. */
    public CrdInstaller(KubernetesClient client, Duration establishTimeout) {
        this.client = client;
        this.establishTimeout = establishTimeout;
    }

    /** Installs every KubeVirt CRD of {@link KubeVirtCrds}. */
    public List<Result> installKubeVirtCrds(boolean force) {
        return install(KubeVirtCrds.definitions(), force);
    }

    /** Installs Drainboard's own CRDs of {@link DrainboardCrds} (the drain history). */
    public List<Result> installDrainboardCrds(boolean force) {
        return install(DrainboardCrds.definitions(), force);
    }

    public List<Result> install(List<CustomResourceDefinition> crds, boolean force) {
        List<Result> results = new ArrayList<>();
        for (CustomResourceDefinition crd : crds) {
            results.add(installOne(crd, force));
        }
        return results;
    }

    private Result installOne(CustomResourceDefinition wanted, boolean force) {
        String name = wanted.getMetadata().getName();
        try {
            Outcome outcome = createOrReplace(wanted, force);
            if (outcome != Outcome.SKIPPED && !awaitEstablished(name)) {
                return new Result(name, Outcome.FAILED,
                        "not Established within " + establishTimeout.toSeconds() + " s");
            }
            return new Result(name, outcome, "");
        } catch (KubernetesClientException e) {
            return new Result(name, Outcome.FAILED, describe(e));
        }
    }

    private Outcome createOrReplace(CustomResourceDefinition wanted, boolean force) {
        var crds = client.apiextensions().v1().customResourceDefinitions();
        for (int attempt = 1; ; attempt++) {
            CustomResourceDefinition existing = crds.withName(wanted.getMetadata().getName()).get();
            try {
                if (existing == null) {
                    crds.resource(copyOf(wanted)).create();
                    return Outcome.CREATED;
                }
                if (!force) {
                    return Outcome.SKIPPED;
                }
                crds.resource(replacement(existing, wanted)).update();
                return Outcome.UPDATED;
            } catch (KubernetesClientException e) {
                // Someone else created or changed it between our read and our write: read again.
                boolean raced = e.getCode() == HttpURLConnection.HTTP_CONFLICT;
                if (!raced || attempt == UPDATE_ATTEMPTS) {
                    throw e;
                }
            }
        }
    }

    /** Our spec on the existing object's identity, with both sets of labels and annotations. */
    private CustomResourceDefinition replacement(CustomResourceDefinition existing, CustomResourceDefinition wanted) {
        CustomResourceDefinition result = copyOf(wanted);
        var metadata = result.getMetadata();
        metadata.setResourceVersion(existing.getMetadata().getResourceVersion());
        var labels = new LinkedHashMap<String, String>();
        if (existing.getMetadata().getLabels() != null) {
            labels.putAll(existing.getMetadata().getLabels());
        }
        if (metadata.getLabels() != null) {
            labels.putAll(metadata.getLabels());
        }
        metadata.setLabels(labels);
        var annotations = new LinkedHashMap<String, String>();
        if (existing.getMetadata().getAnnotations() != null) {
            annotations.putAll(existing.getMetadata().getAnnotations());
        }
        if (metadata.getAnnotations() != null) {
            annotations.putAll(metadata.getAnnotations());
        }
        metadata.setAnnotations(annotations.isEmpty() ? null : annotations);
        return result;
    }

    private boolean awaitEstablished(String name) {
        try {
            client.apiextensions().v1().customResourceDefinitions().withName(name)
                    .waitUntilCondition(CrdInstaller::isEstablished, establishTimeout.toMillis(), TimeUnit.MILLISECONDS);
            return true;
        } catch (KubernetesClientTimeoutException e) {
            return false;
        }
    }

    static boolean isEstablished(CustomResourceDefinition crd) {
        if (crd == null || crd.getStatus() == null || crd.getStatus().getConditions() == null) {
            return false;
        }
        for (CustomResourceDefinitionCondition condition : crd.getStatus().getConditions()) {
            if ("Established".equals(condition.getType()) && "True".equals(condition.getStatus())) {
                return true;
            }
        }
        return false;
    }

    private CustomResourceDefinition copyOf(CustomResourceDefinition crd) {
        return client.getKubernetesSerialization().clone(crd);
    }

    private static String describe(KubernetesClientException e) {
        if (e.getStatus() != null && e.getStatus().getMessage() != null) {
            return e.getCode() + " " + e.getStatus().getMessage();
        }
        return String.valueOf(e.getMessage());
    }
}
