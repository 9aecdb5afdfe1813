package dev.drainboard.ui.shell;

import dev.drainboard.ui.model.ObjectRef;
import javafx.scene.Node;

/** One screen of the shell. Actions (cordon, drain, …) live in the view's own toolbar. */
public interface ConsoleView {

    Node root();

    /** Shows and selects this object if the view lists it; false otherwise. */
    default boolean reveal(ObjectRef ref) {
        return false;
    }

    /** Puts the keyboard focus where typing makes sense (the filter box); Ctrl+F calls it. */
    default void focusFilter() {
    }
}
