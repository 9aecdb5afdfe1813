package dev.drainboard.ui.common;

import atlantafx.base.theme.Styles;
import dev.drainboard.ui.model.ObjectRef;
import dev.drainboard.ui.model.RelatedGroup;
import dev.drainboard.ui.model.Relations;
import javafx.application.Platform;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.Hyperlink;
import javafx.scene.control.Label;
import javafx.scene.control.ScrollPane;
import javafx.scene.control.TextArea;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.ColumnConstraints;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;
import org.kordamp.ikonli.material2.Material2AL;

import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * The right-hand pane of a table screen: the selected object's key facts, the objects related to it (links), and
 * its YAML, read-only. The YAML is fetched off the FX thread; a late answer for an object no longer shown is dropped.
 *
 * <p>A related object with a view of its own (node, VMI, VMIM, PDB, replica set) opens that view (a
 * {@link RevealRequest} bubbles up to the shell); one without (a launcher pod, a VM) is shown here in place, with
 * a link back to the selected row.
 */
public final class DetailsPane extends VBox {

    /** Kinds no view lists: their links show them in this pane. */
    private static final Set<ObjectRef.Kind> SHOWN_IN_PLACE = EnumSet.of(ObjectRef.Kind.POD, ObjectRef.Kind.VM);

    private final Function<ObjectRef, CompletableFuture<String>> yamlSource;
    private final Label kind = new Label();
    private final Label title = new Label("Nothing selected");
    private final Hyperlink back = new Hyperlink();
    private final GridPane facts = new GridPane();
    private final Label relatedHeader = new Label("RELATED");
    private final GridPane related = new GridPane();
    private final TextArea yaml = new TextArea();
    private final Label yamlHeader = new Label("YAML");
    private Relations relations;
    private ObjectRef shown;
    /** The selected row's object and facts, while something else is shown in place. */
    private ObjectRef rowRef;
    private List<Map.Entry<String, String>> rowFacts = List.of();
    private Runnable onClose = () -> { };

    public DetailsPane(Function<ObjectRef, CompletableFuture<String>> yamlSource) {
        this.yamlSource = yamlSource;
        getStyleClass().add("details-pane");
        setId("detailsPane");
        kind.getStyleClass().add("details-kind");
        title.getStyleClass().add("details-title");
        title.setWrapText(true);
        grid(facts, "details-facts");
        grid(related, "details-related");
        related.setId("detailsRelated");
        relatedHeader.getStyleClass().add("section-label");
        showRelatedSection(false);
        back.setId("detailsBack");
        back.getStyleClass().add("details-back");
        back.setGraphic(Icons.icon(Material2AL.ARROW_BACK, 14));
        back.setOnAction(e -> {
            if (rowRef != null) {
                show(rowRef, rowFacts);
            }
        });
        showBack(false);
        yaml.setEditable(false);
        yaml.setId("detailsYaml");
        yaml.getStyleClass().add("yaml");
        yaml.setPromptText("Select a row to see its YAML");
        yaml.setMinHeight(120);
        VBox.setVgrow(yaml, Priority.ALWAYS);
        yamlHeader.setId("detailsTextHeader");
        yamlHeader.getStyleClass().add("section-label");

        VBox upper = new VBox(10, facts, relatedHeader, related);
        upper.getStyleClass().add("details-upper");
        ScrollPane scroll = new ScrollPane(upper);
        scroll.setFitToWidth(true);
        scroll.setHbarPolicy(ScrollPane.ScrollBarPolicy.NEVER);
        scroll.getStyleClass().addAll("details-scroll", atlantafx.base.theme.Tweaks.EDGE_TO_EDGE);
        // As tall as its content, but never more than about half the pane: the YAML keeps its room.
        scroll.prefViewportHeightProperty().bind(upper.heightProperty());
        scroll.maxHeightProperty().bind(heightProperty().multiply(0.6));

        setSpacing(10);
        setPadding(new Insets(16));
        setAlignment(Pos.TOP_LEFT);
        Button close = new Button(null, Icons.icon(Material2AL.CLOSE, 16));
        close.getStyleClass().addAll(Styles.BUTTON_ICON, Styles.FLAT);
        close.setId("detailsClose");
        close.setOnAction(e -> onClose.run());
        Region spacer = new Region();
        HBox.setHgrow(spacer, Priority.ALWAYS);
        HBox top = new HBox(kind, spacer, close);
        top.setAlignment(Pos.CENTER_LEFT);
        getChildren().addAll(top, back, title, scroll, yamlHeader, yaml);
        setMinWidth(320);
    }

    /** Names what the text pane shows when it is not the object's YAML (History shows a record's Markdown). */
    public void setTextKind(String heading, String prompt) {
        yamlHeader.setText(heading);
        yaml.setPromptText(prompt);
    }

    private static void grid(GridPane grid, String style) {
        grid.getStyleClass().add(style);
        grid.setHgap(12);
        grid.setVgap(6);
        ColumnConstraints keys = new ColumnConstraints();
        keys.setMinWidth(110);
        keys.setPrefWidth(110);
        ColumnConstraints values = new ColumnConstraints();
        values.setHgrow(Priority.ALWAYS);
        values.setMinWidth(0);
        grid.getColumnConstraints().addAll(keys, values);
    }

