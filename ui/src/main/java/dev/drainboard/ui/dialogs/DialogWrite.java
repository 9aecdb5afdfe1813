package dev.drainboard.ui.dialogs;

import dev.drainboard.ui.actions.ActionResult;
import javafx.scene.Node;
import javafx.scene.control.Label;

import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * A dialog's write, one at a time: while it is under way the dialog is busy (its buttons disabled by its refresh); a
 * refusal is shown word for word in the dialog's error line and the dialog stays open with what was typed; a written
 * change closes it through {@code done}.
 */
final class DialogWrite {

    private final Label serverError;
    private final Runnable refresh;
    private final Consumer<ActionResult> done;
    private boolean busy;

    DialogWrite(Label serverError, Runnable refresh, Consumer<ActionResult> done) {
        this.serverError = serverError;
        this.refresh = refresh;
        this.done = done;
    }

    boolean busy() {
        return busy;
    }

    /** Starts the write unless one is under way. */
    void start(Supplier<CompletableFuture<ActionResult>> write) {
        if (busy) {
            return;
        }
        busy = true;
        serverError.setText("");
        show(serverError, false);
        refresh.run();
        write.get().thenAccept(result -> {
            busy = false;
            if (result.failed()) {
                serverError.setText(result.message());
                show(serverError, true);
                refresh.run();
            } else {
                done.accept(result);
            }
        });
    }

    /** Shows or hides a node and gives its room back when hidden. */
    static void show(Node node, boolean visible) {
        node.setVisible(visible);
        node.setManaged(visible);
    }
}
