package dev.drainboard.ui.common;

import atlantafx.base.controls.CustomTextField;
import atlantafx.base.theme.Styles;
import atlantafx.base.theme.Tweaks;
import dev.drainboard.ui.model.ObjectRef;
import dev.drainboard.ui.model.Row;
import javafx.application.Platform;
import javafx.beans.binding.Bindings;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.SimpleObjectProperty;
import javafx.collections.ListChangeListener;
import javafx.collections.ObservableList;
import javafx.collections.transformation.FilteredList;
import javafx.geometry.Insets;
import javafx.geometry.Orientation;
import javafx.geometry.Pos;
import javafx.scene.Node;
import javafx.scene.control.Label;
import javafx.scene.control.SplitPane;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableRow;
import javafx.scene.control.TableView;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import org.kordamp.ikonli.material2.Material2MZ;

import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * A live table of rows with what every table screen has: a filter box, a row count, a slot for the screen's
 * actions, sorting by any column, and a details pane (facts + YAML) for the selected row.
 */
public final class TableScreen<R extends Row> {

    private final TableView<R> table = new TableView<>();
    private final ObservableList<R> source;
    private final FilteredList<R> filtered;
    /** Each row's lower-cased search text, made once per row object (rows are immutable; an update is a new row). */
    private final Map<R, String> searchTexts = new IdentityHashMap<>();
    private static final int WARM_UP_ROWS = 1_000;
    private boolean warmingUp;
    private boolean rowHeightFixed;
    private final CustomTextField filter = new CustomTextField();
    private final HBox actions = new HBox(8);
    private final HBox toolbar;
    private final Label count = new Label();
    private final DetailsPane details;
    private final SplitPane split;
    private final BorderPane root = new BorderPane();
    private final ObjectProperty<Predicate<R>> extraFilter = new SimpleObjectProperty<>(r -> true);
    private final ObjectProperty<Predicate<R>> scope = new SimpleObjectProperty<>(r -> true);
    private final ReadOnlyObjectWrapper<R> selected = new ReadOnlyObjectWrapper<>();
    private Function<R, List<Map.Entry<String, String>>> facts = r -> List.of();
    private Function<R, String> rowStyle = r -> null;
    private boolean replacing;
    private boolean sourceChanging;
    private ObjectRef lost;
    /** The selected objects, by reference: live updates replace row objects, the table drops those from its selection. */
    private final java.util.Set<ObjectRef> keptSelection = new java.util.LinkedHashSet<>();

