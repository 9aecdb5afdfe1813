package dev.drainboard.cluster.fabric8;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** Records what an informer tells its handler, as "ADD ns/name", "UPDATE ns/name", "DELETE ns/name". */
final class RecordingHandler<T extends HasMetadata> implements ResourceEventHandler<T> {

    private final List<String> events = new CopyOnWriteArrayList<>();

    @Override
    public void onAdd(T obj) {
        events.add("ADD " + key(obj));
    }

    @Override
    public void onUpdate(T oldObj, T newObj) {
        events.add("UPDATE " + key(newObj));
    }

    @Override
    public void onDelete(T obj, boolean deletedFinalStateUnknown) {
        events.add("DELETE " + key(obj));
    }

    List<String> events() {
        return List.copyOf(events);
    }

    private static String key(HasMetadata o) {
        return o.getMetadata().getNamespace() + "/" + o.getMetadata().getName();
    }
}
