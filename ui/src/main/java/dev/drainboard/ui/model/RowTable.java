package dev.drainboard.ui.model;

import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * An FX list of rows kept by key. Only the FX thread touches it: {@link #apply} takes one pulse's changes and
 * hands them to listeners as one list change. Updates replace a row in place (a "replaced" sub-change: sorted and
 * filtered views move just that row), additions append, removals swap the last row into the hole so no index
 * shifts ripple through a long list.
 */
final class RowTable<R> {

    private final BatchList<R> rows = new BatchList<>();
    private final ObservableList<R> readOnly = FXCollections.unmodifiableObservableList(rows);
    private final Map<String, Integer> indexByKey = new HashMap<>();
    private final List<String> keyByIndex = new ArrayList<>();

    ObservableList<R> readOnly() {
        return readOnly;
    }

    /** One pulse's changes: key → the new row, or empty when the object is gone. */
    void apply(Map<String, Optional<R>> changes) {
        if (changes.isEmpty()) {
            return;
        }
        // A first list (or a re-list) replaces everything at once: one change event instead of thousands.
        if (changes.size() > 64 && changes.size() >= rows.size()) {
            Map<String, R> merged = new java.util.LinkedHashMap<>();
            for (int i = 0; i < rows.size(); i++) {
                merged.put(keyByIndex.get(i), rows.get(i));
            }
            changes.forEach((key, row) -> row.ifPresentOrElse(r -> merged.put(key, r), () -> merged.remove(key)));
            indexByKey.clear();
            keyByIndex.clear();
            merged.keySet().forEach(k -> {
                indexByKey.put(k, keyByIndex.size());
                keyByIndex.add(k);
            });
            rows.setAll(merged.values());
            return;
        }
        rows.batch(() -> changes.forEach((key, row) -> {
            Integer index = indexByKey.get(key);
            if (row.isPresent()) {
                if (index != null) {
                    rows.set(index, row.get());
                } else {
                    indexByKey.put(key, rows.size());
                    keyByIndex.add(key);
                    rows.add(row.get());
                }
            } else if (index != null) {
                int last = rows.size() - 1;
                if (index != last) {
                    String lastKey = keyByIndex.get(last);
                    rows.set(index, rows.get(last));
                    keyByIndex.set(index, lastKey);
                    indexByKey.put(lastKey, index);
                }
                rows.remove(last);
                keyByIndex.remove(last);
                indexByKey.remove(key);
            }
        }));
    }

    void clear() {
        rows.clear();
        indexByKey.clear();
        keyByIndex.clear();
    }
}
