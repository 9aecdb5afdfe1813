package dev.drainboard.ui.overview;

import atlantafx.base.theme.Styles;
import dev.drainboard.ui.dialogs.ActionCenter;
import dev.drainboard.ui.model.ClusterModel;
import dev.drainboard.ui.model.NodeRow;
import dev.drainboard.ui.model.ObjectRef;
import dev.drainboard.ui.shell.ConsoleView;
import dev.drainboard.ui.shell.Navigator;
import dev.drainboard.ui.shell.ViewId;
import dev.drainboard.ui.model.StrandedPodRow;
import dev.drainboard.ui.model.VmiRow;
import javafx.collections.FXCollections;
import javafx.collections.ListChangeListener;
import javafx.collections.ObservableList;
import javafx.geometry.Insets;
import javafx.scene.Node;
import javafx.scene.control.Label;
import javafx.scene.control.ScrollPane;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyEvent;
import javafx.scene.layout.FlowPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;

import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Headline numbers and one tile per node. Tiles are kept by name and updated in place as rows change. Keyboard:
 * Tab or the arrow keys move between tiles, Enter opens the node in the Nodes view, and the node actions' keys
 * (C, U, D, T) act on the focused tile.
 */
public final class OverviewView implements ConsoleView {

    private final ClusterModel model;
    private final Navigator navigator;
    private final FlowPane tiles = new FlowPane(16, 16);
    private final Map<String, NodeTile> tileByName = new HashMap<>();
    private final Label nodesValue = new Label();
    private final Label nodesDetail = new Label();
    private final Label vmisValue = new Label();
    private final Label vmisDetail = new Label();
    private final Label migrationsValue = new Label();
    private final Label migrationsDetail = new Label();
    private final Label pdbsValue = new Label();
    private final Label pdbsDetail = new Label();
    private final Label warningsValue = new Label();
    private final Label warningsDetail = new Label();
    private final ScrollPane root;
    /** The VMIs with nowhere to run (their launcher unschedulable), each in red with the scheduler's reason. */
    private final VBox stranded = new VBox(4);

    private final ActionCenter actions;
    /** The focused tile's node, as the selection the node actions' keys act on (empty or one row). */
    private final ObservableList<NodeRow> focused = FXCollections.observableArrayList();

    public OverviewView(ClusterModel model, Navigator navigator, ActionCenter actions) {
        this.model = model;
        this.navigator = navigator;
        this.actions = actions;
        HBox kpis = new HBox(16,
                kpi("Nodes", nodesValue, nodesDetail, ViewId.NODES),
                kpi("VMIs", vmisValue, vmisDetail, ViewId.VMIS),
                kpi("Migrations", migrationsValue, migrationsDetail, ViewId.MIGRATIONS),
                kpi("PDBs", pdbsValue, pdbsDetail, ViewId.PDBS),
                kpi("Warnings", warningsValue, warningsDetail, ViewId.EVENTS));
        kpis.getStyleClass().add("kpi-row");
        Label nodesHeader = new Label("Nodes");
        nodesHeader.getStyleClass().add("section-label");
        tiles.setId("nodeTiles");
        tiles.setRowValignment(javafx.geometry.VPos.TOP);
        stranded.setId("strandedVmis");
        stranded.getStyleClass().add("stranded-list");
        stranded.setVisible(false);
        stranded.setManaged(false);
        // The tiles and figures here count every namespace, whatever the lists are narrowed to: say so.
        Label scopeNote = new Label();
        scopeNote.setId("overviewScopeNote");
        scopeNote.getStyleClass().addAll(Styles.TEXT_MUTED, Styles.TEXT_SMALL);
        scopeNote.textProperty().bind(javafx.beans.binding.Bindings.createStringBinding(() ->
                model.namespaceScope().get().isEmpty() ? "" : "All namespaces: the lists show only "
                        + model.namespaceScope().get() + ", these counts cover the whole cluster", model.namespaceScope()));
        scopeNote.visibleProperty().bind(scopeNote.textProperty().isNotEmpty());
        HBox nodesHeading = new HBox(12, nodesHeader, scopeNote);
        nodesHeading.setAlignment(javafx.geometry.Pos.BASELINE_LEFT);
        VBox content = new VBox(16, kpis, stranded, nodesHeading, tiles);
        content.setPadding(new Insets(0, 4, 8, 0));
        root = new ScrollPane(content);
        root.setFitToWidth(true);
        root.getStyleClass().add("edge-to-edge");

        tiles.addEventHandler(KeyEvent.KEY_PRESSED, this::moveFocus);
        actions.nodeActions().installKeys(tiles, focused);

        model.nodes().addListener((ListChangeListener<NodeRow>) c -> refresh());
        model.vmis().addListener((ListChangeListener<Object>) c -> {
            refreshNumbers();
            refreshPressure();
        });
        model.migrations().addListener((ListChangeListener<Object>) c -> refreshNumbers());
        model.pdbs().addListener((ListChangeListener<Object>) c -> refreshNumbers());
        model.events().addListener((ListChangeListener<Object>) c -> refreshNumbers());
        model.strandedPods().addListener((ListChangeListener<Object>) c -> refreshNumbers());
        refresh();
    }

