package dev.drainboard.ui.common;

import javafx.beans.property.ObjectProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.collections.ListChangeListener.Change;
import javafx.collections.ObservableList;
import javafx.collections.transformation.TransformationList;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * A sorted view of a list whose rows are replaced all the time (live updates), always in a total order.
 *
 * <p>JavaFX's {@code SortedList} handles every replacement as a removal plus an insertion, each walking the whole
 * list to fix its index maps: with 10,000 rows that made applying a pulse's few updates cost milliseconds, and a
 * second's worth after a stall tens of them. Here a replaced row that still sorts where it was is replaced in place
 * (a binary-search-free neighbour check), one that moves shifts only the rows between its old and new place, and
 * only additions and removals walk the index maps. Large changes (a first list, a re-list) sort from scratch.
 *
 * <p>The comparator must be a total order (ties only between rows of the same object), so a row's place never
 * depends on the order updates arrive in.
 */
final class LiveSortedList<E> extends TransformationList<E, E> {

    /** A change touching more rows than this (beyond replacements) is applied by sorting everything again. */
    private static final int INCREMENTAL_LIMIT = 64;

    private final ObjectProperty<Comparator<? super E>> comparator = new SimpleObjectProperty<>(this, "comparator") {
        @Override
        protected void invalidated() {
            resort();
        }
    };
    private Object[] view = new Object[0];
    private int[] sourceOfView = new int[0];
    private int[] viewOfSource = new int[0];
    private int size;

    LiveSortedList(ObservableList<E> source, Comparator<? super E> initial) {
        super(source);
        comparator.set(Objects.requireNonNull(initial));
        rebuild();
    }

    /** Never null: bind it to a total order. */
    ObjectProperty<Comparator<? super E>> comparatorProperty() {
        return comparator;
    }

