package dev.drainboard.ui.common;

import atlantafx.base.theme.Styles;
import javafx.animation.PauseTransition;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.StackPane;
import javafx.scene.layout.VBox;
import javafx.util.Duration;
import org.kordamp.ikonli.Ikon;
import org.kordamp.ikonli.material2.Material2AL;
import org.kordamp.ikonli.material2.Material2MZ;

import java.util.Locale;

/**
 * Notices of what an action did, a drain's end, a failed migration: one line each, in a strip just above the status
 * bar that takes its own room (the view above gets shorter while one shows), so no notice ever covers a table row
 * (as an IDE's notification bar does; floating toasts over the table hid the rows acted on). Every notice goes away
 * by itself: successes after a few seconds, failures and warnings after longer (time to read them; never while the
 * pointer is on one); at most {@value #VISIBLE} show at once. Each stays in {@link #history()}.
 */
public final class Notifier {

    /** One notification as shown; kept (the last {@value #KEEP}) so tests and a later history can read them. */
    public record Toast(Badge.Tone tone, String title, String message) {
    }

    private static final int KEEP = 50;
    private static final int VISIBLE = 3;

    private final VBox stack = new VBox(0);
    private final ObservableList<Toast> history = FXCollections.observableArrayList();

    private final Duration quick;
    private final Duration problem;

    public Notifier() {
        this(Duration.seconds(7), Duration.seconds(20));
    }

    /** @param quick how long a success stays; @param problem how long a warning or a failure stays */
    public Notifier(Duration quick, Duration problem) {
        this.quick = quick;
        this.problem = problem;
        stack.setId("toasts");
        stack.getStyleClass().add("notice-strip");
        stack.setFillWidth(true);
        // Takes no room while empty.
        stack.managedProperty().bind(javafx.beans.binding.Bindings.isNotEmpty(stack.getChildren()));
        stack.visibleProperty().bind(stack.managedProperty());
    }

    /** The strip to put above the status bar (in the layout, not over the views). */
    public Node layer() {
        return stack;
    }

    public ObservableList<Toast> history() {
        return history;
    }

    public void show(Badge.Tone tone, String title, String message) {
        Toast toast = new Toast(tone, title, message);
        history.add(toast);
        if (history.size() > KEEP) {
            history.remove(0);
        }
        HBox card = card(toast);
        stack.getChildren().add(card);
        while (stack.getChildren().size() > VISIBLE) {
            stack.getChildren().remove(0);
        }
        boolean good = tone == Badge.Tone.SUCCESS || tone == Badge.Tone.NEUTRAL || tone == Badge.Tone.ACCENT;
        PauseTransition wait = new PauseTransition(good ? quick : problem);
        wait.setOnFinished(e -> {
            if (card.isHover()) {
                wait.playFromStart(); // being read: stays a while longer
            } else {
                stack.getChildren().remove(card);
            }
        });
        wait.play();
    }

    private HBox card(Toast toast) {
        Label title = new Label(toast.title(), Icons.icon(icon(toast.tone()), 18));
        title.getStyleClass().add("toast-title");
        title.setMinWidth(Region.USE_PREF_SIZE);
        Button close = new Button(null, Icons.icon(Material2AL.CLOSE, 14));
        close.getStyleClass().addAll(Styles.BUTTON_ICON, Styles.FLAT, Styles.SMALL, "toast-close");
        close.setMinWidth(Region.USE_PREF_SIZE);
        Label message = new Label(toast.message());
        message.getStyleClass().add("toast-message");
        message.setWrapText(true); // a long refusal is read whole: the line grows instead
        message.setMaxWidth(Double.MAX_VALUE);
        HBox.setHgrow(message, Priority.ALWAYS);
        HBox card = new HBox(12, title, message, close);
        card.setAlignment(Pos.CENTER_LEFT);
        card.getStyleClass().addAll("toast", "toast-" + toast.tone().name().toLowerCase(Locale.ROOT));
        card.setMaxWidth(Double.MAX_VALUE);
        close.setOnAction(e -> stack.getChildren().remove(card));
        return card;
    }

    private static Ikon icon(Badge.Tone tone) {
        return switch (tone) {
            case SUCCESS -> Material2AL.CHECK_CIRCLE;
            case DANGER -> Material2AL.ERROR;
            case WARNING -> Material2MZ.WARNING;
            case ACCENT, NEUTRAL -> Material2AL.INFO;
        };
    }
}
