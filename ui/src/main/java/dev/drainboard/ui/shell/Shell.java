package dev.drainboard.ui.shell;

import atlantafx.base.controls.ModalPane;
import atlantafx.base.theme.Styles;
import dev.drainboard.ui.common.Icons;
import dev.drainboard.ui.connect.Session;
import dev.drainboard.ui.model.ObjectRef;
import javafx.beans.binding.Bindings;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.Node;
import javafx.scene.Scene;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.ToggleButton;
import javafx.scene.control.ToggleGroup;
import javafx.scene.control.Tooltip;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyCodeCombination;
import javafx.scene.input.KeyCombination;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.StackPane;
import javafx.scene.layout.VBox;
import org.kordamp.ikonli.material2.Material2AL;
import org.kordamp.ikonli.material2.Material2MZ;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The console's frame once connected: navigation on the left, the current view with its header in the middle,
 * the status bar below, and a modal layer for the command palette (and, later, action dialogs).
 */
public final class Shell implements Navigator {

    private final Session session;
    private final Map<ViewId, ConsoleView> views = new EnumMap<>(ViewId.class);
    private final Map<ViewId, ToggleButton> navButtons = new EnumMap<>(ViewId.class);
    private final Function<ViewId, ConsoleView> viewFactory;
    private final StackPane content = new StackPane();
    private final Label title = new Label();
    private final Label subtitle = new Label();
    private final ModalPane modal = new ModalPane();
    private final CommandPalette palette = new CommandPalette();
    private final StackPane root;
    private final HBox viewHeader;
    private final StackPane notices = new StackPane();
    private Supplier<List<CommandPalette.Entry>> paletteActions = List::of;
    private ViewId current;

    /**
     * @param viewFactory makes each view on first visit
     * @param onDisconnect called when the operator asks to disconnect
     */
    public Shell(Session session, ThemeManager theme, Function<ViewId, ConsoleView> viewFactory, Runnable onDisconnect) {
        this.session = session;
        this.viewFactory = viewFactory;

        VBox nav = new VBox(2);
        nav.getStyleClass().add("sidebar");
        nav.setId("navigation");
        Label brand = new Label("Drainboard", Icons.icon(Material2AL.DNS, 20));
        brand.getStyleClass().add("brand");
        Label cluster = new Label(session.info().embedded() ? "Embedded cluster" : session.info().context());
        cluster.getStyleClass().addAll("sidebar-cluster", Styles.TEXT_MUTED);
        VBox header = new VBox(2, brand, cluster);
        header.getStyleClass().add("sidebar-header");
        nav.getChildren().add(header);
        ToggleGroup group = new ToggleGroup();
        for (ViewId id : ViewId.values()) {
            ToggleButton button = new ToggleButton(id.title(), Icons.icon(id.icon(), 18));
            button.setId("nav-" + id.name().toLowerCase(java.util.Locale.ROOT));
            button.getStyleClass().add("nav-button");
            button.setToggleGroup(group);
            button.setMaxWidth(Double.MAX_VALUE);
            button.setAlignment(Pos.CENTER_LEFT);
            button.setOnAction(e -> show(id));
            button.setTooltip(new Tooltip(id.subtitle() + "  (" + id.shortcutText() + ")"));
            navButtons.put(id, button);
            nav.getChildren().add(button);
        }
        // Keep one view selected: clicking the selected button must not leave the group empty.
        group.selectedToggleProperty().addListener((obs, old, now) -> {
            if (now == null && old != null) {
                old.setSelected(true);
            }
        });
        Region grow = new Region();
        VBox.setVgrow(grow, Priority.ALWAYS);
        Button search = sidebarButton("Search", Icons.icon(Material2MZ.SEARCH, 18), "Jump to anything (Ctrl+K)");
        search.setId("openPalette");
        search.setOnAction(e -> openPalette());
        Button themeToggle = sidebarButton("", null, "Switch light/dark theme (Ctrl+Shift+T)");
        themeToggle.setId("themeToggle");
        themeToggle.textProperty().bind(Bindings.when(theme.darkProperty()).then("Light theme").otherwise("Dark theme"));
        themeToggle.graphicProperty().bind(Bindings.createObjectBinding(() -> Icons.icon(
                theme.isDark() ? Material2MZ.WB_SUNNY : Material2MZ.NIGHTS_STAY, 18), theme.darkProperty()));
        themeToggle.setOnAction(e -> theme.toggle());
        Button disconnect = sidebarButton("Disconnect", Icons.icon(Material2AL.LINK_OFF, 18), "Close this connection and go back to the start screen");
        disconnect.setId("disconnect");
        disconnect.setOnAction(e -> onDisconnect.run());
        nav.getChildren().addAll(grow, search, themeToggle, disconnect);

        title.getStyleClass().add("view-title");
        title.setId("viewTitle");
        subtitle.getStyleClass().addAll("view-subtitle", Styles.TEXT_MUTED);
        VBox heading = new VBox(2, title, subtitle);
        HBox.setHgrow(heading, Priority.ALWAYS);
        viewHeader = new HBox(16, heading);
        viewHeader.setAlignment(Pos.CENTER_LEFT);
        viewHeader.getStyleClass().add("view-header");
        content.getStyleClass().add("view-content");
        BorderPane main = new BorderPane(content);
        main.setTop(viewHeader);
        main.getStyleClass().add("main-area");

        BorderPane frame = new BorderPane(main);
        frame.setLeft(nav);
        StatusBar statusBar = new StatusBar(session.info(), session.model().connectionState(), session.model().reconnectReason(),
                session.controlPlaneStatus().leadership());
        statusBar.showKubeVirtProfile(session.model().kubeVirtSettings());
        frame.setBottom(new VBox(notices, statusBar));
        frame.getStyleClass().add("shell");

        modal.setId("modalPane");
        modal.setAlignment(Pos.TOP_CENTER);
        palette.setTranslateY(90);
        root = new StackPane(frame, modal);
        root.getStyleClass().add("shell-root");
        // Links anywhere below (related objects, timeline bars) ask for an object by event.
        root.addEventHandler(dev.drainboard.ui.common.RevealRequest.REVEAL, e -> {
            e.consume();
            reveal(e.ref());
        });
        show(ViewId.OVERVIEW);
    }

