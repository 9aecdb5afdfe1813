package dev.drainboard.ui.controllers;

import dev.drainboard.kubevirt.ProfileChoice;

import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.prefs.Preferences;

/**
 * The operator's choice of KubeVirt release for the embedded cluster (docs/kubevirt-versions.md): written into the
 * cluster's KubeVirt CR status, from which the controllers, the webhook and the console follow it, and remembered per
 * cluster so the next session of that cluster starts on it.
 */
public final class KubeVirtVersionOverride {

    /** One release per profile, the choice list's entries. */
    public static final List<String> VERSIONS = List.of("v1.4.0", "v1.5.0", "v1.6.0", "v1.8.0", "v1.9.0");
    private static final String NODE = "kubevirt-version";

    private final Preferences preferences;
    private final String cluster;
    private final Consumer<String> apply;

    /**
     * @param preferences where choices are remembered (a node per cluster name below it)
     * @param cluster     the cluster's name (the session's)
     * @param apply       writes the version into the cluster (the embedded cluster's {@code setKubeVirtVersion})
     */
    public KubeVirtVersionOverride(Preferences preferences, String cluster, Consumer<String> apply) {
        this.preferences = preferences.node(NODE);
        this.cluster = cluster;
        this.apply = apply;
    }

    /** Sets the cluster's release and remembers it; a version that names no release is refused and nothing changes. */
    public void choose(String version) {
        if (ProfileChoice.override(version).isEmpty()) {
            throw new IllegalArgumentException("not a KubeVirt version: " + version);
        }
        apply.accept(version);
        preferences.put(cluster, version);
    }

    /** The release remembered for this cluster, if any. */
    public Optional<String> remembered() {
        return Optional.ofNullable(preferences.get(cluster, null));
    }

    /** Applies the remembered release (a new session of the same cluster). */
    public void restore() {
        remembered().filter(v -> ProfileChoice.override(v).isPresent()).ifPresent(apply);
    }
}