    private VBox kpi(String title, Label value, Label detail, ViewId target) {
        Label t = new Label(title);
        t.getStyleClass().addAll("kpi-title", Styles.TEXT_MUTED);
        value.getStyleClass().add("kpi-value");
        detail.getStyleClass().addAll("kpi-detail", Styles.TEXT_MUTED, Styles.TEXT_SMALL);
        VBox box = new VBox(4, t, value, detail);
        box.getStyleClass().add("kpi");
        box.setId("kpi-" + title.toLowerCase(java.util.Locale.ROOT));
        HBox.setHgrow(box, Priority.ALWAYS);
        box.setMaxWidth(Double.MAX_VALUE);
        box.setOnMouseClicked(e -> navigator.show(target));
        return box;
    }

    private void refresh() {
        List<NodeRow> rows = model.nodes().stream().sorted(Comparator.comparing(NodeRow::name)).toList();
        Map<String, NodeTile> keep = new HashMap<>();
        List<Node> ordered = new java.util.ArrayList<>(rows.size());
        for (NodeRow row : rows) {
            NodeTile tile = tileByName.computeIfAbsent(row.name(), n -> {
                NodeTile t = new NodeTile();
                t.setOnMouseClicked(e -> {
                    if (e.getButton() == javafx.scene.input.MouseButton.PRIMARY) {
                        navigator.reveal(ObjectRef.node(n));
                    }
                });
                // Right-click (or the context-menu key on a focused tile): the node actions.
                t.setOnContextMenuRequested(e -> actions.nodeMenu(t.row()).show(t, e.getScreenX(), e.getScreenY()));
                t.focusedProperty().addListener((obs, was, now) -> {
                    if (now) {
                        focused.setAll(t.row());
                        scrollIntoView(t);
                    }
                });
                t.setId("tile-" + n);
                return t;
            });
            tile.show(row);
            if (tile.isFocused() && (focused.isEmpty() || focused.getFirst() != row)) {
                focused.setAll(row); // the actions see the node as it is now
            }
            keep.put(row.name(), tile);
            ordered.add(tile);
        }
        tileByName.keySet().retainAll(keep.keySet());
        if (!tiles.getChildren().equals(ordered)) {
            tiles.getChildren().setAll(ordered);
        }
        refreshNumbers();
        refreshPressure();
    }

    /** Per node: VMIs racing a node-pressure eviction's kill, and VMIs it lost. One pass over the VMIs. */
    private void refreshPressure() {
        Map<String, int[]> counts = new HashMap<>();
        for (VmiRow v : model.vmis()) {
            boolean lost = v.isLostToNodePressure();
            if ((lost || !v.nodePressureDeadline().isEmpty()) && !v.node().isEmpty()) {
                counts.computeIfAbsent(v.node(), n -> new int[2])[lost ? 1 : 0]++;
            }
        }
        tileByName.forEach((name, tile) -> {
            int[] c = counts.getOrDefault(name, NO_PRESSURE);
            tile.showPressure(c[0], c[1]);
        });
    }

