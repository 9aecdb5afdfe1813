package dev.drainboard.ui.maintenance;

import dev.drainboard.ui.model.MaintenanceRequest;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/** What is wrong with a plan the operator is building, in words they can act on; nothing when it can be planned. */
final class PlanForm {

    /** Go's time.ParseDuration syntax (what the plan's {@code afterDrain.pause} takes): "90s", "10m", "1h30m", "1.5h". */
    private static final Pattern GO_DURATION = Pattern.compile("([0-9]+(\\.[0-9]*)?|\\.[0-9]+)(ns|us|µs|ms|s|m|h)");
    /** A qualified name's name part (k8s.io/apimachinery/pkg/util/validation: IsQualifiedName). */
    private static final Pattern NAME = Pattern.compile("([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]");
    /** A DNS-1123 subdomain (the prefix of a qualified name). */
    private static final Pattern SUBDOMAIN = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");

    private PlanForm() {
    }

    static List<String> problems(MaintenanceRequest r) {
        List<String> problems = new ArrayList<>();
        if (r.nodes().isEmpty() && r.selector().isBlank()) {
            problems.add("Pick the nodes to maintain, or give a label selector.");
        }
        if (r.maxUnavailable() < 1) {
            problems.add("Nodes at once must be 1 or more.");
        }
        switch (r.afterDrain()) {
            case "Pause" -> {
                if (!goDuration(r.pause())) {
                    problems.add("The pause \"" + r.pause() + "\" is not a duration: write it like 90s, 10m or 1h30m.");
                }
            }
            case "WaitForAnnotation" -> {
                String why = annotationKeyProblem(r.annotation());
                if (why != null) {
                    problems.add(why);
                }
            }
            default -> {
            }
        }
        return problems;
    }

    /** Whether {@code s} is a positive duration in Go's syntax. */
    static boolean goDuration(String s) {
        if (s == null || s.isEmpty()) {
            return false;
        }
        var m = GO_DURATION.matcher(s);
        int at = 0;
        boolean positive = false;
        while (m.find() && m.start() == at) {
            at = m.end();
            positive |= Double.parseDouble(m.group(1)) > 0;
        }
        return at == s.length() && positive;
    }

    /** Why {@code key} is not an annotation key (Kubernetes' qualified-name rules), or null when it is one. */
    static String annotationKeyProblem(String key) {
        if (key == null || key.isBlank()) {
            return "Give the annotation key that says a node is ready to come back, e.g. example.com/upgraded.";
        }
        int slash = key.indexOf('/');
        String prefix = slash < 0 ? null : key.substring(0, slash);
        String name = slash < 0 ? key : key.substring(slash + 1);
        if (prefix != null && (prefix.isEmpty() || prefix.length() > 253 || !SUBDOMAIN.matcher(prefix).matches())) {
            return "The annotation key's prefix \"" + prefix + "\" must be a DNS subdomain (lower case, e.g. example.com).";
        }
        if (name.isEmpty() || name.length() > 63 || !NAME.matcher(name).matches()) {
            return "The annotation key's name \"" + name + "\" must be 63 characters or less, of letters, digits, '-', '_' "
                    + "or '.', starting and ending with a letter or digit.";
        }
        return null;
    }
}
