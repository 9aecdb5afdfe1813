package dev.drainboard.ui.lists;

import atlantafx.base.theme.Styles;
import dev.drainboard.ui.model.BatchList;
import dev.drainboard.ui.model.EventRow;
import dev.drainboard.ui.model.ObjectRef;
import dev.drainboard.ui.model.Relations;
import javafx.scene.Scene;
import javafx.scene.control.TableView;
import javafx.scene.control.TextField;
import javafx.scene.control.ToggleButton;
import javafx.scene.layout.HBox;
import javafx.scene.layout.StackPane;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

import java.time.Instant;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** What every list screen shares: the segment toggles that narrow the table, reveal, and the filter's focus. */
@ExtendWith(ApplicationExtension.class)
class ListScreenTest {

    /** A screen as the concrete ones are made: its columns, then its segments. */
    static final class Items extends ListScreen<EventRow> {
        final ToggleButton all = new ToggleButton("All");
        final ToggleButton warnings = new ToggleButton("Warnings");
        final ToggleButton normal = new ToggleButton("Normal");
        final HBox segments;

        Items(BatchList<EventRow> rows) {
            super("items", rows, "items", r -> CompletableFuture.completedFuture(""),
                    new Relations(List.of(), List.of(), List.of(), List.of(), List.of(), List.of()));
            screen().textColumn("Name", EventRow::name, 120);
            segments = segments(0, new Segment<>(all, r -> true), new Segment<>(warnings, EventRow::warning),
                    new Segment<>(normal, r -> !r.warning()));
        }

        TableView<EventRow> table() {
            return screen().table();
        }
    }

    private final BatchList<EventRow> rows = new BatchList<>();
    private Items screen;

    @Start
    void start(Stage stage) {
        rows.addAll(List.of(event("a", "Normal"), event("b", "Warning"), event("c", "Normal"), event("d", "Warning")));
        screen = new Items(rows);
        stage.setScene(new Scene(new StackPane(screen.root()), 800, 600));
        stage.show();
    }

    @Test
    void theSegmentsSitNextToTheFilterAsPillsAndStartOnTheOneListingEveryRow() {
        assertThat(fx(() -> screen.segments.getParent().getChildrenUnmodifiable().indexOf(screen.segments))).isEqualTo(1);
        assertThat(fx(() -> screen.segments.getParent().getChildrenUnmodifiable().getFirst().getId())).isEqualTo("itemsFilter");
        assertThat(screen.all.getStyleClass()).contains(Styles.LEFT_PILL);
        assertThat(screen.warnings.getStyleClass()).contains(Styles.CENTER_PILL);
        assertThat(screen.normal.getStyleClass()).contains(Styles.RIGHT_PILL);
        assertThat(fx(() -> screen.all.isSelected())).isTrue();
        assertThat(shown()).containsExactly("a", "b", "c", "d");
    }

    @Test
    void aSegmentNarrowsTheTableAndOneIsAlwaysChosen() {
        fx(() -> {
            screen.warnings.setSelected(true);
            return null;
        });
        assertThat(shown()).containsExactly("b", "d");

        fx(() -> {
            screen.warnings.setSelected(false); // clicking the chosen toggle again
            return null;
        });
        assertThat(fx(() -> screen.warnings.isSelected())).isTrue();
        assertThat(shown()).containsExactly("b", "d");

        fx(() -> {
            screen.normal.setSelected(true);
            return null;
        });
        assertThat(shown()).containsExactly("a", "c");
        fx(() -> {
            screen.all.setSelected(true);
            return null;
        });
        assertThat(shown()).containsExactly("a", "b", "c", "d");
    }

    @Test
    void revealSelectsTheObjectsRowAndFocusFilterFocusesTheFilterBox() {
        fx(() -> {
            ((TextField) screen.root().lookup("#itemsFilter")).setText("node/a");
            return null;
        });
        assertThat(shown()).containsExactly("a");
        assertThat(fx(() -> screen.reveal(new ObjectRef(ObjectRef.Kind.EVENT, "ns", "c")))).isTrue();
        assertThat(fx(() -> screen.table().getSelectionModel().getSelectedItem().name())).isEqualTo("c");
        assertThat(shown()).containsExactly("a", "b", "c", "d"); // the filter that hid it is cleared
        assertThat(fx(() -> screen.reveal(new ObjectRef(ObjectRef.Kind.EVENT, "ns", "zz")))).isFalse();

        fx(() -> {
            screen.focusFilter();
            return null;
        });
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(fx(() -> screen.root().getScene().getFocusOwner().getId())).isEqualTo("itemsFilter");
    }

    private static EventRow event(String name, String type) {
        return new EventRow("ns", name, Instant.EPOCH, type, "Reason", "Node/" + name, "", 1, "test");
    }

    private List<String> shown() {
        return fx(() -> screen.table().getItems().stream().map(EventRow::name).toList());
    }

    private static <T> T fx(Callable<T> call) {
        try {
            return WaitForAsyncUtils.asyncFx(call).get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
