package dev.drainboard.labels;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/** One validated term of a label selector: key, operator and values, as apimachinery's labels.Requirement. */
record LabelRequirement(String key, LabelOperator operator, List<String> values) {
    /** strconv.ParseInt(s, 10, 64) accepts an optional sign and ASCII digits only. */
    private static final Pattern GO_INTEGER = Pattern.compile("[+-]?[0-9]+");

    /** labels.NewRequirement: every rule is checked and all failures reported together. */
    static LabelRequirement create(String key, LabelOperator operator, List<String> values) throws SelectorException {
        List<String> errors = new ArrayList<>();
        LabelSyntax.keyError(key, "key").ifPresent(errors::add);
        switch (operator) {
            case IN, NOT_IN -> {
                if (values.isEmpty()) {
                    errors.add(ValidationMessages.invalid("values", values,
                            "for 'in', 'notin' operators, values set can't be empty"));
                }
            }
            case EQUALS, DOUBLE_EQUALS, NOT_EQUALS -> {
                if (values.size() != 1) {
                    errors.add(ValidationMessages.invalid("values", values,
                            "exact-match compatibility requires one single value"));
                }
            }
            case EXISTS, DOES_NOT_EXIST -> {
                if (!values.isEmpty()) {
                    errors.add(ValidationMessages.invalid("values", values,
                            "values set must be empty for exists and does not exist"));
                }
            }
            case GREATER_THAN, LESS_THAN -> {
                if (values.size() != 1) {
                    errors.add(ValidationMessages.invalid("values", values,
                            "for 'Gt', 'Lt' operators, exactly one value is required"));
                }
                for (int i = 0; i < values.size(); i++) {
                    if (parseGoInteger(values.get(i)) == null) {
                        errors.add(ValidationMessages.invalid("values[" + i + "]", values.get(i),
                                "for 'Gt', 'Lt' operators, the value must be an integer"));
                    }
                }
            }
        }
        for (int i = 0; i < values.size(); i++) {
            LabelSyntax.valueError(values.get(i), "values[" + i + "][" + key + "]").ifPresent(errors::add);
        }
        if (!errors.isEmpty()) {
            throw new SelectorException(ValidationMessages.aggregate(errors));
        }
        return new LabelRequirement(key, operator, List.copyOf(values));
    }

    /** Requirement.Matches on the object's value of the label (null: it has none), which satisfies only !=, notin and !key. */
    boolean matches(String label) {
        boolean present = label != null;
        String value = present ? label : "";
        return switch (operator) {
            case IN, EQUALS, DOUBLE_EQUALS -> present && values.contains(value);
            case NOT_IN, NOT_EQUALS -> !present || !values.contains(value);
            case EXISTS -> present;
            case DOES_NOT_EXIST -> !present;
            case GREATER_THAN, LESS_THAN -> present && compares(value);
        };
    }

    private boolean compares(String labelValue) {
        Long actual = parseGoInteger(labelValue);
        Long bound = parseGoInteger(values.getFirst());
        if (actual == null || bound == null) {
            return false;
        }
        return operator == LabelOperator.GREATER_THAN ? actual > bound : actual < bound;
    }

    private static Long parseGoInteger(String s) {
        if (!GO_INTEGER.matcher(s).matches()) {
            return null;
        }
        try {
            return Long.parseLong(s);
        } catch (NumberFormatException outOfRange) {
            return null;
        }
    }

    /** Requirement.String: values printed sorted, the way kube-apiserver echoes a selector. */
    @Override
    public String toString() {
        String sortedValues = String.join(",", values.stream().sorted().toList());
        return switch (operator) {
            case EXISTS -> key;
            case DOES_NOT_EXIST -> "!" + key;
            case EQUALS -> key + "=" + sortedValues;
            case DOUBLE_EQUALS -> key + "==" + sortedValues;
            case NOT_EQUALS -> key + "!=" + sortedValues;
            case GREATER_THAN -> key + ">" + sortedValues;
            case LESS_THAN -> key + "<" + sortedValues;
            case IN -> key + " in (" + sortedValues + ")";
            case NOT_IN -> key + " notin (" + sortedValues + ")";
        };
    }
}