    @Override
    @SuppressWarnings("unchecked")
    public E get(int index) {
        Objects.checkIndex(index, size);
        return (E) view[index];
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public int getSourceIndex(int index) {
        Objects.checkIndex(index, size);
        return sourceOfView[index];
    }

    @Override
    public int getViewIndex(int index) {
        Objects.checkIndex(index, size);
        return viewOfSource[index];
    }

    @Override
    protected void sourceChanged(Change<? extends E> c) {
        if (needsRebuild(c)) {
            List<E> before = new ArrayList<>(this);
            rebuild();
            beginChange();
            if (!before.isEmpty()) {
                nextRemove(0, before);
            }
            if (size > 0) {
                nextAdd(0, size);
            }
            endChange();
            return;
        }
        beginChange();
        try {
            while (c.next()) {
                if (c.wasUpdated() || c.wasReplaced() && c.getRemovedSize() == c.getAddedSize()) {
                    for (int s = c.getFrom(); s < c.getTo(); s++) {
                        replace(s, c.getList().get(s));
                    }
                } else {
                    for (int k = 0; k < c.getRemovedSize(); k++) {
                        removeSource(c.getFrom());
                    }
                    for (int s = c.getFrom(); s < c.getTo(); s++) {
                        insertSource(s, c.getList().get(s));
                    }
                }
            }
        } finally {
            endChange();
        }
    }

    private boolean needsRebuild(Change<? extends E> c) {
        int touched = 0;
        while (c.next()) {
            if (c.wasPermutated()) {
                c.reset();
                return true;
            }
            if (!c.wasUpdated() && !(c.wasReplaced() && c.getRemovedSize() == c.getAddedSize())) {
                touched += c.getRemovedSize() + c.getAddedSize();
            }
        }
        c.reset();
        return touched > INCREMENTAL_LIMIT;
    }

    /** The row at source index {@code s} is now {@code row}: in place when it still sorts there, else moved. */
    @SuppressWarnings("unchecked")
    private void replace(int s, E row) {
        int p = viewOfSource[s];
        E old = (E) view[p];
        Comparator<? super E> order = comparator.get();
        boolean fits = (p == 0 || order.compare((E) view[p - 1], row) <= 0)
                && (p == size - 1 || order.compare(row, (E) view[p + 1]) <= 0);
        if (fits) {
            view[p] = row;
            nextSet(p, old);
            return;
        }
        // Find where it goes among the others (as if it were not at p), then shift the rows in between by one.
        int q = insertionPoint(row, p);
        if (q > p) {
            System.arraycopy(view, p + 1, view, p, q - p);
            System.arraycopy(sourceOfView, p + 1, sourceOfView, p, q - p);
        } else {
            System.arraycopy(view, q, view, q + 1, p - q);
            System.arraycopy(sourceOfView, q, sourceOfView, q + 1, p - q);
        }
        view[q] = row;
        sourceOfView[q] = s;
        for (int i = Math.min(p, q); i <= Math.max(p, q); i++) {
            viewOfSource[sourceOfView[i]] = i;
        }
        nextRemove(p, old);
        nextAdd(q, q + 1);
    }

    /** Where {@code row} goes in the view without the entry at {@code skip}, as an index of the final view. */
    @SuppressWarnings("unchecked")
    private int insertionPoint(E row, int skip) {
        Comparator<? super E> order = comparator.get();
        int lo = 0;
        int hi = size - 1; // candidates among size - 1 other rows
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            int at = mid >= skip ? mid + 1 : mid;
            if (order.compare((E) view[at], row) <= 0) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    private void removeSource(int s) {
        int p = viewOfSource[s];
        E old = get(p);
        System.arraycopy(view, p + 1, view, p, size - p - 1);
        System.arraycopy(sourceOfView, p + 1, sourceOfView, p, size - p - 1);
        System.arraycopy(viewOfSource, s + 1, viewOfSource, s, size - s - 1);
        size--;
        view[size] = null;
        for (int i = 0; i < size; i++) {
            if (sourceOfView[i] > s) {
                sourceOfView[i]--;
            }
            if (viewOfSource[i] > p) {
                viewOfSource[i]--;
            }
        }
        nextRemove(p, old);
    }

    @SuppressWarnings("unchecked")
    private void insertSource(int s, E row) {
        ensureCapacity(size + 1);
        Comparator<? super E> order = comparator.get();
        int lo = 0;
        int hi = size;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (order.compare((E) view[mid], row) <= 0) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        int q = lo;
        for (int i = 0; i < size; i++) {
            if (sourceOfView[i] >= s) {
                sourceOfView[i]++;
            }
            if (viewOfSource[i] >= q) {
                viewOfSource[i]++;
            }
        }
        System.arraycopy(view, q, view, q + 1, size - q);
        System.arraycopy(sourceOfView, q, sourceOfView, q + 1, size - q);
        System.arraycopy(viewOfSource, s, viewOfSource, s + 1, size - s);
        view[q] = row;
        sourceOfView[q] = s;
        viewOfSource[s] = q;
        size++;
        nextAdd(q, q + 1);
    }

    private void ensureCapacity(int needed) {
        if (view.length < needed) {
            int capacity = Math.max(needed, view.length * 3 / 2 + 16);
            view = Arrays.copyOf(view, capacity);
            sourceOfView = Arrays.copyOf(sourceOfView, capacity);
            viewOfSource = Arrays.copyOf(viewOfSource, capacity);
        }
    }

    /** Sorts the source from scratch into the view (no change fired). */
    private void rebuild() {
        List<? extends E> source = getSource();
        size = source.size();
        view = new Object[size];
        sourceOfView = sortedSourceIndexes();
        viewOfSource = new int[size];
        for (int i = 0; i < size; i++) {
            view[i] = source.get(sourceOfView[i]);
            viewOfSource[sourceOfView[i]] = i;
        }
    }

    private int[] sortedSourceIndexes() {
        List<? extends E> source = getSource();
        Comparator<? super E> order = comparator.get();
        Integer[] indexes = new Integer[source.size()];
        for (int i = 0; i < indexes.length; i++) {
            indexes[i] = i;
        }
        Arrays.sort(indexes, (a, b) -> order.compare(source.get(a), source.get(b)));
        return Arrays.stream(indexes).mapToInt(Integer::intValue).toArray();
    }

    /** A new order: the same rows, permuted. */
    private void resort() {
        if (getSource() == null || view == null || size != getSource().size()) {
            return; // still being constructed
        }
        int[] oldViewOfSource = Arrays.copyOf(viewOfSource, size);
        rebuild();
        if (size == 0) {
            return;
        }
        int[] perm = new int[size];
        for (int s = 0; s < size; s++) {
            perm[oldViewOfSource[s]] = viewOfSource[s];
        }
        beginChange();
        nextPermutation(0, size, perm);
        endChange();
    }
}
