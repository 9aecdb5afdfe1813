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
        current = card;
        modal.show(card);
        card.focusFirst();
    }

    /** Closes the dialog if it is still this one (a late close of a replaced dialog is ignored). */
    public void close(DialogCard card) {
        if (current == card) {
            current = null;
            modal.hide(true);
        }
    }

    public boolean isShowing() {
        return current != null;
    }

    public DialogCard current() {
        return current;
    }
}
