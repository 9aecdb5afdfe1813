package dev.drainboard.ui.common;

import dev.drainboard.ui.model.BatchList;
import javafx.collections.ListChangeListener;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

class LiveSortedListTest {

    /** A row: an object's name and a value it is sorted by; the name breaks ties (a total order). */
    record Item(String name, int value) { }

    private static final Comparator<Item> BY_VALUE = Comparator.comparingInt(Item::value).thenComparing(Item::name);
    private static final Comparator<Item> BY_NAME = Comparator.comparing(Item::name);

    /**
     * Random pulses as RowTable makes them (replacements in place, appends, swap-removals, now and then a change
     * big enough to be sorted from scratch, and a change of order): the view is always the source sorted, its
     * index maps agree, and replaying the changes it fired on a copy gives the same list.
     */
    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
    void staysTheSortedSourceAndFiresChangesThatReproduceIt(long seed) {
        Random random = new Random(seed);
        BatchList<Item> source = new BatchList<>();
        for (int i = 0; i < 200; i++) {
            source.add(new Item("vm-" + i, random.nextInt(20)));
        }
        LiveSortedList<Item> sorted = new LiveSortedList<>(source, BY_VALUE);
        List<Item> replayed = new ArrayList<>(sorted);
        sorted.addListener((ListChangeListener<Item>) c -> replay(c, replayed));
        int next = 200;
        for (int round = 0; round < 300; round++) {
            int edits = round % 50 == 49 ? 400 : 1 + random.nextInt(6); // now and then sorted from scratch
            int[] nextName = {next};
            source.batch(() -> {
                for (int e = 0; e < edits; e++) {
                    int kind = random.nextInt(10);
                    if (kind < 7 && !source.isEmpty()) {
                        int i = random.nextInt(source.size());
                        source.set(i, new Item(source.get(i).name(), random.nextInt(20)));
                    } else if (kind < 9 || source.isEmpty()) {
                        source.add(new Item("vm-" + nextName[0]++, random.nextInt(20)));
                    } else {
                        int i = random.nextInt(source.size());
                        int last = source.size() - 1;
                        source.set(i, source.get(last));
                        source.remove(last);
                    }
                }
            });
            next = nextName[0];
            if (round == 150) {
                sorted.comparatorProperty().set(BY_NAME);
            }
            List<Item> expected = source.stream().sorted(sorted.comparatorProperty().get()).toList();
            assertThat(sorted).containsExactlyElementsOf(expected);
            assertThat(replayed).containsExactlyElementsOf(expected);
            for (int v = 0; v < sorted.size(); v++) {
                assertThat(source.get(sorted.getSourceIndex(v))).isSameAs(sorted.get(v));
                assertThat(sorted.getViewIndex(sorted.getSourceIndex(v))).isEqualTo(v);
            }
        }
    }

    @Test
    void aRowWhoseKeyDidNotChangeIsReplacedWhereItIs() {
        BatchList<Item> source = new BatchList<>();
        for (int i = 0; i < 10; i++) {
            source.add(new Item("vm-" + i, i % 3));
        }
        LiveSortedList<Item> sorted = new LiveSortedList<>(source, BY_VALUE);
        List<String> changes = new ArrayList<>();
        sorted.addListener((ListChangeListener<Item>) c -> {
            while (c.next()) {
                changes.add(c.wasReplaced() ? "replaced " + c.getFrom() : c.wasAdded() ? "added " + c.getFrom() : "removed " + c.getFrom());
            }
        });
        int at = sorted.indexOf(source.get(4));

        source.set(4, new Item("vm-4", 1)); // same key: same place
        assertThat(changes).containsExactly("replaced " + at);

        changes.clear();
        source.set(4, new Item("vm-4", 2)); // moves behind the 1s
        assertThat(changes).containsExactly("removed " + at, "added " + sorted.indexOf(source.get(4)));
        assertThat(sorted).isSortedAccordingTo(BY_VALUE);
    }

    /** Applies a change to a copy of the list, as a listener that mirrors it would. */
    private static void replay(ListChangeListener.Change<? extends Item> c, List<Item> copy) {
        while (c.next()) {
            if (c.wasPermutated()) {
                List<Item> before = new ArrayList<>(copy.subList(c.getFrom(), c.getTo()));
                for (int i = c.getFrom(); i < c.getTo(); i++) {
                    copy.set(c.getPermutation(i), before.get(i - c.getFrom()));
                }
            } else if (c.wasUpdated()) {
                for (int i = c.getFrom(); i < c.getTo(); i++) {
                    copy.set(i, c.getList().get(i));
                }
            } else {
                for (int i = 0; i < c.getRemovedSize(); i++) {
                    assertThat(copy.remove(c.getFrom())).isSameAs(c.getRemoved().get(i));
                }
                copy.addAll(c.getFrom(), c.getAddedSubList());
            }
        }
    }
}
