package dev.drainboard.ui.dialogs;

import dev.drainboard.ui.actions.AccessDecision;
import dev.drainboard.ui.common.Icons;
import javafx.scene.control.Button;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.StackPane;
import javafx.util.Duration;

/**
 * A toolbar button for one action. A disabled control shows no tooltip in JavaFX, so the tooltip sits on a
 * wrapper: hovering a disabled action still says why (not allowed, or nothing suitable selected).
 */
public final class ActionButton extends StackPane {

    private final ConsoleAction action;
    private final Button button;
    private final Tooltip tooltip = new Tooltip();

    ActionButton(ConsoleAction action, Runnable run) {
        this.action = action;
        button = new Button(action.label(), Icons.icon(action.icon(), 16));
        button.setId("action-" + action.name().toLowerCase(java.util.Locale.ROOT).replace('_', '-'));
        button.setOnAction(e -> run.run());
        button.setFocusTraversable(false);
        setId(button.getId() + "-wrap");
        tooltip.setShowDelay(Duration.millis(250));
        tooltip.setWrapText(true);
        tooltip.setMaxWidth(420);
        Tooltip.install(this, tooltip);
        getChildren().add(button);
    }

    /**
     * @param applicable      whether the selection suits the action
     * @param notApplicable   why not, when it does not
     * @param access          what RBAC says
     */
    void update(boolean applicable, String notApplicable, AccessDecision access) {
        boolean enabled = applicable && access.permits();
        button.setDisable(!enabled);
        String base = action.description() + "  (key " + action.keyHint() + ")";
        if (!access.permits()) {
            tooltip.setText(access.reason());
        } else if (!applicable) {
            tooltip.setText(notApplicable + "\n" + base);
        } else if (access.state() == AccessDecision.State.UNKNOWN) {
            tooltip.setText(base + "\n" + access.reason());
        } else {
            tooltip.setText(base);
        }
    }

    public Button button() {
        return button;
    }

    public String tooltipText() {
        return tooltip.getText();
    }

    public ConsoleAction action() {
        return action;
    }
}
