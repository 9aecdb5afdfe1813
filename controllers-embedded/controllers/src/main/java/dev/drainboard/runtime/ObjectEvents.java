package dev.drainboard.runtime;

import io.fabric8.kubernetes.client.informers.ResourceEventHandler;

import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * An informer event handler that names only the events it acts on, e.g. a controller observing its own
 * creations for its {@link Expectations}:
 * <pre>{@code
 * informers.pods().addEventHandler(ObjectEvents.<Pod>handler().added(pod -> expectations.creationObserved(keyOf(pod))));
 * }</pre>
 * Events it does not name are ignored; a deletion is reported whether or not its final state is known.
 */
public final class ObjectEvents<T> implements ResourceEventHandler<T> {

    private Consumer<T> added = object -> { };
    private BiConsumer<T, T> updated = (before, after) -> { };
    private Consumer<T> deleted = object -> { };

    private ObjectEvents() {
    }

    public static <T> ObjectEvents<T> handler() {
        return new ObjectEvents<>();
    }

    public ObjectEvents<T> added(Consumer<T> action) {
        this.added = action;
        return this;
    }

    public ObjectEvents<T> updated(BiConsumer<T, T> action) {
        this.updated = action;
        return this;
    }

    public ObjectEvents<T> deleted(Consumer<T> action) {
        this.deleted = action;
        return this;
    }

    @Override
    public void onAdd(T object) {
        added.accept(object);
    }

    @Override
    public void onUpdate(T before, T after) {
        updated.accept(before, after);
    }

    @Override
    public void onDelete(T object, boolean deletedFinalStateUnknown) {
        deleted.accept(object);
    }
}
