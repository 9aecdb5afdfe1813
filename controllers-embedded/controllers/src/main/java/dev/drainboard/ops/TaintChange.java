package dev.drainboard.ops;

import io.fabric8.kubernetes.api.model.Taint;

import java.util.List;

/**
 * Taints to add (key, value, effect; the effect always set) and to remove (key, and the effect or null for every
 * effect of that key), parsed and validated by {@link Taints#parse}.
 */
public record TaintChange(List<Taint> toAdd, List<Taint> toRemove) {

    public TaintChange {
        toAdd = List.copyOf(toAdd);
        toRemove = List.copyOf(toRemove);
    }

    public boolean isEmpty() {
        return toAdd.isEmpty() && toRemove.isEmpty();
    }
}