    private static final int[] NO_PRESSURE = {0, 0};

    /** Arrow keys, Home and End move between tiles; Enter opens the focused node. */
    private void moveFocus(KeyEvent e) {
        if (e.isShortcutDown() || e.isAltDown() || e.isMetaDown()) {
            return;
        }
        List<Node> children = tiles.getChildren();
        int from = -1;
        for (int i = 0; i < children.size(); i++) {
            if (children.get(i).isFocused()) {
                from = i;
            }
        }
        if (from < 0) {
            return;
        }
        if (e.getCode() == KeyCode.ENTER || e.getCode() == KeyCode.SPACE) {
            e.consume();
            navigator.reveal(ObjectRef.node(((NodeTile) children.get(from)).row().name()));
            return;
        }
        TileGrid.Move move = switch (e.getCode()) {
            case LEFT, KP_LEFT -> TileGrid.Move.LEFT;
            case RIGHT, KP_RIGHT -> TileGrid.Move.RIGHT;
            case UP, KP_UP -> TileGrid.Move.UP;
            case DOWN, KP_DOWN -> TileGrid.Move.DOWN;
            case HOME -> TileGrid.Move.FIRST;
            case END -> TileGrid.Move.LAST;
            default -> null;
        };
        if (move == null) {
            return;
        }
        e.consume();
        List<TileGrid.Spot> spots = children.stream()
                .map(n -> new TileGrid.Spot(n.getLayoutX(), n.getLayoutY(), n.getLayoutBounds().getWidth())).toList();
        int to = TileGrid.next(spots, from, move);
        if (to >= 0 && to != from) {
            children.get(to).requestFocus();
        }
    }

    /** Scrolls the overview so a tile focused from the keyboard is fully visible. */
    private void scrollIntoView(Node tile) {
        Node content = root.getContent();
        double contentHeight = content.getLayoutBounds().getHeight();
        double viewport = root.getViewportBounds().getHeight();
        if (contentHeight <= viewport) {
            return;
        }
        var bounds = content.sceneToLocal(tile.localToScene(tile.getLayoutBounds()));
        double top = root.getVvalue() * (contentHeight - viewport);
        double newTop = top;
        if (bounds.getMinY() < top) {
            newTop = bounds.getMinY() - 8;
        } else if (bounds.getMaxY() > top + viewport) {
            newTop = bounds.getMaxY() - viewport + 8;
        }
        if (newTop != top) {
            root.setVvalue(Math.clamp(newTop / (contentHeight - viewport), 0, 1));
        }
    }

    /** The first tile (or the one last focused) takes the keyboard focus; Ctrl+F calls it here. */
    @Override
    public void focusFilter() {
        NodeTile target = focused.isEmpty() ? null : tileByName.get(focused.getFirst().name());
        if (target == null && !tiles.getChildren().isEmpty()) {
            target = (NodeTile) tiles.getChildren().getFirst();
        }
        if (target != null) {
            target.requestFocus();
        }
    }

