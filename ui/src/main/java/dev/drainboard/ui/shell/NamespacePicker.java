package dev.drainboard.ui.shell;

import dev.drainboard.ui.model.ClusterModel;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.HBox;
import javafx.geometry.Pos;

import java.util.ArrayList;
import java.util.List;
import java.util.prefs.Preferences;

/**
 * The shell's namespace picker: all namespaces or one, applied to every namespaced list through
 * {@link ClusterModel#namespaceScope()}, and remembered per cluster (as kubectl's context remembers a namespace) so the
 * next connection to the same cluster opens on it.
 */
public final class NamespacePicker {

    /** The entry that shows every namespace. */
    public static final String ALL = "All namespaces";
    private static final String NODE = "namespace";

    private final ClusterModel model;
    private final Preferences remembered;
    private final String cluster;
    private final ComboBox<String> box = new ComboBox<>();
    private final HBox root;

    /**
     * @param preferences where the choice is remembered (a node per cluster below it)
     * @param cluster     which cluster the choice is for ({@link #clusterKey})
     */
    public NamespacePicker(ClusterModel model, Preferences preferences, String cluster) {
        this.model = model;
        this.remembered = preferences.node(NODE);
        this.cluster = cluster;
        String chosen = remembered.get(cluster, "");
        model.namespaceScope().set(chosen);
        box.setId("namespacePicker");
        box.getStyleClass().add("namespace-picker");
        box.setTooltip(new Tooltip("Which namespace the lists show (Ctrl+Shift+N); the overview's counts cover all"));
        box.setVisibleRowCount(14);
        box.setPrefWidth(220);
        box.setMinWidth(180);
        refreshItems();
        box.setValue(chosen.isEmpty() ? ALL : chosen);
        // The namespaces are read when the list opens: a namespace created since then is there.
        box.setOnShowing(e -> refreshItems());
        box.valueProperty().addListener((obs, old, now) -> {
            if (now != null) {
                choose(ALL.equals(now) ? "" : now);
            }
        });
        Label label = new Label("Namespace");
        label.getStyleClass().add("namespace-label");
        label.setLabelFor(box);
        label.setMinWidth(Label.USE_PREF_SIZE);
        root = new HBox(8, label, box);
        root.setAlignment(Pos.CENTER_RIGHT);
        root.setMinWidth(HBox.USE_PREF_SIZE);
    }

    /** The remembering key of a connection: the kubeconfig's cluster and context ("embedded" for the demo). */
    public static String clusterKey(String cluster, String context) {
        String key = context == null || context.isEmpty() || context.equals(cluster) ? cluster : cluster + "|" + context;
        // Preferences keys are limited to Preferences.MAX_KEY_LENGTH characters.
        return key.length() <= Preferences.MAX_KEY_LENGTH ? key
                : key.substring(0, Preferences.MAX_KEY_LENGTH - 9) + "#" + Integer.toHexString(key.hashCode());
    }

    /** Shows one namespace ("" for all) and remembers it for this cluster. */
    public void choose(String namespace) {
        if (namespace.isEmpty()) {
            remembered.remove(cluster);
        } else {
            remembered.put(cluster, namespace);
        }
        model.namespaceScope().set(namespace);
        String entry = namespace.isEmpty() ? ALL : namespace;
        if (!entry.equals(box.getValue())) {
            if (!box.getItems().contains(entry)) {
                refreshItems();
            }
            box.setValue(entry);
        }
    }

    public javafx.scene.Node root() {
        return root;
    }

    /** Puts the keyboard focus on the picker and opens its list. */
    public void focus() {
        box.requestFocus();
        box.show();
    }

    private void refreshItems() {
        List<String> items = new ArrayList<>();
        items.add(ALL);
        items.addAll(model.namespaces());
        String current = model.namespaceScope().get();
        if (!current.isEmpty() && !items.contains(current)) {
            items.add(current); // remembered, though nothing is in it (yet)
        }
        if (!items.equals(box.getItems())) {
            String value = box.getValue();
            box.getItems().setAll(items);
            box.setValue(value);
        }
    }
}