    public TableScreen(String id, ObservableList<R> source, String noun,
                       Function<ObjectRef, CompletableFuture<String>> yamlSource) {
        this.source = source;
        // Registered before the sorted list's own listener, so it runs first on every change of the source:
        // the selection changes the table makes during it are not the operator's.
        source.addListener((ListChangeListener<R>) change -> {
            sourceChanging = true;
            replacing = !keptSelection.isEmpty();
            while (change.next()) {
                if (change.wasRemoved()) {
                    change.getRemoved().forEach(searchTexts::remove);
                }
                if (change.getAddedSize() >= WARM_UP_ROWS) {
                    warmUpSearchTexts();
                }
            }
        });
        if (source.size() >= WARM_UP_ROWS) {
            warmUpSearchTexts();
        }
        // Sorted first, then filtered: a new filter only tests each row (the order stays), it does not re-sort.
        LiveSortedList<R> sorted = new LiveSortedList<>(source, TableScreen::byName);
        filtered = new FilteredList<>(sorted);
        // Always a total order (the column's, then namespace and name): a row whose sort key did not change stays
        // where it is on a live update, instead of hopping among its equals (which the operator would see as rows
        // reshuffling, and the table as rows moving). The table's own sort policy would refuse a comparator it did
        // not set, so the sorted list is trusted to do the sorting.
        Comparator<R> byName = TableScreen::byName;
        sorted.comparatorProperty().bind(Bindings.createObjectBinding(
                () -> table.getComparator() != null ? table.getComparator().thenComparing(byName) : byName,
                table.comparatorProperty()));
        table.setSortPolicy(t -> true);
        // Live updates of rows that stay in place reach the table as "updated": it re-reads the rows it shows
        // instead of rebuilding them all (see InPlaceUpdates). Selected and focused rows keep the "replaced" path:
        // the selection and focus models follow only that one to the new row object.
        table.setItems(new InPlaceUpdates<>(filtered,
                r -> keptSelection.contains(r.ref()) || r == table.getFocusModel().getFocusedItem()));
        table.setId(id);
        table.getStyleClass().addAll(Styles.STRIPED, Tweaks.EDGE_TO_EDGE);
        table.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        Label placeholder = new Label("No " + noun + " yet");
        placeholder.getStyleClass().add(Styles.TEXT_MUTED);
        table.setPlaceholder(placeholder);
        table.setRowFactory(t -> new TableRow<>() {
            private String style;

            @Override
            protected void updateItem(R item, boolean empty) {
                super.updateItem(item, empty);
                // Rows are re-indexed on every pulse with live updates: touch the style classes (which re-applies
                // CSS to the row and its cells) only when the row's style really changes.
                String wanted = empty || item == null ? null : rowStyle.apply(item);
                if (!Objects.equals(wanted, style)) {
                    if (style != null) {
                        getStyleClass().remove(style);
                    }
                    if (wanted != null) {
                        getStyleClass().add(wanted);
                    }
                    style = wanted;
                }
            }

            @Override
            protected void layoutChildren() {
                super.layoutChildren();
                if (!rowHeightFixed && !isEmpty() && getHeight() > 0) {
                    fixRowHeight();
                }
            }
        });

        filter.setPromptText("Filter " + noun + "…");
        filter.setLeft(Icons.icon(Material2MZ.SEARCH));
        filter.setPrefWidth(300);
        filter.getStyleClass().add("filter-field");
        filter.setId(id + "Filter");
        filtered.predicateProperty().bind(Bindings.createObjectBinding(() -> {
            String text = filter.getText() == null ? "" : filter.getText().toLowerCase(Locale.ROOT).trim();
            String[] terms = text.isEmpty() ? new String[0] : text.split("\\s+");
            Predicate<R> segment = extraFilter.get();
            Predicate<R> inScope = scope.get();
            Predicate<R> extra = row -> inScope.test(row) && segment.test(row);
            if (terms.length == 0) {
                return extra;
            }
            return row -> {
                if (!extra.test(row)) {
                    return false;
                }
                String searched = searchText(row);
                for (String term : terms) {
                    if (!searched.contains(term)) {
                        return false;
                    }
                }
                return true;
            };
        }, filter.textProperty(), extraFilter, scope));
        count.getStyleClass().addAll(Styles.TEXT_MUTED, "row-count");
        count.textProperty().bind(Bindings.createStringBinding(() -> filtered.size() == source.size()
                ? Formats.count(source.size(), noun)
                : filtered.size() + " of " + Formats.count(source.size(), noun), filtered, source));
        actions.setAlignment(Pos.CENTER_RIGHT);
        Region spacer = new Region();
        HBox.setHgrow(spacer, Priority.ALWAYS);
        toolbar = new HBox(12, filter, count, spacer, actions);
        toolbar.setAlignment(Pos.CENTER_LEFT);
        toolbar.getStyleClass().add("table-toolbar");
        toolbar.setPadding(new Insets(0, 0, 12, 0));

        details = new DetailsPane(yamlSource);
        details.setOnClose(() -> table.getSelectionModel().clearSelection());
        split = new SplitPane(table);
        split.setOrientation(Orientation.HORIZONTAL);
        SplitPane.setResizableWithParent(details, false);
        split.getStyleClass().add("table-split");
        root.setTop(toolbar);
        root.setCenter(split);
        root.getStyleClass().add("table-screen");

        table.getSelectionModel().selectedItemProperty().addListener((obs, old, row) -> {
            if (row != null) {
                R before = selected.get();
                selected.set(row);
                if (before != null && before.ref().equals(row.ref())) {
                    details.refresh(row.ref(), facts.apply(row)); // a live update of the same object
                } else {
                    details.show(row.ref(), facts.apply(row));
                }
                if (!split.getItems().contains(details)) {
                    split.getItems().add(details);
                    split.setDividerPositions(0.64);
                }
            } else if (sourceChanging && selected.get() != null) {
                // The sorted list turned a live update into remove + add and the table dropped the selection;
                // the listener below selects the new row once the change has gone through.
                lost = selected.get().ref();
            } else if (!isReplacing()) {
                selected.set(null);
                split.getItems().remove(details);
                details.clear();
            }
        });
        // A live update replaces row objects, and the table drops replaced rows from its selection: remember the
        // selected objects by reference and select their new rows (several, in a multiple-selection table).
        table.getSelectionModel().getSelectedItems().addListener((ListChangeListener<R>) c -> {
            if (!replacing && !sourceChanging) {
                keptSelection.clear();
                table.getSelectionModel().getSelectedItems().forEach(r -> {
                    if (r != null) {
                        keptSelection.add(r.ref());
                    }
                });
            }
        });
        source.addListener((ListChangeListener<R>) change -> {
            sourceChanging = false;
            try {
                if (lost != null) {
                    ObjectRef ref = lost;
                    lost = null;
                    R now = find(ref);
                    if (now != null) {
                        reselect(now);
                    } else {
                        keptSelection.remove(ref);
                        selected.set(null); // the object is gone
                        split.getItems().remove(details);
                        details.clear();
                    }
                } else if (selected.get() != null) {
                    R current = selected.get();
                    reselectReplaced:
                    while (change.next()) {
                        if (change.wasAdded()) {
                            for (R added : change.getAddedSubList()) {
                                if (added.ref().equals(current.ref()) && added != current) {
                                    reselect(added);
                                    break reselectReplaced;
                                }
                            }
                        }
                    }
                }
                restoreOtherSelected();
            } finally {
                replacing = false;
            }
        });
    }