    private void refreshNumbers() {
        var nodes = model.nodes();
        long ready = nodes.stream().filter(n -> n.readiness() == NodeRow.Readiness.READY).count();
        long cordoned = nodes.stream().filter(NodeRow::cordoned).count();
        long safe = nodes.stream().filter(n -> n.rebootSafety() == NodeRow.RebootSafety.SAFE).count();
        nodesValue.setText(ready + " / " + nodes.size() + " ready");
        nodesDetail.setText(cordoned + " cordoned · " + safe + " safe to reboot");
        long running = model.vmis().stream().filter(v -> "Running".equals(v.phase())).count();
        long marked = model.vmis().stream().filter(v -> v.markedForEvacuation()).count();
        List<VmiRow> nowhere = model.vmis().stream().filter(v -> !v.waiting().isEmpty())
                .sorted(Comparator.comparing(VmiRow::namespace).thenComparing(VmiRow::name)).toList();
        vmisValue.setText(String.valueOf(model.vmis().size()));
        // Never a healthy-looking line while some have nowhere to run.
        vmisDetail.setText(running + " running · " + (nowhere.isEmpty() ? "" : nowhere.size() + " stranded · ")
                + marked + " marked for evacuation");
        danger(vmisValue, !nowhere.isEmpty());
        danger(vmisDetail, !nowhere.isEmpty());
        showStranded(nowhere, model.strandedPods().stream()
                .sorted(Comparator.comparing(StrandedPodRow::namespace).thenComparing(StrandedPodRow::name)).toList());
        long active = model.migrations().stream()
                .filter(m -> !"Succeeded".equals(m.phase()) && !"Failed".equals(m.phase())).count();
        long failed = model.migrations().stream().filter(m -> "Failed".equals(m.phase())).count();
        migrationsValue.setText(active + " in flight");
        migrationsDetail.setText(model.migrations().size() + " total · " + failed + " failed");
        long blocking = model.pdbs().stream().filter(p -> p.blocking()).count();
        pdbsValue.setText(String.valueOf(model.pdbs().size()));
        pdbsDetail.setText(blocking == 0 ? "none blocking evictions now" : blocking + " blocking evictions now");
        long warnings = model.events().stream().filter(e -> e.warning()).count();
        warningsValue.setText(String.valueOf(warnings));
        warningsDetail.setText("of " + model.events().size() + " events");
        alert(warningsValue, warnings > 0);
    }

    private static void alert(Label label, boolean on) {
        styled(label, "kpi-alert", on);
    }

    private static void danger(Label label, boolean on) {
        styled(label, "kpi-danger", on);
    }

    private static void styled(Label label, String style, boolean on) {
        if (!on) {
            label.getStyleClass().remove(style);
        } else if (!label.getStyleClass().contains(style)) {
            label.getStyleClass().add(style);
        }
    }

    /** One red line per VMI, then per other pod, with nowhere to run, until it runs again. */
    private void showStranded(List<VmiRow> nowhere, List<StrandedPodRow> pods) {
        boolean any = !nowhere.isEmpty() || !pods.isEmpty();
        stranded.setVisible(any);
        stranded.setManaged(any);
        if (!any) {
            stranded.getChildren().clear();
            return;
        }
        Label header = new Label(strandedHeader(nowhere.size(), pods.size()));
        header.getStyleClass().addAll("section-label", Styles.DANGER);
        header.setId("strandedHeader");
        List<Node> lines = new java.util.ArrayList<>();
        lines.add(header);
        for (VmiRow v : nowhere) {
            Label line = new Label(v.namespace() + "/" + v.name() + " (" + (v.phase().isEmpty() ? "Pending" : v.phase()) + "): "
                    + v.waiting());
            line.getStyleClass().addAll("stranded-vmi", Styles.DANGER);
            line.setWrapText(true);
            line.setOnMouseClicked(e -> navigator.show(ViewId.VMIS));
            lines.add(line);
        }
        for (StrandedPodRow p : pods) {
            Label line = new Label(p.namespace() + "/" + p.name() + " (pod, Pending): " + p.reason());
            line.getStyleClass().addAll("stranded-pod", Styles.DANGER);
            line.setWrapText(true);
            lines.add(line);
        }
        stranded.getChildren().setAll(lines);
    }

    /** "1 VMI has nowhere to run", "2 pods have …", "1 VMI and 2 pods have …". */
    static String strandedHeader(int vmis, int pods) {
        String v = vmis == 1 ? "1 VMI" : vmis + " VMIs";
        String p = pods == 1 ? "1 pod" : pods + " pods";
        String who = vmis == 0 ? p : pods == 0 ? v : v + " and " + p;
        boolean one = vmis + pods == 1;
        return who + (one ? " has" : " have") + " nowhere to run";
    }

    @Override
    public Node root() {
        return root;
    }

    @Override
    public boolean reveal(ObjectRef ref) {
        return false;
    }
}
