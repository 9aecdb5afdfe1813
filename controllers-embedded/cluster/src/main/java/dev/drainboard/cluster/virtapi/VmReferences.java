package dev.drainboard.cluster.virtapi;

import com.fasterxml.jackson.databind.JsonNode;
import dev.drainboard.architecture.Pure;

import java.util.Locale;
import java.util.Optional;

/**
 * A VirtualMachine's {@code spec.instancetype} and {@code spec.preference}: which object each names, and the cause when
 * it is missing, as KubeVirt's VM admitter refused such a VM up to v1.5 (pkg/instancetype/webhooks/vm/admitter.go
 * before commit 02aecb1f11, "Admit when instance type or preference not found", first in v1.6.0; the finders in
 * pkg/instancetype/find and pkg/instancetype/preference/find). A reference with a {@code revisionName} points at a
 * ControllerRevision, which the embedded cluster does not serve: it is not checked.
 */
@Pure
public final class VmReferences {

    public static final String GROUP = "instancetype.kubevirt.io";

    /** Where a reference leads: a {@link Target}, or a {@link BadKind}. */
    public sealed interface Reference permits Target, BadKind {
    }

    /** What a reference names: the resource (plural, in {@link #GROUP}), whether it is namespaced, and the name. */
    public record Target(String plural, boolean namespaced, String name) implements Reference {
        public String groupResource() {
            return plural + "." + GROUP;
        }
    }

    /** A reference's kind did not name a known resource. */
    public record BadKind(String message) implements Reference {
    }

    private VmReferences() {
    }

    /** The instancetype a VM names, if it names one. */
    public static Optional<Reference> instancetype(JsonNode vm) {
        return target(vm.path("spec").path("instancetype"), "virtualmachineinstancetype", "virtualmachineclusterinstancetype",
                "InstancetypeMatcher");
    }

    public static Optional<Reference> preference(JsonNode vm) {
        return target(vm.path("spec").path("preference"), "virtualmachinepreference", "virtualmachineclusterpreference",
                "PreferenceMatcher");
    }

    private static Optional<Reference> target(JsonNode matcher, String namespaced, String cluster, String matcherName) {
        if (matcher.isMissingNode() || matcher.isNull() || !matcher.path("revisionName").asText("").isEmpty()) {
            return Optional.empty();
        }
        String kind = matcher.path("kind").asText("");
        String name = matcher.path("name").asText("");
        String lower = kind.toLowerCase(Locale.ROOT);
        if (lower.equals(namespaced) || lower.equals(namespaced + "s")) {
            return Optional.of(new Target(namespaced + "s", true, name));
        }
        if (lower.isEmpty() || lower.equals(cluster) || lower.equals(cluster + "s")) {
            return Optional.of(new Target(cluster + "s", false, name));
        }
        return Optional.of(new BadKind("got unexpected kind in " + matcherName + ": " + kind));
    }

    /**
     * The cause for a reference that cannot be followed. {@code findError} is the lookup's error as client-go words it
     * ({@code virtualmachineinstancetypes.instancetype.kubevirt.io "small" not found}).
     */
    public static Cause missing(boolean preference, String findError) {
        return preference
                ? new Cause(Cause.NOT_FOUND, "Failure to find preference: " + findError, "spec.preference")
                : new Cause(Cause.NOT_FOUND, "Failure to find instancetype: " + findError, "spec.instancetype");
    }

    /** client-go's NotFound for an object. */
    public static String notFound(Target target) {
        return target.groupResource() + " \"" + target.name() + "\" not found";
    }

    /** client-go's NotFound when the resource itself is not served (the CRD is not installed). */
    public static String resourceNotServed(Target target) {
        return "the server could not find the requested resource (get " + target.groupResource() + " " + target.name() + ")";
    }
}
