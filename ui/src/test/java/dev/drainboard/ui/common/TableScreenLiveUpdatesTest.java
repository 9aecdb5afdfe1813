package dev.drainboard.ui.common;

import dev.drainboard.ui.model.BatchList;
import dev.drainboard.ui.model.ObjectRef;
import dev.drainboard.ui.model.Row;
import javafx.application.Platform;
import javafx.scene.Scene;
import javafx.scene.control.SelectionMode;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A table screen under live updates as ClusterModel sends them (one batch of row replacements per pulse): what is
 * on screen follows the rows, the selection follows its objects, and a change repaints only the rows it touches.
 */
@ExtendWith(ApplicationExtension.class)
class TableScreenLiveUpdatesTest {

    record Item(String name, String state) implements Row {
        @Override
        public ObjectRef ref() {
            return new ObjectRef(ObjectRef.Kind.VMI, "ns", name);
        }

        @Override
        public String searchText() {
            return name + " " + state;
        }
    }

    private final BatchList<Item> rows = new BatchList<>();
    private final AtomicInteger stateCellUpdates = new AtomicInteger();
    /** Pulses whose layout has run, counted by the scene. */
    private final AtomicInteger laidOut = new AtomicInteger();
    private TableScreen<Item> screen;
    private TableView<Item> table;

    @Start
    void start(Stage stage) {
        for (int i = 0; i < 500; i++) {
            rows.add(new Item("vm-%03d".formatted(i), "Running"));
        }
        screen = new TableScreen<>("items", rows, "items", r -> CompletableFuture.completedFuture(""));
        screen.textColumn("Name", Item::name, 120);
        TableColumn<Item, String> state = screen.textColumn("State", Item::state, 120);
        state.setCellFactory(c -> new TableCell<>() {
            @Override
            protected void updateItem(String item, boolean empty) {
                super.updateItem(item, empty);
                setText(empty ? null : item);
                stateCellUpdates.incrementAndGet();
            }
        });
        table = screen.table();
        stage.setScene(new Scene(new javafx.scene.layout.StackPane(screen.root()), 800, 600));
        stage.getScene().addPostLayoutPulseListener(laidOut::incrementAndGet);
        stage.show();
    }

    @Test
    void aLiveUpdateRepaintsOnlyTheRowItChanges() {
        WaitForAsyncUtils.waitForFxEvents(5);
        int visible = fx(() -> (int) table.lookupAll(".table-row-cell").stream().filter(javafx.scene.Node::isVisible).count());
        assertThat(visible).isGreaterThan(10);

        stateCellUpdates.set(0);
        replace(3, new Item("vm-003", "Migrating"));
        assertThat(fx(() -> shownState("vm-003"))).isEqualTo("Migrating");
        // The table used to empty and refill every visible row on any replacement: one cell per visible row.
        assertThat(stateCellUpdates.get()).isBetween(1, 2);

        stateCellUpdates.set(0);
        replace(400, new Item("vm-400", "Migrating")); // far below the visible rows
        assertThat(stateCellUpdates.get()).isZero();
        assertThat(fx(() -> table.getItems().get(400).state())).isEqualTo("Migrating");
    }

    @Test
    void aSelectedRowStaysSelectedAcrossLiveUpdatesAndShowsTheNewRow() {
        fx(() -> {
            table.getSelectionModel().select(5);
            return null;
        });
        replace(5, new Item("vm-005", "Migrating"));
        replace(6, new Item("vm-006", "Migrating"));

        assertThat(fx(() -> table.getSelectionModel().getSelectedItem())).isEqualTo(new Item("vm-005", "Migrating"));
        assertThat(fx(() -> screen.selectedRow().get())).isEqualTo(new Item("vm-005", "Migrating"));
        assertThat(fx(() -> shownState("vm-005"))).isEqualTo("Migrating");
        assertThat(fx(() -> shownState("vm-006"))).isEqualTo("Migrating");
    }

    @Test
    void aMultipleSelectionStaysWholeAcrossLiveUpdates() {
        fx(() -> {
            table.getSelectionModel().setSelectionMode(SelectionMode.MULTIPLE);
            table.getSelectionModel().selectIndices(2, 4, 7);
            return null;
        });
        fx(() -> {
            rows.batch(() -> {
                rows.set(4, new Item("vm-004", "Migrating"));
                rows.set(7, new Item("vm-007", "Failed"));
                rows.set(8, new Item("vm-008", "Failed"));
            });
            return null;
        });
        WaitForAsyncUtils.waitForFxEvents(3);

        assertThat(fx(() -> List.copyOf(table.getSelectionModel().getSelectedItems())))
                .containsExactlyInAnyOrder(new Item("vm-002", "Running"), new Item("vm-004", "Migrating"),
                        new Item("vm-007", "Failed"));
    }

    @Test
    void sortedRowsStayInPlaceUnlessTheirSortKeyChanges() {
        fx(() -> {
            TableColumn<Item, ?> state = table.getColumns().get(1);
            table.getSortOrder().setAll(state);
            return null;
        });
        replace(10, new Item("vm-010", "Running")); // an equal row: same key, same place
        assertThat(fx(() -> table.getItems().subList(0, 3).stream().map(Item::name).toList()))
                .containsExactly("vm-000", "vm-001", "vm-002");

        replace(1, new Item("vm-001", "Failed")); // sorts before "Running"
        assertThat(fx(() -> table.getItems().subList(0, 3).stream().map(Item::name).toList()))
                .containsExactly("vm-001", "vm-000", "vm-002");
        assertThat(fx(() -> shownState("vm-001"))).isEqualTo("Failed");
    }

    @Test
    void aFilterFollowsRowsThatChange() {
        fx(() -> {
            screen.filterField().setText("migrat");
            return null;
        });
        assertThat(fx(() -> table.getItems().size())).isZero();

        replace(42, new Item("vm-042", "Migrating"));
        assertThat(fx(() -> table.getItems())).containsExactly(new Item("vm-042", "Migrating"));

        replace(42, new Item("vm-042", "Running"));
        assertThat(fx(() -> table.getItems().size())).isZero();
        fx(() -> {
            screen.filterField().setText("VM-04 running");
            return null;
        });
        assertThat(fx(() -> table.getItems().size())).isEqualTo(10);
    }

    /**
     * One batch, as RowTable applies it, then waits for a pulse laid out after it: "no cell repainted" is then the
     * table's answer to the change, not a layout still to come.
     */
    private void replace(int index, Item row) {
        int before = fx(() -> {
            rows.batch(() -> rows.set(index, row));
            Platform.requestNextPulse();
            return laidOut.get();
        });
        await().atMost(Duration.ofSeconds(30)).until(() -> laidOut.get() > before);
        WaitForAsyncUtils.waitForFxEvents();
    }

    private String shownState(String name) {
        return table.lookupAll(".table-row-cell").stream()
                .map(n -> (javafx.scene.control.TableRow<?>) n)
                .filter(r -> r.isVisible() && r.getItem() instanceof Item i && i.name().equals(name))
                .flatMap(r -> r.lookupAll(".table-cell").stream())
                .map(c -> ((TableCell<?, ?>) c))
                .filter(c -> c.getTableColumn() == table.getColumns().get(1))
                .map(TableCell::getText)
                .findFirst().orElse(null);
    }

    private static <T> T fx(Callable<T> call) {
        try {
            return WaitForAsyncUtils.asyncFx(call).get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
