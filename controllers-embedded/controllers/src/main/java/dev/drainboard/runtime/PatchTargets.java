package dev.drainboard.runtime;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;

import java.util.function.Supplier;

/**
 * What to hand fabric8 for a patch: {@code resource(target).patch(context, patch)}. By name alone
 * ({@code withName(n).patch(..)}) fabric8 first GETs the object from the server; given the cached object it
 * deep-copies it through JSON. A bare object carrying only the name and namespace costs neither, and the patch
 * text alone says what changes.
 */
public final class PatchTargets {

    private PatchTargets() {
    }

    /** A new empty {@code T} with {@code object}'s name and namespace. */
    public static <T extends HasMetadata> T of(HasMetadata object, Supplier<T> empty) {
        T target = empty.get();
        target.setMetadata(new ObjectMetaBuilder()
                .withName(object.getMetadata().getName())
                .withNamespace(object.getMetadata().getNamespace())
                .build());
        return target;
    }
}
