package dev.drainboard.ui.start;

import atlantafx.base.theme.Styles;
import javafx.beans.property.ObjectProperty;
import javafx.beans.value.ObservableBooleanValue;
import javafx.scene.Node;
import javafx.scene.control.Label;
import javafx.scene.control.Toggle;
import javafx.scene.control.ToggleGroup;
import javafx.scene.layout.VBox;

/** The start screen's building blocks: a titled card, a node shown while a condition holds, toggles kept in step. */
final class Cards {

    private Cards() {
    }

    static VBox card(String title, String subtitle, Node... content) {
        Label t = new Label(title);
        t.getStyleClass().add("card-title");
        Label s = new Label(subtitle);
        s.getStyleClass().addAll(Styles.TEXT_MUTED, Styles.TEXT_SMALL);
        s.setWrapText(true);
        s.setMinHeight(javafx.scene.layout.Region.USE_PREF_SIZE); // wrapped whole, not cut to one line in a short window
        VBox card = new VBox(10, t, s);
        card.getChildren().addAll(content);
        card.getStyleClass().add("panel-card");
        return card;
    }

    static void showWhen(Node node, ObservableBooleanValue visible) {
        node.visibleProperty().bind(visible);
        node.managedProperty().bind(visible);
    }

    /** Keeps a toggle group and a property in step (the toggle whose user data is the value); one stays selected. */
    static <T> void syncToggles(ToggleGroup group, ObjectProperty<T> value) {
        select(group, value.get());
        value.addListener((obs, old, now) -> select(group, now));
        group.selectedToggleProperty().addListener((obs, old, now) -> {
            if (now == null) {
                old.setSelected(true);
            } else {
                @SuppressWarnings("unchecked") T chosen = (T) now.getUserData();
                value.set(chosen);
            }
        });
    }

    private static void select(ToggleGroup group, Object value) {
        for (Toggle t : group.getToggles()) {
            if (t.getUserData() == value) {
                t.setSelected(true);
            }
        }
    }
}
