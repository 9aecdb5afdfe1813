package dev.drainboard.cluster.apiserver.validation;

import dev.drainboard.validation.Names;
import dev.drainboard.validation.FieldError;
import dev.drainboard.cluster.apiserver.admission.MatchConditions;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * kube-apiserver's validation of ValidatingWebhookConfigurations and MutatingWebhookConfigurations
 * (pkg/apis/admissionregistration/validation/validation.go and apiserver's pkg/util/webhook/validation.go, v1.32):
 * webhook names, rules, policies, selectors, admission review versions, and a client configuration that is exactly
 * one of a service or an https URL without user information, query or fragment, and {@code matchConditions} whose
 * CEL expressions compile to a bool ({@code validateMatchConditions}).
 */
public final class WebhookConfigurationValidation {

    private static final List<String> ACCEPTED_REVIEW_VERSIONS = List.of("v1", "v1beta1");
    private static final List<String> FAILURE_POLICIES = List.of("Fail", "Ignore");
    private static final List<String> MATCH_POLICIES = List.of("Equivalent", "Exact");
    private static final List<String> NO_SIDE_EFFECTS = List.of("None", "NoneOnDryRun");
    private static final List<String> SIDE_EFFECTS = List.of("None", "NoneOnDryRun", "Some", "Unknown");
    private static final List<String> OPERATIONS = List.of("*", "CONNECT", "CREATE", "DELETE", "UPDATE");
    private static final List<String> SCOPES = List.of("*", "Cluster", "Namespaced");
    private static final List<String> REINVOCATION_POLICIES = List.of("IfNeeded", "Never");
    private static final String URL_FORM = "; desired format: https://host[/path]";

    /** What an update may keep that a create may not, as kube-apiserver derives it from the old configuration. */
    private record Options(boolean requireNoSideEffects, boolean requireRecognizedReviewVersion, boolean requireUniqueNames,
                           boolean allowInvalidLabelValueInSelector) {
    }

    private WebhookConfigurationValidation() {
    }

    /**
     * The errors of a configuration, after its metadata's. {@code old} is the stored configuration on update, null on
     * create; {@code mutating} for MutatingWebhookConfigurations.
     */
    public static List<FieldError> validate(JsonNode configuration, JsonNode old, boolean mutating) {
        Options options = old == null ? new Options(true, true, true, false) : new Options(
                allHooks(old, h -> NO_SIDE_EFFECTS.contains(h.path("sideEffects").asText(null))),
                allHooks(old, h -> !h.path("admissionReviewVersions").isArray() || h.path("admissionReviewVersions").isEmpty()
                        || strings(h.path("admissionReviewVersions")).stream().anyMatch(ACCEPTED_REVIEW_VERSIONS::contains)),
                uniqueNames(old),
                anySelectorWithInvalidLabelValue(old));
        List<FieldError> errs = new ArrayList<>(ObjectMetaValidation.validate(configuration, false, NameRule.DNS_SUBDOMAIN));
        Set<String> names = new HashSet<>();
        int i = 0;
        for (JsonNode hook : configuration.path("webhooks")) {
            String path = "webhooks[" + i + "]";
            errs.addAll(webhook(hook, path, mutating, options));
            errs.addAll(admissionReviewVersions(hook.path("admissionReviewVersions"), path + ".admissionReviewVersions",
                    options.requireRecognizedReviewVersion()));
            String name = hook.path("name").asText("");
            if (options.requireUniqueNames() && !name.isEmpty() && !names.add(name)) {
                errs.add(FieldError.duplicate(path + ".name", name));
            }
            i++;
        }
        return errs;
    }

    private static List<FieldError> webhook(JsonNode hook, String path, boolean mutating, Options options) {
        List<FieldError> errs = new ArrayList<>(Names.fullyQualifiedName(path + ".name", hook.path("name").asText("")));
        int r = 0;
        for (JsonNode rule : hook.path("rules")) {
            errs.addAll(rule(rule, path + ".rules[" + r++ + "]"));
        }
        notSupported(errs, hook, "failurePolicy", path, FAILURE_POLICIES);
        notSupported(errs, hook, "matchPolicy", path, MATCH_POLICIES);
        List<String> sideEffects = options.requireNoSideEffects() ? NO_SIDE_EFFECTS : SIDE_EFFECTS;
        if (!hook.hasNonNull("sideEffects")) {
            errs.add(FieldError.required(path + ".sideEffects", "must specify one of " + String.join(", ", sideEffects)));
        } else {
            notSupported(errs, hook, "sideEffects", path, sideEffects);
        }
        JsonNode timeout = hook.get("timeoutSeconds");
        if (timeout != null && !timeout.isNull() && (timeout.asLong() > 30 || timeout.asLong() < 1)) {
            errs.add(FieldError.invalid(path + ".timeoutSeconds", timeout.asLong(), "the timeout value must be between 1 and 30 seconds"));
        }
        for (String selector : new String[] {"namespaceSelector", "objectSelector"}) {
            if (hook.hasNonNull(selector)) {
                errs.addAll(labelSelector(hook.get(selector), path + "." + selector, options.allowInvalidLabelValueInSelector()));
            }
        }
        if (mutating) {
            notSupported(errs, hook, "reinvocationPolicy", path, REINVOCATION_POLICIES);
        }
        errs.addAll(matchConditions(hook.path("matchConditions"), path + ".matchConditions"));
        JsonNode clientConfig = hook.path("clientConfig");
        boolean url = clientConfig.hasNonNull("url");
        boolean service = clientConfig.hasNonNull("service");
        if (url == service) {
            errs.add(FieldError.required(path + ".clientConfig", "exactly one of url or service is required"));
        } else if (url) {
            errs.addAll(webhookUrl(path + ".clientConfig.url", clientConfig.get("url").asText()));
        } else {
            JsonNode svc = clientConfig.get("service");
            errs.addAll(webhookService(path + ".clientConfig.service", svc.path("namespace").asText(""),
                    svc.path("name").asText(""), svc.hasNonNull("path") ? svc.get("path").asText() : null,
                    svc.hasNonNull("port") ? svc.get("port").asLong() : 443));
        }
        return errs;
    }

    /**
     * Each condition needs a qualified name, unique in the webhook, and an expression that compiles to a bool; at
     * most 64 conditions.
     */
    static List<FieldError> matchConditions(JsonNode conditions, String path) {
        List<FieldError> errs = new ArrayList<>();
        if (!conditions.isArray()) {
            return errs;
        }
        if (conditions.size() > 64) {
            errs.add(FieldError.worded(path, "Too many: " + conditions.size() + ": must have at most 64 items"));
        }
        Set<String> names = new HashSet<>();
        int i = 0;
        for (JsonNode condition : conditions) {
            String at = path + "[" + i++ + "]";
            String expression = condition.path("expression").asText("");
            if (expression.trim().isEmpty()) {
                errs.add(FieldError.required(at + ".expression", ""));
            } else {
                MatchConditions.compileError(expression.trim())
                        .ifPresent(why -> errs.add(FieldError.invalid(at + ".expression", expression.trim(), why)));
            }
            String name = condition.path("name").asText("");
            if (name.isEmpty()) {
                errs.add(FieldError.required(at + ".name", ""));
            } else {
                Names.qualifiedName(name).forEach(m -> errs.add(FieldError.invalid(at + ".name", name, m)));
                if (!names.add(name)) {
                    errs.add(FieldError.duplicate(at + ".name", name));
                }
            }
        }
        return errs;
    }

    /** ValidateWebhookURL with forceHttps: kube-apiserver calls webhooks over TLS only. */
    public static List<FieldError> webhookUrl(String path, String raw) {
        List<FieldError> errs = new ArrayList<>();
        GoUrl url;
        try {
            url = GoUrl.parse(raw);
        } catch (GoUrl.ParseException e) {
            return List.of(FieldError.required(path, "url must be a valid URL: " + e.getMessage() + URL_FORM));
        }
        if (!url.scheme().equals("https")) {
            errs.add(FieldError.invalid(path, url.scheme(), "'https' is the only allowed URL scheme" + URL_FORM));
        }
        if (url.host().isEmpty()) {
            errs.add(FieldError.invalid(path, url.host(), "host must be specified" + URL_FORM));
        }
        if (url.user() != null) {
            errs.add(FieldError.invalid(path, url.user(), "user information is not permitted in the URL"));
        }
        if (!url.fragment().isEmpty()) {
            errs.add(FieldError.invalid(path, url.fragment(), "fragments are not permitted in the URL"));
        }
        if (!url.rawQuery().isEmpty()) {
            errs.add(FieldError.invalid(path, url.rawQuery(), "query parameters are not permitted in the URL"));
        }
        return errs;
    }

    /** ValidateWebhookService. */
    static List<FieldError> webhookService(String path, String namespace, String name, String urlPath, long port) {
        List<FieldError> errs = new ArrayList<>();
        if (name.isEmpty()) {
            errs.add(FieldError.required(path + ".name", "service name is required"));
        }
        if (namespace.isEmpty()) {
            errs.add(FieldError.required(path + ".namespace", "service namespace is required"));
        }
        List<String> portErrs = Names.portNumber(port);
        if (!portErrs.isEmpty()) {
            errs.add(FieldError.invalid(path + ".port", port, "port is not valid: " + String.join(", ", portErrs)));
        }
        if (urlPath == null || urlPath.equals("/") || urlPath.isEmpty()) {
            return errs;
        }
        if (urlPath.equals("//")) {
            errs.add(FieldError.invalid(path + ".path", urlPath, "segment[0] may not be empty"));
            return errs;
        }
        if (!urlPath.startsWith("/")) {
            errs.add(FieldError.invalid(path + ".path", urlPath, "must start with a '/'"));
        }
        String toCheck = urlPath.substring(1);
        if (toCheck.endsWith("/")) {
            toCheck = toCheck.substring(0, toCheck.length() - 1);
        }
        String[] steps = toCheck.split("/", -1);
        for (int i = 0; i < steps.length; i++) {
            if (steps[i].isEmpty()) {
                errs.add(FieldError.invalid(path + ".path", urlPath, "segment[" + i + "] may not be empty"));
                continue;
            }
            for (String failure : Names.dns1123Subdomain(steps[i])) {
                errs.add(FieldError.invalid(path + ".path", urlPath, "segment[" + i + "]: " + failure));
            }
        }
        return errs;
    }

    /** validateRuleWithOperations, then validateRule with subresources allowed. */
    private static List<FieldError> rule(JsonNode rule, String path) {
        List<FieldError> errs = new ArrayList<>();
        List<String> operations = strings(rule.path("operations"));
        if (operations.isEmpty()) {
            errs.add(FieldError.required(path + ".operations", ""));
        }
        if (operations.size() > 1 && operations.contains("*")) {
            errs.add(FieldError.invalid(path + ".operations", FieldError.GoValue.stringSlice("[]admissionregistration.OperationType", operations),
                    "if '*' is present, must not specify other operations"));
        }
        for (int i = 0; i < operations.size(); i++) {
            if (!OPERATIONS.contains(operations.get(i))) {
                errs.add(FieldError.notSupported(path + ".operations[" + i + "]", operations.get(i), OPERATIONS));
            }
        }
        List<String> groups = strings(rule.path("apiGroups"));
        if (groups.isEmpty()) {
            errs.add(FieldError.required(path + ".apiGroups", ""));
        }
        if (groups.size() > 1 && groups.contains("*")) {
            errs.add(FieldError.invalid(path + ".apiGroups", FieldError.GoValue.stringSlice("[]string", groups),
                    "if '*' is present, must not specify other API groups"));
        }
        List<String> versions = strings(rule.path("apiVersions"));
        if (versions.isEmpty()) {
            errs.add(FieldError.required(path + ".apiVersions", ""));
        }
        if (versions.size() > 1 && versions.contains("*")) {
            errs.add(FieldError.invalid(path + ".apiVersions", FieldError.GoValue.stringSlice("[]string", versions),
                    "if '*' is present, must not specify other API versions"));
        }
        for (int i = 0; i < versions.size(); i++) {
            if (versions.get(i).isEmpty()) {
                errs.add(FieldError.required(path + ".apiVersions[" + i + "]", ""));
            }
        }
        errs.addAll(resources(strings(rule.path("resources")), path + ".resources"));
        if (rule.hasNonNull("scope") && !SCOPES.contains(rule.get("scope").asText())) {
            errs.add(FieldError.notSupported(path + ".scope", rule.get("scope").asText(), SCOPES));
        }
        return errs;
    }

    /** validateResources: wildcards for resources and subresources used consistently. */
    private static List<FieldError> resources(List<String> resources, String path) {
        List<FieldError> errs = new ArrayList<>();
        if (resources.isEmpty()) {
            errs.add(FieldError.required(path, ""));
        }
        Set<String> withWildcardSubresources = new HashSet<>();
        Set<String> subresourcesWithWildcardResource = new HashSet<>();
        boolean doubleWildcard = false;
        boolean singleWildcard = false;
        boolean resourceWithoutSubresource = false;
        for (int i = 0; i < resources.size(); i++) {
            String resSub = resources.get(i);
            if (resSub.isEmpty()) {
                errs.add(FieldError.required(path + "[" + i + "]", ""));
                continue;
            }
            doubleWildcard |= resSub.equals("*/*");
            singleWildcard |= resSub.equals("*");
            String[] parts = resSub.split("/", 2);
            if (parts.length == 1) {
                resourceWithoutSubresource = !resSub.equals("*");
                continue;
            }
            String res = parts[0];
            String sub = parts[1];
            if (withWildcardSubresources.contains(res)) {
                errs.add(FieldError.invalid(path + "[" + i + "]", resSub, "if '" + res + "/*' is present, must not specify " + resSub));
            }
            if (subresourcesWithWildcardResource.contains(sub)) {
                errs.add(FieldError.invalid(path + "[" + i + "]", resSub, "if '*/" + sub + "' is present, must not specify " + resSub));
            }
            if (sub.equals("*")) {
                withWildcardSubresources.add(res);
            }
            if (res.equals("*")) {
                subresourcesWithWildcardResource.add(sub);
            }
        }
        if (resources.size() > 1 && doubleWildcard) {
            errs.add(FieldError.invalid(path, FieldError.GoValue.stringSlice("[]string", resources),
                    "if '*/*' is present, must not specify other resources"));
        }
        if (singleWildcard && resourceWithoutSubresource) {
            errs.add(FieldError.invalid(path, FieldError.GoValue.stringSlice("[]string", resources),
                    "if '*' is present, must not specify other resources without subresources"));
        }
        return errs;
    }

    private static List<FieldError> admissionReviewVersions(JsonNode versions, String path, boolean requireRecognized) {
        List<FieldError> errs = new ArrayList<>();
        List<String> list = strings(versions);
        if (list.isEmpty()) {
            errs.add(FieldError.required(path, "must specify one of " + String.join(", ", ACCEPTED_REVIEW_VERSIONS)));
            return errs;
        }
        Set<String> seen = new HashSet<>();
        boolean accepted = false;
        for (int i = 0; i < list.size(); i++) {
            String v = list.get(i);
            if (!seen.add(v)) {
                errs.add(FieldError.invalid(path + "[" + i + "]", v, "duplicate version"));
                continue;
            }
            for (String msg : Names.dns1035Label(v)) {
                errs.add(FieldError.invalid(path + "[" + i + "]", v, msg));
            }
            accepted |= ACCEPTED_REVIEW_VERSIONS.contains(v);
        }
        if (requireRecognized && !accepted) {
            errs.add(FieldError.invalid(path, FieldError.GoValue.stringSlice("[]string", list),
                    "must include at least one of " + String.join(", ", ACCEPTED_REVIEW_VERSIONS)));
        }
        return errs;
    }

    /** metav1validation.ValidateLabelSelector. */
    static List<FieldError> labelSelector(JsonNode selector, String path, boolean allowInvalidLabelValue) {
        List<FieldError> errs = new ArrayList<>(ObjectMetaValidation.labels(selector.path("matchLabels"), path + ".matchLabels"));
        int i = 0;
        for (JsonNode expression : selector.path("matchExpressions")) {
            String at = path + ".matchExpressions[" + i++ + "]";
            String operator = expression.path("operator").asText("");
            List<String> values = strings(expression.path("values"));
            switch (operator) {
                case "In", "NotIn" -> {
                    if (values.isEmpty()) {
                        errs.add(FieldError.required(at + ".values", "must be specified when `operator` is 'In' or 'NotIn'"));
                    }
                }
                case "Exists", "DoesNotExist" -> {
                    if (!values.isEmpty()) {
                        errs.add(FieldError.forbidden(at + ".values", "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
                    }
                }
                default -> errs.add(FieldError.invalid(at + ".operator", operator, "not a valid selector operator"));
            }
            String key = expression.path("key").asText("");
            for (String msg : Names.qualifiedName(key)) {
                errs.add(FieldError.invalid(at + ".key", key, msg));
            }
            if (!allowInvalidLabelValue) {
                for (int v = 0; v < values.size(); v++) {
                    for (String msg : Names.labelValue(values.get(v))) {
                        errs.add(FieldError.invalid(at + ".values[" + v + "]", values.get(v), msg));
                    }
                }
            }
        }
        return errs;
    }

    private static void notSupported(List<FieldError> errs, JsonNode hook, String field, String path, List<String> supported) {
        JsonNode value = hook.get(field);
        if (value != null && !value.isNull() && !supported.contains(value.asText())) {
            errs.add(FieldError.notSupported(path + "." + field, value.asText(), supported));
        }
    }

    private static boolean allHooks(JsonNode configuration, java.util.function.Predicate<JsonNode> test) {
        for (JsonNode hook : configuration.path("webhooks")) {
            if (!test.test(hook)) {
                return false;
            }
        }
        return true;
    }

    private static boolean uniqueNames(JsonNode configuration) {
        Set<String> names = new HashSet<>();
        for (JsonNode hook : configuration.path("webhooks")) {
            if (!names.add(hook.path("name").asText(""))) {
                return false;
            }
        }
        return true;
    }

    private static boolean anySelectorWithInvalidLabelValue(JsonNode configuration) {
        for (JsonNode hook : configuration.path("webhooks")) {
            for (String selector : new String[] {"namespaceSelector", "objectSelector"}) {
                if (hook.hasNonNull(selector) && !labelSelector(hook.get(selector), "", false).isEmpty()) {
                    return true;
                }
            }
        }
        return false;
    }

    private static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        if (array != null && array.isArray()) {
            array.forEach(n -> out.add(n.asText()));
        }
        return out;
    }
}