    private static Button sidebarButton(String text, Node graphic, String tip) {
        Button b = new Button(text, graphic);
        b.getStyleClass().addAll("nav-button", Styles.FLAT);
        b.setMaxWidth(Double.MAX_VALUE);
        b.setAlignment(Pos.CENTER_LEFT);
        b.setTooltip(new Tooltip(tip));
        return b;
    }

    public Node root() {
        return root;
    }

    /** Puts a control at the right of every view's header (the namespace picker). */
    public void addHeaderTool(Node tool) {
        viewHeader.getChildren().add(tool);
    }

    /** Puts the notices (what actions did) between the views and the status bar: they take room, covering nothing. */
    public void setNotices(Node strip) {
        notices.getChildren().setAll(strip);
        notices.managedProperty().bind(strip.managedProperty());
    }

    /** Layers over the views and under the palette: action dialogs, toasts. */
    public void addLayers(List<Node> layers) {
        root.getChildren().addAll(1, layers);
    }

    /** Actions the command palette lists besides views, nodes and VMIs (asked each time it opens). */
    public void setPaletteActions(Supplier<List<CommandPalette.Entry>> actions) {
        this.paletteActions = actions;
    }

    public Session session() {
        return session;
    }

    public ViewId current() {
        return current;
    }

    /** Keyboard shortcuts for this shell; the scene's old ones are replaced. */
    public void installShortcuts(Scene scene, ThemeManager theme) {
        var accelerators = scene.getAccelerators();
        accelerators.clear();
        for (ViewId id : ViewId.values()) {
            accelerators.put(id.keys(), () -> show(id));
        }
        accelerators.put(new KeyCodeCombination(KeyCode.K, KeyCombination.SHORTCUT_DOWN), this::openPalette);
        accelerators.put(new KeyCodeCombination(KeyCode.F, KeyCombination.SHORTCUT_DOWN),
                () -> view(current).focusFilter());
        accelerators.put(new KeyCodeCombination(KeyCode.T, KeyCombination.SHORTCUT_DOWN, KeyCombination.SHIFT_DOWN), theme::toggle);
    }

    @Override
    public void show(ViewId id) {
        ConsoleView view = view(id);
        current = id;
        navButtons.get(id).setSelected(true);
        title.setText(id.title());
        subtitle.setText(id.subtitle());
        content.getChildren().setAll(view.root());
    }

    @Override
    public void reveal(ObjectRef ref) {
        ViewId target = switch (ref.kind()) {
            case NODE -> ViewId.NODES;
            case VM -> ViewId.VMS;
            case VMI, POD -> ViewId.VMIS;
            case VMIM -> ViewId.MIGRATIONS;
            case PDB -> ViewId.PDBS;
            case VMIRS -> ViewId.REPLICA_SETS;
            case EVENT -> ViewId.EVENTS;
            case KUBEVIRT -> ViewId.CONTROLLERS;
            case DRAIN_RECORD -> ViewId.HISTORY;
        };
        show(target);
        view(target).reveal(ref);
    }

    public void openPalette() {
        if (modal.isDisplay()) {
            return;
        }
        modal.show(palette);
        palette.open(session.model(), this, paletteActions.get(), () -> modal.hide(true));
    }

    public boolean paletteOpen() {
        return modal.isDisplay();
    }

    private ConsoleView view(ViewId id) {
        return views.computeIfAbsent(id, viewFactory);
    }
}