    /** In a multiple selection, the rows besides the primary one that the update replaced are selected again. */
    private void restoreOtherSelected() {
        if (keptSelection.size() < 2) {
            return;
        }
        replacing = true;
        R primary = selected.get();
        for (R row : table.getItems()) {
            if (row != primary && keptSelection.contains(row.ref()) && !table.getSelectionModel().getSelectedItems().contains(row)) {
                table.getSelectionModel().select(row);
            }
        }
        if (primary != null && table.getSelectionModel().getSelectedItem() != primary) {
            table.getSelectionModel().select(primary); // selected last, so it is the focused row again
        }
    }

    private void reselect(R row) {
        replacing = true;
        try {
            table.getSelectionModel().select(row);
        } finally {
            replacing = false;
        }
        if (selected.get() != row) { // the table kept its selection index: say so anyway
            selected.set(row);
            details.refresh(row.ref(), facts.apply(row));
        }
    }

    private boolean isReplacing() {
        return replacing;
    }

    /**
     * Kubernetes names and states are ASCII: plain string order (case-insensitive) sorts them as an operator
     * expects, at a fraction of the cost of the default locale collator (which dominated sorting 10,000 rows).
     */
    private static final Comparator<String> TEXT_ORDER =
            Comparator.nullsFirst(String.CASE_INSENSITIVE_ORDER.thenComparing(Comparator.naturalOrder()));

    /** Adds a text column; {@code value} must be cheap (it runs per visible cell). */
    public TableColumn<R, String> textColumn(String title, Function<R, String> value, double width) {
        TableColumn<R, String> column = new TableColumn<>(title);
        column.setCellValueFactory(c -> new ReadOnlyObjectWrapper<>(value.apply(c.getValue())));
        column.setComparator(TEXT_ORDER);
        return column(column, width);
    }

