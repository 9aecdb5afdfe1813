package dev.drainboard.ui.common;

import atlantafx.base.controls.ModalPane;
import javafx.geometry.Pos;
import javafx.scene.Node;

/**
 * The shell's layer for action dialogs: one {@link DialogCard} at a time over a dimmed window. Persistent: a click
 * outside does not close it (a half-read drain preview should not vanish); Esc and the dialog's buttons do.
 */
public final class DialogHost {

    private final ModalPane modal = new ModalPane();
    private DialogCard current;
    /** What had the keyboard focus when the dialog opened (the table row acted on): it gets it back on close. */
    private Node returnFocusTo;

    public DialogHost() {
        modal.setId("dialogPane");
        modal.setAlignment(Pos.CENTER);
        modal.setPersistent(true);
    }

    /** The node to put on top of the shell. */
    public Node layer() {
        return modal;
    }

    public void show(DialogCard card) {
        if (current == null && modal.getScene() != null) {
            Node owner = modal.getScene().getFocusOwner();
            returnFocusTo = owner == null || isInside(owner, modal) ? null : owner;
        }
        current = card;
        modal.show(card);
        card.focusFirst();
    }

    /** Closes the dialog if it is still this one (a late close of a replaced dialog is ignored). */
    public void close(DialogCard card) {
        if (current == card) {
            current = null;
            modal.hide(true);
            restoreFocus();
        }
    }

    /**
     * Gives the keyboard focus back to what had it before the dialog (a table keeps its focused row, so the next
     * shortcut acts on the row acted on). Without this the modal pane's closing leaves the focus to the scene's first
     * traversable control, the filter box, and the next shortcut letter is typed into it.
     */
    private void restoreFocus() {
        Node target = returnFocusTo;
        returnFocusTo = null;
        if (target == null) {
            return;
        }
        javafx.application.Platform.runLater(() -> {
            if (current == null && target.getScene() != null && target.getScene() == modal.getScene() && showing(target)) {
                target.requestFocus();
            }
        });
    }

    private static boolean isInside(Node node, Node ancestor) {
        for (Node n = node; n != null; n = n.getParent()) {
            if (n == ancestor) {
                return true;
            }
        }
        return false;
    }

    private static boolean showing(Node node) {
        for (Node n = node; n != null; n = n.getParent()) {
            if (!n.isVisible() || n.isDisabled()) {
                return false;
            }
        }
        return true;
    }

    public boolean isShowing() {
        return current != null;
    }

    public DialogCard current() {
        return current;
    }
}
