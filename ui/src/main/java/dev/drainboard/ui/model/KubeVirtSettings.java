package dev.drainboard.ui.model;

import java.util.List;

/**
 * The KubeVirt configuration in force, as text for the views.
 *
 * @param source      {@code namespace/name} of the KubeVirt CR, or empty when KubeVirt's defaults apply
 * @param migrations  migration limits, in a stable order, as label/value pairs
 */
public record KubeVirtSettings(String source, String evictionStrategy, List<Setting> migrations,
                               List<String> featureGates, String profile) {

    /** Without a KubeVirt profile to show. */
    public KubeVirtSettings(String source, String evictionStrategy, List<Setting> migrations, List<String> featureGates) {
        this(source, evictionStrategy, migrations, featureGates, "");
    }

    public record Setting(String label, String value) {
    }

    public KubeVirtSettings {
        profile = profile == null ? "" : profile;
        migrations = List.copyOf(migrations);
        featureGates = List.copyOf(featureGates);
    }
}
