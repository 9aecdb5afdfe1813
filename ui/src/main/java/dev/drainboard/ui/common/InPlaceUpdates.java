package dev.drainboard.ui.common;

import dev.drainboard.ui.model.Row;
import javafx.collections.ListChangeListener.Change;
import javafx.collections.ObservableList;
import javafx.collections.transformation.TransformationList;

import java.util.List;
import java.util.function.Predicate;

/**
 * The rows a {@code TableView} shows, as its source has them, except that a live update of an object that stays
 * where it is reaches the table as an "updated" change instead of a "replaced" one.
 *
 * <p>Why: a {@code TableView} answers any "replaced" change (anywhere in its list, even far off screen) by
 * rebuilding every visible row and cell: each one is emptied and filled again, which restyles it (CSS) and lays it
 * out. With a few of 10,000 rows changing every frame that was most of every pulse. An "updated" change only makes
 * the table re-read the rows it shows; a row whose object did not change is left as it is, and one that did is
 * updated like any row that gets a new item. The list's content and order are the source's, always.
 *
 * <p>A replacement is passed on unchanged when the table's selection or focus holds the object (the table's
 * selection and focus models follow "replaced" changes to the new row object, not "updated" ones, and the screen
 * re-selects the new row from them), when the replacing rows name other objects, or when the sizes differ.
 */
final class InPlaceUpdates<R extends Row> extends TransformationList<R, R> {

    private final Predicate<R> keepReplacement;

    /** @param keepReplacement rows (as they were before the update) whose replacement must stay a replacement */
    InPlaceUpdates(ObservableList<R> source, Predicate<R> keepReplacement) {
        super(source);
        this.keepReplacement = keepReplacement;
    }

    @Override
    @SuppressWarnings("unchecked")
    protected void sourceChanged(Change<? extends R> c) {
        beginChange();
        try {
            while (c.next()) {
                if (c.wasPermutated()) {
                    int[] perm = new int[c.getTo() - c.getFrom()];
                    for (int i = c.getFrom(); i < c.getTo(); i++) {
                        perm[i - c.getFrom()] = c.getPermutation(i);
                    }
                    nextPermutation(c.getFrom(), c.getTo(), perm);
                } else if (c.wasUpdated() || sameObjectsInPlace(c)) {
                    for (int i = c.getFrom(); i < c.getTo(); i++) {
                        nextUpdate(i);
                    }
                } else {
                    if (c.wasRemoved()) {
                        nextRemove(c.getFrom(), (List<R>) c.getRemoved());
                    }
                    if (c.wasAdded()) {
                        nextAdd(c.getFrom(), c.getTo());
                    }
                }
            }
        } finally {
            endChange();
        }
    }

    /** A replacement of rows by new rows of the same objects, none of them selected. */
    private boolean sameObjectsInPlace(Change<? extends R> c) {
        if (!c.wasReplaced() || c.getRemovedSize() != c.getAddedSize()) {
            return false;
        }
        List<? extends R> removed = c.getRemoved();
        for (int i = 0; i < removed.size(); i++) {
            R before = removed.get(i);
            R after = c.getList().get(c.getFrom() + i);
            if (keepReplacement.test(before) || !before.ref().equals(after.ref())) {
                return false;
            }
        }
        return true;
    }

    @Override
    public R get(int index) {
        return getSource().get(index);
    }

    @Override
    public int size() {
        return getSource().size();
    }

    @Override
    public int getSourceIndex(int index) {
        return index;
    }

    @Override
    public int getViewIndex(int index) {
        return index;
    }
}
