package dev.drainboard.ui.model;

import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

class RowTableTest {

    @Test
    void updatesInPlaceAppendsAndRemovesBySwappingTheLastRowIn() {
        RowTable<String> table = new RowTable<>();
        table.apply(changes("a", "a1", "b", "b1", "c", "c1"));
        assertThat(table.readOnly()).containsExactly("a1", "b1", "c1");

        table.apply(changes("b", "b2", "d", "d1"));
        assertThat(table.readOnly()).containsExactly("a1", "b2", "c1", "d1");

        table.apply(changes("a", null));
        assertThat(table.readOnly()).containsExactly("d1", "b2", "c1");

        table.apply(changes("d", "d2", "c", null));
        assertThat(table.readOnly()).containsExactly("d2", "b2");
    }

    @Test
    void aLargeBatchReplacesTheListInOneChange() {
        RowTable<String> table = new RowTable<>();
        int[] events = {0};
        table.readOnly().addListener((javafx.collections.ListChangeListener<String>) c -> events[0]++);
        Map<String, Optional<String>> batch = new LinkedHashMap<>();
        for (int i = 0; i < 1000; i++) {
            batch.put("k" + i, Optional.of("v" + i));
        }
        table.apply(batch);
        assertThat(table.readOnly()).hasSize(1000);
        assertThat(events[0]).isEqualTo(1);
        table.apply(changes("k5", null));
        assertThat(table.readOnly()).hasSize(999).doesNotContain("v5");
    }

    @Test
    void aPulsesChangesReachListenersAsOneChange() {
        RowTable<String> table = new RowTable<>();
        table.apply(changes("a", "a1", "b", "b1", "c", "c1", "d", "d1"));
        java.util.List<String> seen = new java.util.ArrayList<>();
        table.readOnly().addListener((javafx.collections.ListChangeListener<String>) c -> {
            StringBuilder change = new StringBuilder();
            while (c.next()) {
                change.append(c.getFrom()).append(c.getRemoved()).append(c.getAddedSubList());
            }
            seen.add(change.toString());
        });

        table.apply(changes("b", "b2", "d", "d2", "e", "e1", "a", null));

        assertThat(table.readOnly()).containsExactly("e1", "b2", "c1", "d2");
        assertThat(seen).hasSize(1);
        // Every edit is in it: a replaced by e (swapped in from the end), b and d replaced in place.
        assertThat(seen.getFirst()).contains("a1", "b1", "d1", "e1", "b2", "d2");
    }

    private static Map<String, Optional<String>> changes(String... keyValues) {
        Map<String, Optional<String>> m = new LinkedHashMap<>();
        for (int i = 0; i < keyValues.length; i += 2) {
            m.put(keyValues[i], Optional.ofNullable(keyValues[i + 1]));
        }
        return m;
    }
}
