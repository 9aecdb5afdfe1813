package dev.drainboard.ui.lists;

import atlantafx.base.theme.Styles;
import dev.drainboard.ui.common.TableScreen;
import dev.drainboard.ui.dialogs.ActionSet;
import dev.drainboard.ui.model.ClusterModel;
import dev.drainboard.ui.model.ObjectRef;
import dev.drainboard.ui.model.Relations;
import dev.drainboard.ui.model.Row;
import dev.drainboard.ui.shell.ConsoleView;
import javafx.collections.ObservableList;
import javafx.scene.Node;
import javafx.scene.control.TableView;
import javafx.scene.control.ToggleButton;
import javafx.scene.control.ToggleGroup;
import javafx.scene.layout.HBox;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * A console screen that is one live table of {@link ClusterModel} rows: the table with its filter box, row count,
 * sorting, details pane and related links ({@link TableScreen}), and what the shell asks of a screen (reveal an
 * object, focus the filter). A concrete screen declares only what is its own: columns, facts, row styles, actions.
 */
public abstract class ListScreen<R extends Row> implements ConsoleView {

    private final TableScreen<R> screen;

    /**
     * @param id   the table's node id (the filter box's is {@code id + "Filter"})
     * @param noun what the rows are, plural: the empty table's placeholder, the filter's prompt and the row count
     */
    protected ListScreen(ClusterModel model, String id, ObservableList<R> rows, String noun) {
        this(id, rows, noun, model::yaml, model.relations());
        scopeTo(screen, model.namespaceScope());
    }

    /** The rows of the chosen namespace (all while none is chosen), as a live list. */
    protected static <R extends Row> javafx.collections.transformation.FilteredList<R> inScope(
            ObservableList<R> rows, javafx.beans.value.ObservableStringValue namespace) {
        var scoped = new javafx.collections.transformation.FilteredList<>(rows);
        scoped.predicateProperty().bind(javafx.beans.binding.Bindings.createObjectBinding(
                () -> inNamespace(namespace.get()), namespace));
        return scoped;
    }

    private static <R extends Row> java.util.function.Predicate<R> inNamespace(String chosen) {
        if (chosen == null || chosen.isEmpty()) {
            return r -> true;
        }
        return r -> {
            String ns = r.ref().namespace();
            return ns == null || ns.isEmpty() || ns.equals(chosen);
        };
    }

    /** Rows of other namespaces than the chosen one are left out; rows of no namespace (nodes) always stay. */
    static <R extends Row> void scopeTo(TableScreen<R> screen, javafx.beans.value.ObservableStringValue namespace) {
        screen.scopeProperty().bind(javafx.beans.binding.Bindings.createObjectBinding(
                () -> inNamespace(namespace.get()), namespace));
    }

    /** Over rows that need no live model (tests): {@code yaml} and {@code relations} fill the details pane. */
    protected ListScreen(String id, ObservableList<R> rows, String noun,
                         Function<ObjectRef, CompletableFuture<String>> yaml, Relations relations) {
        screen = new TableScreen<>(id, rows, noun, yaml);
        screen.setRelations(relations);
    }

    /** The table, for the concrete screen's columns, facts and row styles. */
    protected final TableScreen<R> screen() {
        return screen;
    }

    /** Toolbar buttons and single-key shortcuts for these actions on the selected rows. */
    protected final void offer(ActionSet<R> actions) {
        TableView<R> table = screen.table();
        ObservableList<R> selection = table.getSelectionModel().getSelectedItems();
        screen.actions().getChildren().add(actions.toolbar(selection));
        actions.installKeys(table, selection);
    }

    /** The same actions in a context menu on the selected rows (none while nothing is selected). */
    protected final void offerInContextMenu(ActionSet<R> actions) {
        offerInContextMenu(actions::menu);
    }

    /** A context menu made for the selected rows (none while nothing is selected). */
    protected final void offerInContextMenu(Function<List<R>, javafx.scene.control.ContextMenu> menu) {
        TableView<R> table = screen.table();
        ObservableList<R> selection = table.getSelectionModel().getSelectedItems();
        table.setOnContextMenuRequested(e -> {
            if (!selection.isEmpty()) {
                menu.apply(List.copyOf(selection)).show(table, e.getScreenX(), e.getScreenY());
            }
        });
    }

    /** A toggle of {@link #segments}: while it is chosen, the table lists the rows {@code rows} admits. */
    public record Segment<R>(ToggleButton button, Predicate<R> rows) {
    }

    /**
     * Pill toggles next to the filter box that narrow the table to a kind of row (warnings, in flight, …). One is
     * always chosen: {@code chosen} at the start, which must be the one that lists every row (the table starts
     * unfiltered).
     */
    @SafeVarargs
    protected final HBox segments(int chosen, Segment<R>... segments) {
        ToggleGroup group = new ToggleGroup();
        HBox box = new HBox();
        for (int i = 0; i < segments.length; i++) {
            ToggleButton button = segments[i].button();
            button.getStyleClass().add(i == 0 ? Styles.LEFT_PILL
                    : i == segments.length - 1 ? Styles.RIGHT_PILL : Styles.CENTER_PILL);
            button.setToggleGroup(group);
            box.getChildren().add(button);
        }
        segments[chosen].button().setSelected(true);
        group.selectedToggleProperty().addListener((obs, old, now) -> {
            if (now == null) {
                old.setSelected(true); // a click on the chosen toggle would leave none chosen
            } else {
                for (Segment<R> segment : segments) {
                    if (segment.button() == now) {
                        screen.extraFilterProperty().set(segment.rows());
                    }
                }
            }
        });
        screen.toolbar().getChildren().add(1, box);
        return box;
    }

    @Override
    public Node root() {
        return screen.root();
    }

    @Override
    public boolean reveal(ObjectRef ref) {
        return screen.reveal(ref);
    }

    @Override
    public void focusFilter() {
        screen.filterField().requestFocus();
    }
}