    /**
     * Adds a column (also one made elsewhere). Columns never shrink below their width (the table scrolls instead);
     * the last one takes what is left.
     */
    public <T> TableColumn<R, T> column(TableColumn<R, T> column, double width) {
        // Never narrower than its header (bold) with the sort arrow: a header cut to "Last s…" names nothing.
        width = Math.max(width, headerWidth(column.getText()));
        column.setPrefWidth(width);
        column.setMinWidth(width);
        table.getColumns().add(column);
        return column;
    }

    /** The width a header needs: its text in bold, the cell's padding and the sort arrow. */
    static double headerWidth(String title) {
        if (title == null || title.isEmpty()) {
            return 0;
        }
        javafx.scene.text.Text text = new javafx.scene.text.Text(title);
        javafx.scene.text.Font font = javafx.scene.text.Font.getDefault();
        text.setFont(javafx.scene.text.Font.font(font.getFamily(), javafx.scene.text.FontWeight.BOLD, Math.max(14, font.getSize())));
        return Math.ceil(text.getLayoutBounds().getWidth()) + 34;
    }

    /** A column whose cells draw the whole row (a progress bar, a countdown), sorted by {@code order}. */
    public TableColumn<R, R> rowColumn(String title, Supplier<TableCell<R, R>> cells, Comparator<R> order, double width) {
        TableColumn<R, R> column = new TableColumn<>(title);
        column.setCellValueFactory(c -> new ReadOnlyObjectWrapper<>(c.getValue()));
        column.setCellFactory(c -> cells.get());
        column.setComparator(order);
        return column(column, width);
    }

    /** A column sorted by a number but shown as text. */
    public TableColumn<R, Long> numberColumn(String title, Function<R, Long> value, Function<Long, String> text, double width) {
        TableColumn<R, Long> column = new TableColumn<>(title);
        column.setCellValueFactory(c -> new ReadOnlyObjectWrapper<>(value.apply(c.getValue())));
        column.setCellFactory(c -> new TableCell<>() {
            @Override
            protected void updateItem(Long item, boolean empty) {
                super.updateItem(item, empty);
                setText(empty || item == null ? null : text.apply(item));
            }
        });
        column.getStyleClass().add(Tweaks.ALIGN_RIGHT);
        return column(column, width);
    }

    /** A column whose cells are badges; {@code tone} picks the colour from the text. */
    public TableColumn<R, String> badgeColumn(String title, Function<R, String> value, Function<String, Badge.Tone> tone,
                                              double width) {
        TableColumn<R, String> column = new TableColumn<>(title);
        column.setCellValueFactory(c -> new ReadOnlyObjectWrapper<>(value.apply(c.getValue())));
        column.setCellFactory(c -> new TableCell<>() {
            private final Label badge = Badge.of("", Badge.Tone.NEUTRAL);
            private Badge.Tone shownTone = Badge.Tone.NEUTRAL;

            @Override
            protected void updateItem(String item, boolean empty) {
                super.updateItem(item, empty);
                // Only what changed is touched: a new style class re-applies CSS, the costliest part of a pulse
                // in a table that updates live.
                boolean show = !empty && item != null && !item.isEmpty();
                if (show) {
                    badge.setText(item);
                    Badge.Tone t = tone.apply(item);
                    if (t != shownTone) {
                        Badge.style(badge, t);
                        shownTone = t;
                    }
                }
                // The badge stays the cell's graphic and is hidden when empty: swapping graphics rebuilds the
                // cell's children and re-applies their CSS.
                badge.setVisible(show);
                if (getGraphic() != badge) {
                    setGraphic(badge);
                }
                if (getText() != null) {
                    setText(null);
                }
            }
        });
        column.setComparator(TEXT_ORDER);
        return column(column, width);
    }

    /** What the details pane lists for a row. */
    public void setFacts(Function<R, List<Map.Entry<String, String>>> facts) {
        this.facts = facts;
    }

    /** Where the details pane's "Related" links come from ({@code model.relations()}). */
    public void setRelations(dev.drainboard.ui.model.Relations relations) {
        details.setRelations(relations);
    }

