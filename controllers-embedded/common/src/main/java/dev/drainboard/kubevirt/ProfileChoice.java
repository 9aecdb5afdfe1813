package dev.drainboard.kubevirt;

import dev.drainboard.architecture.Pure;

import java.util.Objects;
import java.util.Optional;

/**
 * Which {@link KubeVirtProfile} applies to a cluster and what said so: the one place that decides (docs/kubevirt-versions.md).
 * The KubeVirt CR's {@code status.observedKubeVirtVersion} (what virt-operator reports once it has deployed a
 * release), else the tag of the {@code virt-controller} Deployment's image (a cluster whose operator has not reported
 * yet, or an installation without the operator), else {@link KubeVirtProfile#SEEDS}. An operator's override wins over all.
 *
 * @param profile the profile in force
 * @param source  where it came from
 * @param version the version text it was read from (empty for the default)
 */
@Pure
public record ProfileChoice(KubeVirtProfile profile, Source source, String version) {

    /** Where the profile came from. */
    public enum Source {
        /** The KubeVirt CR's {@code status.observedKubeVirtVersion}. */
        CR_STATUS("KubeVirt CR status"),
        /** The tag of the virt-controller Deployment's image. */
        VIRT_CONTROLLER_IMAGE("virt-controller image"),
        /** Nothing said: the seeds' behaviour. */
        DEFAULT("default"),
        /** Chosen by the operator (console or {@code --kubevirt-version}). */
        OVERRIDE("override");

        private final String words;

        Source(String words) {
            this.words = words;
        }

        public String words() {
            return words;
        }
    }

    public ProfileChoice {
        Objects.requireNonNull(profile, "profile");
        Objects.requireNonNull(source, "source");
        version = version == null ? "" : version;
    }

    /** The default when the cluster says nothing. */
    public static ProfileChoice defaults() {
        return new ProfileChoice(KubeVirtProfile.SEEDS, Source.DEFAULT, "");
    }

    /**
     * Decides: the CR's reported version if it reads as one, else the image's tag if it does, else the default.
     *
     * @param observedVersion     {@code status.observedKubeVirtVersion}, or null
     * @param virtControllerImage the virt-controller Deployment's container image ({@code quay.io/kubevirt/virt-controller:v1.6.2}), or null
     */
    public static ProfileChoice resolve(String observedVersion, String virtControllerImage) {
        Optional<KubeVirtProfile> reported = KubeVirtProfile.of(observedVersion);
        if (reported.isPresent()) {
            return new ProfileChoice(reported.get(), Source.CR_STATUS, observedVersion.trim());
        }
        Optional<String> tag = imageTag(virtControllerImage);
        Optional<KubeVirtProfile> tagged = tag.flatMap(KubeVirtProfile::of);
        if (tagged.isPresent()) {
            return new ProfileChoice(tagged.get(), Source.VIRT_CONTROLLER_IMAGE, tag.get());
        }
        return defaults();
    }

    /** An operator's choice of version ({@code v1.6.0}, {@code 1.9}); empty when it names no version. */
    public static Optional<ProfileChoice> override(String version) {
        return KubeVirtProfile.of(version).map(p -> new ProfileChoice(p, Source.OVERRIDE, version.trim()));
    }

    /**
     * The tag of an image reference: after the last ':' that follows the last '/', without a digest
     * ({@code registry:5000/kubevirt/virt-controller:v1.6.2@sha256:…} → {@code v1.6.2}); empty when untagged.
     */
    static Optional<String> imageTag(String image) {
        if (image == null || image.isBlank()) {
            return Optional.empty();
        }
        String ref = image.trim();
        int digest = ref.indexOf('@');
        if (digest >= 0) {
            ref = ref.substring(0, digest);
        }
        int slash = ref.lastIndexOf('/');
        int colon = ref.lastIndexOf(':');
        return colon > slash && colon < ref.length() - 1 ? Optional.of(ref.substring(colon + 1)) : Optional.empty();
    }

    /** "KubeVirt 1.6 (v1.6.2, from KubeVirt CR status)"; for the default "KubeVirt ≤ 1.4 (default)". */
    public String describe() {
        return profile.label() + (version.isEmpty() ? " (" + source.words() + ")" : " (" + version + ", from " + source.words() + ")");
    }
}