    /** Where the "Related" links come from; without it the section stays hidden. */
    public void setRelations(Relations relations) {
        this.relations = relations;
    }

    /** Shows the selected row's object; {@code facts} are label → value pairs in order. */
    public void show(ObjectRef ref, List<Map.Entry<String, String>> factList) {
        rowRef = ref;
        rowFacts = factList;
        showBack(false);
        display(ref, factList);
    }

    /**
     * The selected row changed (a live update): refreshes the pane if it shows that row, and otherwise only
     * remembers the new facts for the way back (an object shown in place stays).
     */
    public void refresh(ObjectRef ref, List<Map.Entry<String, String>> factList) {
        if (!ref.equals(rowRef)) {
            show(ref, factList);
        } else if (ref.equals(shown)) {
            rowFacts = factList;
            display(ref, factList);
        } else {
            rowFacts = factList;
        }
    }

    private void display(ObjectRef ref, List<Map.Entry<String, String>> factList) {
        kind.setText(ref.kind().kubernetesKind().toUpperCase(Locale.ROOT));
        title.setText(ref.key());
        facts.getChildren().clear();
        int row = 0;
        for (Map.Entry<String, String> fact : factList) {
            Label key = new Label(fact.getKey());
            key.getStyleClass().add("fact-key");
            Label value = new Label(Formats.orDash(fact.getValue()));
            value.getStyleClass().add("fact-value");
            value.setWrapText(true);
            facts.addRow(row++, key, value);
        }
        showRelated(ref);
        boolean sameObject = ref.equals(shown);
        shown = ref;
        if (!sameObject) {
            yaml.setText("Loading…");
        }
        yamlSource.apply(ref).whenComplete((text, error) -> Platform.runLater(() -> {
            if (ref.equals(shown)) {
                double scroll = yaml.getScrollTop();
                yaml.setText(error != null ? "# Could not read the object: " + error.getMessage() : text);
                if (sameObject) {
                    yaml.setScrollTop(scroll);
                }
            }
        }));
    }

    private void showRelated(ObjectRef ref) {
        related.getChildren().clear();
        List<RelatedGroup> groups = relations == null ? List.of() : relations.of(ref);
        int row = 0;
        for (RelatedGroup group : groups) {
            Label key = new Label(group.relation());
            key.getStyleClass().add("fact-key");
            VBox links = new VBox(2);
            for (RelatedGroup.Link link : group.links()) {
                links.getChildren().add(linkTo(link, ref));
            }
            if (group.more() > 0) {
                Label more = new Label("and " + group.more() + " more");
                more.getStyleClass().addAll("related-more", Styles.TEXT_MUTED);
                links.getChildren().add(more);
            }
            GridPane.setValignment(key, javafx.geometry.VPos.TOP);
            key.setPadding(new Insets(3, 0, 0, 0));
            related.addRow(row++, key, links);
        }
        showRelatedSection(!groups.isEmpty());
    }

    private HBox linkTo(RelatedGroup.Link link, ObjectRef from) {
        ObjectRef target = link.ref();
        Hyperlink name = new Hyperlink(target.namespace().equals(from.namespace()) ? target.name() : target.key());
        name.getStyleClass().add("related-link");
        name.setUserData(target);
        name.setTooltip(new Tooltip((SHOWN_IN_PLACE.contains(target.kind()) ? "Show " : "Open ") + target));
        name.setOnAction(e -> open(target));
        name.setMinWidth(Region.USE_PREF_SIZE);
        Label note = new Label(link.note());
        note.getStyleClass().addAll("related-note", Styles.TEXT_MUTED);
        note.setMinWidth(0);
        HBox line = new HBox(4, name, note);
        line.setAlignment(Pos.CENTER_LEFT);
        return line;
    }

    /** Follows a related link: in place for kinds without a view, else through the shell. */
    public void open(ObjectRef target) {
        if (SHOWN_IN_PLACE.contains(target.kind())) {
            display(target, relations == null ? List.of() : relations.factsOf(target));
            if (rowRef != null && !rowRef.equals(target)) {
                back.setText("Back to " + rowRef.name());
                showBack(true);
            }
        } else {
            fireEvent(new RevealRequest(target));
        }
    }

    private void showBack(boolean visible) {
        back.setVisible(visible);
        back.setManaged(visible);
    }

    private void showRelatedSection(boolean visible) {
        for (var n : List.of(relatedHeader, related)) {
            n.setVisible(visible);
            n.setManaged(visible);
        }
    }

    public void setOnClose(Runnable onClose) {
        this.onClose = onClose;
    }

    public void clear() {
        shown = null;
        rowRef = null;
        rowFacts = List.of();
        showBack(false);
        kind.setText("");
        title.setText("Nothing selected");
        facts.getChildren().clear();
        related.getChildren().clear();
        showRelatedSection(false);
        yaml.clear();
    }

    public ObjectRef shown() {
        return shown;
    }
}