    /** A style class per row ({@code row-warning}, {@code row-danger}, …) or null. */
    public void setRowStyle(Function<R, String> rowStyle) {
        this.rowStyle = rowStyle;
    }

    /** A filter besides the text box (a type selector, say). */
    public ObjectProperty<Predicate<R>> extraFilterProperty() {
        return extraFilter;
    }

    /** Which rows are in scope at all (the namespace picker's choice), besides the filter box and the segment. */
    public ObjectProperty<Predicate<R>> scopeProperty() {
        return scope;
    }

    /** Where the screen puts its action buttons (cordon, drain, … arrive here). */
    public HBox actions() {
        return actions;
    }

    /** The toolbar, for screens that add a control next to the filter. */
    public HBox toolbar() {
        return toolbar;
    }

    public TableView<R> table() {
        return table;
    }

    public CustomTextField filterField() {
        return filter;
    }

    public DetailsPane details() {
        return details;
    }

    public ReadOnlyObjectWrapper<R> selectedRow() {
        return selected;
    }

    public Node root() {
        return root;
    }

    /** Selects the row of this object (clearing a filter that hides it); false when there is no such row. */
    public boolean reveal(ObjectRef ref) {
        R row = find(ref);
        if (row == null) {
            return false;
        }
        if (!table.getItems().contains(row)) {
            filter.clear();
        }
        table.getSelectionModel().clearSelection();
        table.getSelectionModel().select(row);
        table.scrollTo(row);
        table.requestFocus();
        return true;
    }

    /**
     * Gives the table a fixed row height: the height its rows have once styled (all one line, badges included).
     * Without one, the table's virtual flow keeps estimating its content height by measuring more rows on every
     * layout (each measurement fills, styles and lays out a whole row): with 10,000 rows that was a third of every
     * pulse. Measured rather than set in CSS, so fonts of any size keep their natural row height.
     */
    private void fixRowHeight() {
        rowHeightFixed = true;
        Platform.runLater(() -> {
            double height = table.lookupAll(".table-row-cell").stream()
                    .filter(n -> n instanceof TableRow<?> row && !row.isEmpty() && row.getTableView() == table)
                    .mapToDouble(n -> ((TableRow<?>) n).getHeight())
                    .max().orElse(0);
            if (height > 0) {
                table.setFixedCellSize(height);
            } else {
                rowHeightFixed = false; // measure again at the next layout
            }
        });
    }

    private static int byName(Row a, Row b) {
        ObjectRef x = a.ref();
        ObjectRef y = b.ref();
        int c = x.namespace().compareTo(y.namespace());
        return c != 0 ? c : x.name().compareTo(y.name());
    }

    /**
     * After a large fill (the first list, a re-list), the rows' search texts are made on a background thread, so
     * the first filter typed does not make 10,000 of them on the FX thread. Rows are immutable: reading them off the
     * FX thread is safe; only rows still listed when the texts arrive are kept.
     */
    private void warmUpSearchTexts() {
        if (warmingUp) {
            return;
        }
        warmingUp = true;
        List<R> rows = List.copyOf(source);
        Thread.ofVirtual().name("search-texts").start(() -> {
            Map<R, String> texts = new IdentityHashMap<>(rows.size() * 2);
            for (R row : rows) {
                texts.put(row, row.searchText().toLowerCase(Locale.ROOT));
            }
            Platform.runLater(() -> {
                warmingUp = false;
                for (R row : source) {
                    String text = texts.get(row);
                    if (text != null) {
                        searchTexts.putIfAbsent(row, text);
                    }
                }
            });
        });
    }

    private String searchText(R row) {
        return searchTexts.computeIfAbsent(row, r -> r.searchText().toLowerCase(Locale.ROOT));
    }

    private R find(ObjectRef ref) {
        for (R r : source) {
            if (r.ref().equals(ref)) {
                return r;
            }
        }
        return null;
    }
}
