package dev.drainboard.cluster.apiserver.select;

/** One term of a field selector: {@code field=value} ({@code equal}) or {@code field!=value}. */
record FieldRequirement(String field, String value, boolean equal) {
    boolean matches(String actualValue) {
        return actualValue.equals(value) == equal;
    }

    FieldRequirement withField(String newField) {
        return new FieldRequirement(newField, value, equal);
    }

    /** "==" is read as "=", so the canonical form uses "=" and "!=", with the value escaped again. */
    @Override
    public String toString() {
        return field + (equal ? "=" : "!=") + FieldSelectorSyntax.escape(value);
    }
}
