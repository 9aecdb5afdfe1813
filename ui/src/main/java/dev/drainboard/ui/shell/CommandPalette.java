package dev.drainboard.ui.shell;

import atlantafx.base.controls.CustomTextField;
import atlantafx.base.theme.Styles;
import dev.drainboard.ui.common.Icons;
import dev.drainboard.ui.model.ClusterModel;
import dev.drainboard.ui.model.NodeRow;
import dev.drainboard.ui.model.ObjectRef;
import dev.drainboard.ui.model.VmiRow;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import javafx.collections.transformation.FilteredList;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.control.ListView;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyEvent;
import javafx.scene.input.MouseButton;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;
import org.kordamp.ikonli.Ikon;
import org.kordamp.ikonli.material2.Material2AL;
import org.kordamp.ikonli.material2.Material2MZ;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Ctrl+K: type part of a name, press Enter, land on it. Lists the views and every node and VMI; actions join the
 * list when they exist.
 */
public final class CommandPalette extends VBox {

    /** One thing the palette can jump to. */
    public record Entry(String title, String detail, Ikon icon, Runnable run) {
        String searchText() {
            return (title + " " + detail).toLowerCase(Locale.ROOT);
        }
    }

    private final CustomTextField field = new CustomTextField();
    private final ObservableList<Entry> entries = FXCollections.observableArrayList();
    private final FilteredList<Entry> filtered = new FilteredList<>(entries);
    private final ListView<Entry> list = new ListView<>(filtered);
    private Runnable onClose = () -> { };

    public CommandPalette() {
        setId("palette");
        getStyleClass().add("command-palette");
        setMaxSize(620, 420);
        setPrefWidth(620);
        field.setId("paletteField");
        field.setPromptText("Jump to a node, VMI or view, or run an action (cordon, drain, taint, evict, scale…)");
        field.setLeft(Icons.icon(Material2MZ.SEARCH, 18));
        field.getStyleClass().add(Styles.LARGE);
        list.setId("paletteList");
        list.setPrefHeight(340);
        list.getStyleClass().add("palette-list");
        list.setCellFactory(l -> new ListCell<>() {
            @Override
            protected void updateItem(Entry item, boolean empty) {
                super.updateItem(item, empty);
                if (empty || item == null) {
                    setGraphic(null);
                    setText(null);
                    return;
                }
                Label title = new Label(item.title());
                title.getStyleClass().add("palette-title");
                Label detail = new Label(item.detail());
                detail.getStyleClass().addAll(Styles.TEXT_MUTED, Styles.TEXT_SMALL);
                Region spacer = new Region();
                HBox.setHgrow(spacer, Priority.ALWAYS);
                HBox row = new HBox(10, Icons.icon(item.icon(), 16), title, spacer, detail);
                row.setAlignment(Pos.CENTER_LEFT);
                setGraphic(row);
                setText(null);
            }
        });
        field.textProperty().addListener((obs, old, text) -> {
            String[] terms = text.toLowerCase(Locale.ROOT).trim().split("\\s+");
            filtered.setPredicate(e -> {
                for (String t : terms) {
                    if (!t.isEmpty() && !e.searchText().contains(t)) {
                        return false;
                    }
                }
                return true;
            });
            list.getSelectionModel().selectFirst();
        });
        field.addEventFilter(KeyEvent.KEY_PRESSED, e -> {
            switch (e.getCode()) {
                case DOWN -> {
                    list.getSelectionModel().selectNext();
                    list.scrollTo(list.getSelectionModel().getSelectedIndex());
                    e.consume();
                }
                case UP -> {
                    list.getSelectionModel().selectPrevious();
                    list.scrollTo(list.getSelectionModel().getSelectedIndex());
                    e.consume();
                }
                case ENTER -> {
                    runSelected();
                    e.consume();
                }
                case ESCAPE -> {
                    onClose.run();
                    e.consume();
                }
                default -> { }
            }
        });
        list.setOnMouseClicked(e -> {
            if (e.getButton() == MouseButton.PRIMARY && e.getClickCount() == 2) {
                runSelected();
            }
        });
        list.setOnKeyPressed(e -> {
            if (e.getCode() == KeyCode.ENTER) {
                runSelected();
            } else if (e.getCode() == KeyCode.ESCAPE) {
                onClose.run();
            }
        });
        Label hint = new Label("↑↓ to choose · Enter to run · Esc to close · keys on a selected table row: "
                + "C cordon · U uncordon · D drain · T taints · E evict · M migrate · X cancel");
        hint.setWrapText(true);
        hint.getStyleClass().addAll(Styles.TEXT_MUTED, Styles.TEXT_SMALL);
        setSpacing(10);
        setPadding(new Insets(14));
        getChildren().addAll(field, list, hint);
    }

    /** Fills the palette from the current model and opens it with an empty query. */
    public void open(ClusterModel model, Navigator navigator, Runnable onClose) {
        open(model, navigator, List.of(), onClose);
    }

    /** As {@link #open(ClusterModel, Navigator, Runnable)}, with actions listed after the objects. */
    public void open(ClusterModel model, Navigator navigator, List<Entry> actions, Runnable onClose) {
        this.onClose = onClose;
        List<Entry> all = new ArrayList<>();
        for (ViewId view : ViewId.values()) {
            all.add(new Entry(view.title(), "View · " + view.shortcutText(), view.icon(), () -> navigator.show(view)));
        }
        for (NodeRow n : model.nodes()) {
            all.add(new Entry(n.name(), "Node · " + n.status(), Material2AL.DNS, () -> navigator.reveal(n.ref())));
        }
        for (VmiRow v : model.vmis()) {
            ObjectRef ref = v.ref();
            all.add(new Entry(v.name(), "VMI · " + v.namespace() + (v.node().isEmpty() ? "" : " · on " + v.node()),
                    Material2AL.COMPUTER, () -> navigator.reveal(ref)));
        }
        all.addAll(actions);
        entries.setAll(all);
        field.clear();
        filtered.setPredicate(e -> true);
        list.getSelectionModel().selectFirst();
        field.requestFocus();
    }

    private void runSelected() {
        Entry entry = list.getSelectionModel().getSelectedItem();
        if (entry == null && !filtered.isEmpty()) {
            entry = filtered.getFirst();
        }
        if (entry != null) {
            onClose.run();
            entry.run().run();
        }
    }

    public CustomTextField field() {
        return field;
    }
}
