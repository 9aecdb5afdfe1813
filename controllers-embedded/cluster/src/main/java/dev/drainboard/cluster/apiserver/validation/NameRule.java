package dev.drainboard.cluster.apiserver.validation;

import dev.drainboard.validation.Names;

import java.util.ArrayList;
import java.util.List;

/**
 * A resource's name rule, apimachinery's {@code ValidateNameFunc}s (api/validation/generic.go and path/name.go, v1.32).
 * With {@code prefix} the value is a generateName: a trailing '-' is masked before the check, as kube-apiserver does.
 */
public enum NameRule {
    /** NameIsDNSSubdomain: most resources, custom resources included. */
    DNS_SUBDOMAIN,
    /** NameIsDNSLabel: namespaces. */
    DNS_LABEL,
    /** NameIsDNS1035Label: services. */
    DNS1035_LABEL,
    /** ValidatePathSegmentName: what every name must be to sit in a URL, checked for every resource. */
    PATH_SEGMENT;

    public List<String> problems(String name, boolean prefix) {
        return switch (this) {
            case DNS_SUBDOMAIN -> Names.dns1123Subdomain(prefix ? maskTrailingDash(name) : name);
            case DNS_LABEL -> Names.dns1123Label(prefix ? maskTrailingDash(name) : name);
            case DNS1035_LABEL -> Names.dns1035Label(prefix ? maskTrailingDash(name) : name);
            case PATH_SEGMENT -> pathSegment(name, prefix);
        };
    }

    /**
     * The rule kube-apiserver's strategy for a resource uses: namespaces are DNS labels (ValidateNamespaceName),
     * services DNS-1035 labels (ValidateServiceName), everything else, custom resources too, DNS subdomains.
     */
    public static NameRule forResource(String group, String plural) {
        if (group.isEmpty() && plural.equals("namespaces")) {
            return DNS_LABEL;
        }
        if (group.isEmpty() && plural.equals("services")) {
            return DNS1035_LABEL;
        }
        return DNS_SUBDOMAIN;
    }

    /** maskTrailingDash, quirk included: it drops the last two characters and appends an 'a'. */
    static String maskTrailingDash(String name) {
        if (name.length() > 1 && name.endsWith("-")) {
            return name.substring(0, name.length() - 2) + "a";
        }
        return name;
    }

    private static List<String> pathSegment(String name, boolean prefix) {
        if (!prefix) {
            for (String illegal : new String[] {".", ".."}) {
                if (name.equals(illegal)) {
                    return List.of("may not be '" + illegal + "'");
                }
            }
        }
        List<String> errs = new ArrayList<>();
        for (String illegal : new String[] {"/", "%"}) {
            if (name.contains(illegal)) {
                errs.add("may not contain '" + illegal + "'");
            }
        }
        return errs;
    }
}
