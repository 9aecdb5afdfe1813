package dev.drainboard.ui.shell;

import dev.drainboard.ui.model.ObjectRef;

/** Lets a view send the operator elsewhere: to another view, or to an object in the view that lists it. */
public interface Navigator {

    void show(ViewId view);

    /** Opens the view listing this kind of object and selects it. */
    void reveal(ObjectRef ref);
}
