package dev.drainboard.ui.dialogs;

import dev.drainboard.ui.actions.AccessDecision;
import dev.drainboard.ui.actions.Permissions;
import dev.drainboard.ui.common.Icons;
import javafx.collections.ListChangeListener;
import javafx.collections.ObservableList;
import javafx.geometry.Pos;
import javafx.scene.Node;
import javafx.scene.control.ContextMenu;
import javafx.scene.control.MenuItem;
import javafx.scene.input.KeyEvent;
import javafx.scene.layout.HBox;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The actions one kind of row offers (nodes, VMIs, migrations), each with when it applies, the namespace its
 * permission is checked in, and what it does. Binds them to a toolbar, a row's context menu and single-key
 * shortcuts; a disabled action says why.
 */
public final class ActionSet<R> {

    /**
     * @param whyNot    null when the action applies to these rows, else why not (for the tooltip)
     * @param namespace the namespace the permission is checked in ("" for nodes)
     */
    private record Item<R>(ConsoleAction action, Function<List<R>, String> whyNot, Function<List<R>, String> namespace,
                           Consumer<List<R>> run) {
    }

    private final Permissions permissions;
    private final Consumer<String> refused;
    private final List<Item<R>> items = new ArrayList<>();

    /** @param refused shows why a key press did nothing (not allowed, or not applicable) */
    ActionSet(Permissions permissions, Consumer<String> refused) {
        this.permissions = permissions;
        this.refused = refused;
    }

    ActionSet<R> add(ConsoleAction action, Function<List<R>, String> whyNot, Function<List<R>, String> namespace,
                     Consumer<List<R>> run) {
        items.add(new Item<>(action, whyNot, namespace, run));
        return this;
    }

    public List<ConsoleAction> actions() {
        return items.stream().map(Item::action).toList();
    }

    /** Toolbar buttons that follow the selection and the permissions. */
    public HBox toolbar(ObservableList<R> selection) {
        HBox box = new HBox(6);
        box.setAlignment(Pos.CENTER_RIGHT);
        box.getStyleClass().add("action-bar");
        List<ActionButton> buttons = new ArrayList<>();
        for (Item<R> item : items) {
            ActionButton button = new ActionButton(item.action(), () -> trigger(item.action(), List.copyOf(selection)));
            buttons.add(button);
            box.getChildren().add(button);
        }
        Runnable refresh = () -> {
            List<R> rows = List.copyOf(selection);
            for (int i = 0; i < items.size(); i++) {
                Item<R> item = items.get(i);
                String whyNot = item.whyNot().apply(rows);
                AccessDecision access = decision(item, rows);
                buttons.get(i).update(whyNot == null, whyNot, access);
            }
        };
        selection.addListener((ListChangeListener<R>) c -> refresh.run());
        permissions.revision().addListener((obs, o, n) -> refresh.run());
        refresh.run();
        return box;
    }

    /**
     * Single keys (no modifier) on the table: C, U, D, T, E, M, X… on the selected rows. The permissions they need
     * are asked as soon as the selection changes, so a key pressed right after does not meet "Checking permission…"
     * (a table's toolbar does the same; a view without one, the overview, relies on this).
     */
    public void installKeys(Node target, ObservableList<R> selection) {
        prefetch(List.copyOf(selection));
        selection.addListener((ListChangeListener<R>) c -> prefetch(List.copyOf(selection)));
        target.addEventHandler(KeyEvent.KEY_PRESSED, e -> {
            if (e.isShortcutDown() || e.isAltDown() || e.isShiftDown() || e.isMetaDown()) {
                return;
            }
            for (Item<R> item : items) {
                if (item.action().key() == e.getCode()) {
                    e.consume();
                    trigger(item.action(), List.copyOf(selection));
                    return;
                }
            }
        });
    }

    /** A context menu for these rows; actions that do not apply or are not allowed are disabled, with why. */
    public ContextMenu menu(List<R> rows) {
        ContextMenu menu = new ContextMenu();
        menu.getStyleClass().add("action-menu");
        for (Item<R> item : items) {
            String whyNot = item.whyNot().apply(rows);
            AccessDecision access = decision(item, rows);
            MenuItem entry = new MenuItem(item.action().label() + (access.permits() ? "" : " — not allowed"),
                    Icons.icon(item.action().icon(), 16));
            entry.setId("menu-" + item.action().name().toLowerCase(java.util.Locale.ROOT).replace('_', '-'));
            entry.setDisable(whyNot != null || !access.permits());
            entry.setOnAction(e -> trigger(item.action(), rows));
            menu.getItems().add(entry);
        }
        return menu;
    }

    /**
     * The actions that apply to these rows and are not forbidden (for the command palette). An action whose
     * permission is still being checked (the first time its namespace comes up) is listed: running it checks again.
     */
    public List<ConsoleAction> available(List<R> rows) {
        return items.stream().filter(i -> {
            if (i.whyNot().apply(rows) != null) {
                return false;
            }
            AccessDecision access = decision(i, rows);
            return access.permits() || access.state() == AccessDecision.State.CHECKING;
        }).map(Item::action).toList();
    }

    /** Runs an action on rows if it applies and is allowed; otherwise says why. */
    public boolean trigger(ConsoleAction action, List<R> rows) {
        for (Item<R> item : items) {
            if (item.action() != action) {
                continue;
            }
            AccessDecision access = decision(item, rows);
            if (access.state() == AccessDecision.State.CHECKING) {
                // The API server's answer is on its way (the first action in a namespace): act on it when it comes.
                whenChecked(item, rows, () -> trigger(action, rows));
                return false;
            }
            if (!access.permits()) {
                refused.accept(access.reason());
                return false;
            }
            String whyNot = item.whyNot().apply(rows);
            if (whyNot != null) {
                refused.accept(item.action().label().replace("…", "") + ": " + whyNot);
                return false;
            }
            item.run().accept(rows);
            return true;
        }
        return false;
    }

    private void whenChecked(Item<R> item, List<R> rows, Runnable then) {
        javafx.beans.value.ChangeListener<Number> listener = new javafx.beans.value.ChangeListener<>() {
            @Override
            public void changed(javafx.beans.value.ObservableValue<? extends Number> obs, Number was, Number now) {
                if (decision(item, rows).state() != AccessDecision.State.CHECKING) {
                    permissions.revision().removeListener(this);
                    then.run();
                }
            }
        };
        permissions.revision().addListener(listener);
    }

    /** Starts the permission reviews these rows' actions need (answers are cached per connection). */
    public void prefetch(List<R> rows) {
        items.forEach(item -> decision(item, rows));
    }

    private AccessDecision decision(Item<R> item, List<R> rows) {
        return permissions.now(item.action().checks(item.namespace().apply(rows)));
    }
}
