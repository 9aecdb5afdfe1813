package dev.drainboard.ui.common;

import dev.drainboard.ui.model.ObjectRef;
import javafx.application.Platform;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import atlantafx.base.theme.Styles;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Region;
import org.kordamp.ikonli.material2.Material2AL;
import javafx.scene.control.TextArea;
import javafx.scene.layout.ColumnConstraints;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * The right-hand pane of a table screen: the selected object's key facts and its YAML, read-only.
 * The YAML is fetched off the FX thread; a late answer for an object no longer selected is dropped.
 */
public final class DetailsPane extends VBox {

    private final Function<ObjectRef, CompletableFuture<String>> yamlSource;
    private final Label kind = new Label();
    private final Label title = new Label("Nothing selected");
    private final GridPane facts = new GridPane();
    private final TextArea yaml = new TextArea();
    private ObjectRef shown;
    private Runnable onClose = () -> { };

    public DetailsPane(Function<ObjectRef, CompletableFuture<String>> yamlSource) {
        this.yamlSource = yamlSource;
        getStyleClass().add("details-pane");
        setId("detailsPane");
        kind.getStyleClass().add("details-kind");
        title.getStyleClass().add("details-title");
        title.setWrapText(true);
        facts.getStyleClass().add("details-facts");
        facts.setHgap(12);
        facts.setVgap(6);
        ColumnConstraints keys = new ColumnConstraints();
        keys.setMinWidth(110);
        ColumnConstraints values = new ColumnConstraints();
        values.setHgrow(Priority.ALWAYS);
        facts.getColumnConstraints().addAll(keys, values);
        yaml.setEditable(false);
        yaml.setId("detailsYaml");
        yaml.getStyleClass().add("yaml");
        yaml.setPromptText("Select a row to see its YAML");
        VBox.setVgrow(yaml, Priority.ALWAYS);
        Label yamlHeader = new Label("YAML");
        yamlHeader.getStyleClass().add("section-label");
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
        getChildren().addAll(top, title, facts, yamlHeader, yaml);
        setMinWidth(320);
    }

    /** Shows an object; {@code facts} are label → value pairs in order. */
    public void show(ObjectRef ref, List<Map.Entry<String, String>> factList) {
        kind.setText(ref.kind().kubernetesKind().toUpperCase(java.util.Locale.ROOT));
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

    public void setOnClose(Runnable onClose) {
        this.onClose = onClose;
    }

    public void clear() {
        shown = null;
        kind.setText("");
        title.setText("Nothing selected");
        facts.getChildren().clear();
        yaml.clear();
    }

    public ObjectRef shown() {
        return shown;
    }
}
