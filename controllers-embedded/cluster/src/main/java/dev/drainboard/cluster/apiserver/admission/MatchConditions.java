package dev.drainboard.cluster.apiserver.admission;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cel.bundle.Cel;
import dev.cel.bundle.CelFactory;
import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.CelValidationResult;
import dev.cel.common.types.SimpleType;
import dev.cel.common.values.NullValue;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelRuntime;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A webhook's {@code matchConditions}: CEL expressions over {@code object}, {@code oldObject} and {@code request},
 * compiled and evaluated with Google's cel-java as kube-apiserver does with cel-go
 * ({@code staging/src/k8s.io/apiserver/pkg/admission/plugin/webhook/matchconditions/matcher.go}):
 * any condition false skips the webhook; all true calls it; an evaluation error (and none false) fails the request
 * under {@code failurePolicy: Fail} and skips the webhook under {@code Ignore}.
 *
 * <p>The {@code authorizer} variable of kube-apiserver is not offered (no authorization here): an expression using
 * it is refused when the configuration is stored.
 */
public final class MatchConditions {

    /** The result of matching one webhook's conditions. */
    public sealed interface Result {
        /** Call the webhook. */
        record Matches() implements Result {
        }

        /** Skip the webhook ({@code failedCondition} empty when skipped for an error under Ignore). */
        record Skip(String failedCondition) implements Result {
        }

        /** Refuse the request (an evaluation error under Fail). */
        record Error(String message) implements Result {
        }
    }

    private static final Cel CEL = CelFactory.standardCelBuilder()
            .addVar("object", SimpleType.DYN)
            .addVar("oldObject", SimpleType.DYN)
            .addVar("request", SimpleType.DYN)
            .build();

    /** Compiled programs by expression text: a webhook's conditions are compiled once, not per request. */
    private static final Map<String, CelRuntime.Program> PROGRAMS = new ConcurrentHashMap<>();

    private MatchConditions() {
    }

    /**
     * Why kube-apiserver refuses to store this expression ({@code validateMatchConditionsExpression}: the cel
     * compiler's "compilation failed: …" or "must evaluate to bool"), or empty when it compiles to a bool.
     */
    public static Optional<String> compileError(String expression) {
        CelValidationResult result = CEL.compile(expression);
        if (result.hasError()) {
            return Optional.of("compilation failed: " + result.getErrorString());
        }
        try {
            CelAbstractSyntaxTree ast = result.getAst();
            if (!ast.getResultType().equals(SimpleType.BOOL)) {
                return Optional.of("must evaluate to bool");
            }
        } catch (dev.cel.common.CelValidationException e) {
            return Optional.of("compilation failed: " + e.getMessage());
        }
        return Optional.empty();
    }

    /** Evaluates {@code webhook.matchConditions} against a request; no conditions means {@link Result.Matches}. */
    public static Result match(JsonNode webhook, AdmissionAttributes attributes, Map<String, Object> request) {
        JsonNode conditions = webhook.path("matchConditions");
        if (!conditions.isArray() || conditions.isEmpty()) {
            return new Result.Matches();
        }
        boolean failClosed = !"Ignore".equals(webhook.path("failurePolicy").asText("Fail"));
        Map<String, Object> variables = new LinkedHashMap<>();
        variables.put("object", attributes.object() == null ? NullValue.NULL_VALUE : value(attributes.object()));
        variables.put("oldObject", attributes.oldObject() == null ? NullValue.NULL_VALUE : value(attributes.oldObject()));
        variables.put("request", request);
        List<String> errors = new ArrayList<>();
        for (JsonNode condition : conditions) {
            String name = condition.path("name").asText("");
            String expression = condition.path("expression").asText("");
            Object outcome;
            try {
                outcome = program(expression).eval(variables);
            } catch (CelEvaluationException | RuntimeException e) {
                errors.add(evaluationError(expression, e));
                continue;
            }
            if (Boolean.FALSE.equals(outcome)) {
                return new Result.Skip(name);
            }
            if (!Boolean.TRUE.equals(outcome)) {
                errors.add("expression '" + expression + "' resulted in error: no such overload");
            }
        }
        if (errors.isEmpty()) {
            return new Result.Matches();
        }
        if (!failClosed) {
            return new Result.Skip("");
        }
        // utilerrors.NewAggregate: one error alone, several as "[a, b]"
        return new Result.Error(errors.size() == 1 ? errors.getFirst() : "[" + String.join(", ", errors) + "]");
    }

    /** The {@code request} variable: the AdmissionRequest's fields as kube-apiserver's CreateAdmissionRequest fills them. */
    public static Map<String, Object> request(AdmissionAttributes a, String uid, String username, List<String> groups) {
        Map<String, Object> kind = Map.of("group", a.kindGroup(), "version", a.kindVersion(), "kind", a.kind());
        Map<String, Object> resource = Map.of("group", a.resource().group(), "version", a.resource().version(),
                "resource", a.resource().plural());
        Map<String, Object> request = new LinkedHashMap<>();
        request.put("uid", uid);
        request.put("kind", kind);
        request.put("resource", resource);
        request.put("subResource", a.subresource());
        request.put("requestKind", kind);
        request.put("requestResource", resource);
        request.put("requestSubResource", a.subresource());
        request.put("name", a.name() == null ? "" : a.name());
        request.put("namespace", a.namespace() == null ? "" : a.namespace());
        request.put("operation", a.operation());
        request.put("userInfo", Map.of("username", username, "groups", groups));
        request.put("dryRun", a.dryRun());
        return request;
    }

    private static CelRuntime.Program program(String expression) throws CelEvaluationException {
        CelRuntime.Program cached = PROGRAMS.get(expression);
        if (cached != null) {
            return cached;
        }
        try {
            CelRuntime.Program program = CEL.createProgram(CEL.compile(expression).getAst());
            if (PROGRAMS.size() < 1024) {
                PROGRAMS.put(expression, program);
            }
            return program;
        } catch (dev.cel.common.CelValidationException e) {
            // Stored before validation existed, or written around it: evaluating it fails like any error.
            throw new IllegalStateException("compilation failed: " + e.getMessage(), e);
        }
    }

    /** A failed evaluation, worded as kube-apiserver's CEL filter does ({@code plugin/cel/filter.go}). */
    private static String evaluationError(String expression, Exception e) {
        String detail = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        // cel-java prefixes its position ("evaluation error at <input>:12: "); cel-go reports only the cause
        int cause = detail.indexOf(": ");
        if (detail.startsWith("evaluation error") && cause >= 0) {
            detail = detail.substring(cause + 2);
        }
        return "expression '" + expression + "' resulted in error: " + detail;
    }

    /** JSON as CEL values: objects as maps, arrays as lists, integers as int (long), null as null. */
    static Object value(JsonNode node) {
        if (node == null || node.isNull() || node.isMissingNode()) {
            return NullValue.NULL_VALUE;
        }
        if (node.isObject()) {
            Map<String, Object> map = new LinkedHashMap<>();
            node.properties().forEach(e -> map.put(e.getKey(), value(e.getValue())));
            return map;
        }
        if (node.isArray()) {
            List<Object> list = new ArrayList<>(node.size());
            node.forEach(n -> list.add(value(n)));
            return list;
        }
        if (node.isBoolean()) {
            return node.booleanValue();
        }
        if (node.isIntegralNumber()) {
            return node.longValue();
        }
        if (node.isNumber()) {
            return node.doubleValue();
        }
        return node.asText();
    }
}
