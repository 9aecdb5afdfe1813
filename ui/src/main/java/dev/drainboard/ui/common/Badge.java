package dev.drainboard.ui.common;

import javafx.scene.control.Label;

/** A small rounded label that states one fact with a colour: success, danger, warning, accent or neutral. */
public final class Badge {

    public enum Tone { SUCCESS, DANGER, WARNING, ACCENT, NEUTRAL }

    private Badge() {
    }

    public static Label of(String text, Tone tone) {
        Label label = new Label(text);
        label.getStyleClass().add("badge");
        style(label, tone);
        return label;
    }

    public static void style(Label label, Tone tone) {
        label.getStyleClass().removeIf(c -> c.startsWith("badge-"));
        label.getStyleClass().add("badge-" + tone.name().toLowerCase(java.util.Locale.ROOT));
    }
}
