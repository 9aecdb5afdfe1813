package dev.drainboard.ui.model;

import javafx.collections.ModifiableObservableListBase;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * An observable array list that can take many edits as one: everything done inside {@link #batch} reaches its
 * listeners as a single change (with one sub-change per edited range). The console applies a pulse's worth of
 * informer changes this way, so the filtered and sorted views, the table's skin and its selection model each run
 * once per pulse instead of once per changed row.
 */
public final class BatchList<E> extends ModifiableObservableListBase<E> {

    private final List<E> items = new ArrayList<>();

    /** Runs the edits; listeners hear about them once, when it returns. */
    public void batch(Runnable edits) {
        beginChange();
        try {
            edits.run();
        } finally {
            endChange();
        }
    }

    /** One "replaced everything" change (the base class would remove the rows one by one, each shifting the rest). */
    @Override
    public boolean setAll(Collection<? extends E> rows) {
        List<E> old = new ArrayList<>(items);
        beginChange();
        try {
            items.clear();
            items.addAll(rows);
            if (!old.isEmpty()) {
                nextRemove(0, old);
            }
            if (!items.isEmpty()) {
                nextAdd(0, items.size());
            }
        } finally {
            endChange();
        }
        return true;
    }

    @Override
    public void clear() {
        setAll(List.of());
    }

    @Override
    public E get(int index) {
        return items.get(index);
    }

    @Override
    public int size() {
        return items.size();
    }

    @Override
    protected void doAdd(int index, E element) {
        items.add(index, element);
    }

    @Override
    protected E doSet(int index, E element) {
        return items.set(index, element);
    }

    @Override
    protected E doRemove(int index) {
        return items.remove(index);
    }
}
