package dev.drainboard.ui.common;

import atlantafx.base.theme.Styles;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyEvent;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.StackPane;
import javafx.scene.layout.VBox;
import org.kordamp.ikonli.Ikon;

/**
 * An in-window dialog: an icon, a title and a subtitle, a body, and buttons at the bottom right (the primary one
 * last). Esc presses Cancel; Enter the primary button when it is enabled.
 */
public class DialogCard extends VBox {

    /** The colour of the header icon and of the primary button. */
    public enum Kind { NEUTRAL, ACCENT, WARNING, DANGER }

    private final Label title = new Label();
    private final Label subtitle = new Label();
    private final StackPane iconBox = new StackPane();
    private final VBox body = new VBox(12);
    private final HBox footer = new HBox(8);
    private final HBox footerLeft = new HBox(8);
    private Button cancel;
    private Button primary;
    private Node firstFocus;

    public DialogCard(String id, Ikon icon, Kind kind, String titleText, String subtitleText) {
        setId(id);
        getStyleClass().addAll("dialog-card", "dialog-" + kind.name().toLowerCase(java.util.Locale.ROOT));
        iconBox.getStyleClass().add("dialog-icon");
        iconBox.getChildren().add(Icons.icon(icon, 20));
        iconBox.setMinSize(38, 38);
        iconBox.setMaxSize(38, 38);
        title.setText(titleText);
        title.getStyleClass().add("dialog-title");
        title.setWrapText(true);
        subtitle.setText(subtitleText);
        subtitle.getStyleClass().addAll("dialog-subtitle", Styles.TEXT_MUTED);
        subtitle.setWrapText(true);
        subtitle.setManaged(subtitleText != null && !subtitleText.isEmpty());
        subtitle.setVisible(subtitle.isManaged());
        VBox heading = new VBox(3, title, subtitle);
        HBox.setHgrow(heading, Priority.ALWAYS);
        HBox header = new HBox(14, iconBox, heading);
        header.setAlignment(Pos.TOP_LEFT);
        header.getStyleClass().add("dialog-header");
        body.getStyleClass().add("dialog-body");
        VBox.setVgrow(body, Priority.ALWAYS);
        Region spacer = new Region();
        HBox.setHgrow(spacer, Priority.ALWAYS);
        footerLeft.setAlignment(Pos.CENTER_LEFT);
        footer.getChildren().addAll(footerLeft, spacer);
        footer.setAlignment(Pos.CENTER_RIGHT);
        footer.getStyleClass().add("dialog-footer");
        getChildren().addAll(header, body, footer);
        setPadding(new Insets(22, 24, 18, 24));
        setSpacing(16);
        setMaxSize(Region.USE_PREF_SIZE, Region.USE_PREF_SIZE);
        addEventFilter(KeyEvent.KEY_PRESSED, e -> {
            if (e.getCode() == KeyCode.ESCAPE && cancel != null && !cancel.isDisabled()) {
                cancel.fire();
                e.consume();
            }
        });
    }

    public VBox body() {
        return body;
    }

    public void setTitle(String text) {
        title.setText(text);
    }

    public void setSubtitle(String text) {
        subtitle.setText(text);
        subtitle.setManaged(text != null && !text.isEmpty());
        subtitle.setVisible(subtitle.isManaged());
    }

    public void setKind(Kind kind) {
        getStyleClass().removeIf(c -> c.startsWith("dialog-") && !c.equals("dialog-card"));
        getStyleClass().add("dialog-" + kind.name().toLowerCase(java.util.Locale.ROOT));
    }

    public void setIcon(Ikon icon) {
        iconBox.getChildren().setAll(Icons.icon(icon, 20));
    }

    /** Replaces the buttons: {@code cancel} (Esc) first, then {@code primary} (Enter), either may be null. */
    public void setButtons(Button cancelButton, Button primaryButton, Button... others) {
        footer.getChildren().remove(2, footer.getChildren().size());
        for (Button other : others) {
            footer.getChildren().add(other);
        }
        if (cancel != null) {
            cancel.setCancelButton(false);
        }
        if (primary != null) {
            primary.setDefaultButton(false);
        }
        cancel = cancelButton;
        primary = primaryButton;
        if (cancel != null) {
            cancel.setCancelButton(true);
            footer.getChildren().add(cancel);
        }
        if (primary != null) {
            primary.setDefaultButton(true);
            footer.getChildren().add(primary);
        }
    }

    /** A place at the bottom left for a status line or a secondary control. */
    public HBox footerLeft() {
        return footerLeft;
    }

    public void setFirstFocus(Node node) {
        firstFocus = node;
    }

    void focusFirst() {
        Node target = firstFocus != null ? firstFocus : primary != null && !primary.isDisabled() ? primary : cancel;
        if (target != null) {
            javafx.application.Platform.runLater(target::requestFocus);
        }
    }

    public Button primaryButton() {
        return primary;
    }

    public Button cancelButton() {
        return cancel;
    }

    /** A primary button of the card's kind. */
    public static Button primary(String text, Kind kind) {
        Button b = new Button(text);
        b.getStyleClass().add(switch (kind) {
            case DANGER -> Styles.DANGER;
            case WARNING -> Styles.WARNING;
            default -> Styles.ACCENT;
        });
        return b;
    }
}
