package dev.drainboard.ui.common;

import dev.drainboard.ui.model.ObjectRef;
import javafx.event.Event;
import javafx.event.EventType;

/**
 * "Show me this object": fired by a link (the details pane's related objects, a timeline bar) and bubbled up the
 * scene graph to the shell, which opens the view listing the object and selects it. Views need no reference to
 * the shell for that.
 */
public final class RevealRequest extends Event {

    public static final EventType<RevealRequest> REVEAL = new EventType<>(Event.ANY, "DRAINBOARD_REVEAL");

    private final transient ObjectRef ref;

    public RevealRequest(ObjectRef ref) {
        super(REVEAL);
        this.ref = ref;
    }

    public ObjectRef ref() {
        return ref;
    }
}
