package dev.drainboard.ui.actions;

import javafx.beans.binding.Bindings;
import javafx.beans.binding.ObjectBinding;
import javafx.beans.property.ReadOnlyLongProperty;
import javafx.beans.property.ReadOnlyLongWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.value.ObservableValue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

/**
 * What the current connection may do, cached per connection (one instance per session): each {@link AccessCheck}
 * is reviewed once, off the FX thread, and its answer is a property the action controls bind to. FX thread only.
 */
public final class Permissions {

    private final Executor background;
    private final Executor fx;
    private final Map<AccessCheck, ReadOnlyObjectWrapper<AccessDecision>> decisions = new HashMap<>();
    private final ReadOnlyLongWrapper revision = new ReadOnlyLongWrapper();
    private AccessReviewer reviewer;
    private long generation;

    public Permissions(AccessReviewer reviewer, Executor background, Executor fx) {
        this.reviewer = Objects.requireNonNull(reviewer);
        this.background = background;
        this.fx = fx;
    }

    /** The answer for one check: CHECKING until the API server has answered. */
    public ReadOnlyObjectProperty<AccessDecision> decision(AccessCheck check) {
        ReadOnlyObjectWrapper<AccessDecision> known = decisions.get(check);
        if (known == null) {
            known = new ReadOnlyObjectWrapper<>(AccessDecision.CHECKING);
            decisions.put(check, known);
            review(check, known);
        }
        return known.getReadOnlyProperty();
    }

    /** The combined answer for an action needing several checks (see {@link AccessDecision#combine}). */
    public ObservableValue<AccessDecision> decision(List<AccessCheck> checks) {
        if (checks.size() == 1) {
            return decision(checks.getFirst());
        }
        List<ReadOnlyObjectProperty<AccessDecision>> parts = checks.stream().map(this::decision).toList();
        ObjectBinding<AccessDecision> combined = Bindings.createObjectBinding(
                () -> AccessDecision.combine(parts.stream().map(ReadOnlyObjectProperty::get).toList()),
                parts.toArray(ReadOnlyObjectProperty[]::new));
        return combined;
    }

    /** The answer now, without waiting: CHECKING when it is not known yet. */
    public AccessDecision now(List<AccessCheck> checks) {
        return AccessDecision.combine(checks.stream().map(c -> decision(c).get()).toList());
    }

    /** Bumped whenever any answer changes: controls that show many actions recompute on it. */
    public ReadOnlyLongProperty revision() {
        return revision.getReadOnlyProperty();
    }

    /** Asks another reviewer and asks again every check already made (for tests, and after re-authentication). */
    public void reviewWith(AccessReviewer newReviewer) {
        reviewer = Objects.requireNonNull(newReviewer);
        generation++;
        decisions.forEach((check, wrapper) -> {
            wrapper.set(AccessDecision.CHECKING);
            review(check, wrapper);
        });
        revision.set(revision.get() + 1);
    }

    private void review(AccessCheck check, ReadOnlyObjectWrapper<AccessDecision> target) {
        AccessReviewer asked = reviewer;
        long mine = generation;
        try {
            background.execute(() -> {
                AccessDecision answer;
                try {
                    answer = asked.review(check);
                } catch (RuntimeException e) {
                    answer = AccessDecision.unknown(check, String.valueOf(e.getMessage()));
                }
                AccessDecision result = answer;
                fx.execute(() -> {
                    if (mine == generation) {
                        target.set(result);
                        revision.set(revision.get() + 1);
                    }
                });
            });
        } catch (RejectedExecutionException e) {
            target.set(AccessDecision.unknown(check, "the connection is closing"));
        }
    }
}
