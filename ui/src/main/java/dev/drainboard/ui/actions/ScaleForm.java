package dev.drainboard.ui.actions;

import java.util.Optional;

/**
 * The scale dialog's replica count as the operator typed it, checked before anything is written: a whole number,
 * 0 or more (the API server's rule for {@code spec.replicas}) that fits the field's 32 bits. Says in one line what
 * the replica set controller will do with it.
 *
 * @param text    what is in the field
 * @param current the set's {@code spec.replicas} now
 */
public record ScaleForm(String text, int current) {

    public ScaleForm {
        text = text == null ? "" : text.strip();
    }

    /** Empty when the count is acceptable, else why not, in the operator's words. */
    public Optional<String> error() {
        if (text.isEmpty()) {
            return Optional.of("Enter the number of replicas (0 or more)");
        }
        if (!text.matches("[+-]?[0-9]+")) {
            return Optional.of(text.matches("[+-]?[0-9]*[.,][0-9]*")
                    ? "Replicas must be a whole number; got " + text
                    : "Replicas must be a whole number, 0 or more; got '" + text + "'");
        }
        if (text.startsWith("-") && !text.matches("-0+")) {
            return Optional.of("Replicas must be 0 or more; got " + text);
        }
        String digits = text.replaceFirst("^[+-]", "").replaceFirst("^0+(?=.)", "");
        if (digits.length() > 10 || Long.parseLong(digits) > Integer.MAX_VALUE) {
            return Optional.of("Replicas must be at most " + Integer.MAX_VALUE + "; got " + text);
        }
        return Optional.empty();
    }

    public boolean valid() {
        return error().isEmpty();
    }

    /** The count; only when {@link #valid()}. */
    public int replicas() {
        if (!valid()) {
            throw new IllegalStateException(error().orElseThrow());
        }
        return Integer.parseInt(text.replaceFirst("^\\+", ""));
    }

    /** What the replica set controller will do, for the line under the field; empty while the input is invalid. */
    public String effect() {
        if (!valid()) {
            return "";
        }
        int wanted = replicas();
        if (wanted == current) {
            return "No change: the set already wants " + plural(current, "replica") + ".";
        }
        if (wanted > current) {
            return plural(wanted - current, "more VMI") + " will be created from the template.";
        }
        return plural(current - wanted, "VMI") + " will be deleted: not-ready ones first, then migrating, then ready"
                + (wanted == 0 ? " (all of them)." : ".");
    }

    private static String plural(int n, String noun) {
        if (n == 1) {
            return "1 " + noun;
        }
        return n + " " + noun + "s";
    }
}
