package dev.drainboard.ui.start;

import atlantafx.base.controls.CustomTextField;
import atlantafx.base.theme.Styles;
import dev.drainboard.controlplane.WebhookAddress;
import dev.drainboard.ui.common.Icons;
import dev.drainboard.ui.connect.ConnectError;
import dev.drainboard.ui.connect.ConnectTarget;
import dev.drainboard.ui.connect.Connector;
import dev.drainboard.ui.connect.KubeContext;
import dev.drainboard.ui.connect.KubeconfigSource;
import dev.drainboard.ui.connect.ModeChoice;
import javafx.beans.binding.Bindings;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import javafx.collections.transformation.FilteredList;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.control.ListView;
import javafx.scene.control.ProgressIndicator;
import javafx.scene.control.RadioButton;
import javafx.scene.control.ScrollPane;
import javafx.scene.control.TextField;
import javafx.scene.control.ToggleButton;
import javafx.scene.control.ToggleGroup;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.StackPane;
import javafx.scene.layout.VBox;
import javafx.stage.DirectoryChooser;
import javafx.stage.FileChooser;
import org.kordamp.ikonli.material2.Material2AL;
import org.kordamp.ikonli.material2.Material2MZ;

import java.io.File;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The start screen: pick a kubeconfig context or the embedded cluster, choose the mode, connect. It shows the
 * connection's progress and, when it fails, what went wrong and what can be done, plainly.
 */
public final class StartScreen {

    /** What the screen asks of the console. */
    public interface Actions {
        void connect(ConnectTarget target, ModeChoice mode, Connector.MissingCrds missingCrds);

        /** Reads a kubeconfig file off the FX thread and adds it to the list. */
        void addKubeconfig(Path file);

        void toggleTheme();
    }

    /** One line of the context list: a context of a source, or a source's problem. */
    record ContextItem(KubeconfigSource source, KubeContext context) {
        String searchText() {
            return context == null ? source.label().toLowerCase(Locale.ROOT)
                    : context.searchText() + " " + source.label().toLowerCase(Locale.ROOT);
        }

        ConnectTarget target() {
            return new ConnectTarget.Kubeconfig(source.isDefault() ? Optional.empty() : Optional.of(source.files().getFirst()),
                    context.name());
        }
    }

    private final Actions actions;
    private final BorderPane root = new BorderPane();
    private final ObservableList<ContextItem> items = FXCollections.observableArrayList();
    private final FilteredList<ContextItem> filteredItems = new FilteredList<>(items);
    private final ListView<ContextItem> contexts = new ListView<>(filteredItems);
    private final VBox problems = new VBox(6);
    private final ObservableList<ConnectTarget> recentItems = FXCollections.observableArrayList();
    private final ToggleGroup modeGroup = new ToggleGroup();
    private final ToggleGroup scenarioGroup = new ToggleGroup();
    private final RadioButton builtInDemo = new RadioButton("Built-in demo: 4 nodes, 8 VMIs, a VM, PDBs");
    private final RadioButton scenarioFile = new RadioButton("Scenario from a YAML file or folder");
    private final Label scenarioPath = new Label();
    private final VBox progressBox = new VBox(8);
    private final Label progressText = new Label();
    private final VBox errorBox = new VBox(8);
    private final Label errorHeadline = new Label();
    private final Label errorDetail = new Label();
    private final HBox errorButtons = new HBox(8);
    private final BooleanProperty busy = new SimpleBooleanProperty();
    private final TextField webhookHost = new TextField();
    private ConnectTarget lastTarget;

    public StartScreen(Actions actions, String initialScenario) {
        this.actions = actions;
        root.getStyleClass().add("start-screen");
        root.setId("startScreen");

        // Header
        Label brand = new Label("Drainboard", Icons.icon(Material2AL.DNS, 28));
        brand.getStyleClass().add("start-brand");
        Label tagline = new Label("Drain KubeVirt nodes and watch every VM leave, live.");
        tagline.getStyleClass().addAll(Styles.TEXT_MUTED);
        Button theme = new Button(null, Icons.icon(Material2MZ.NIGHTS_STAY, 18));
        theme.getStyleClass().addAll(Styles.BUTTON_ICON, Styles.FLAT);
        theme.setId("startThemeToggle");
        theme.setOnAction(e -> actions.toggleTheme());
        Region spacer = new Region();
        HBox.setHgrow(spacer, Priority.ALWAYS);
        HBox header = new HBox(16, new VBox(4, brand, tagline), spacer, theme);
        header.setAlignment(Pos.CENTER_LEFT);
        header.getStyleClass().add("start-header");

        // Contexts card
        CustomTextField search = new CustomTextField();
        search.setPromptText("Search contexts, clusters, servers…");
        search.setLeft(Icons.icon(Material2MZ.SEARCH));
        search.setId("contextSearch");
        search.textProperty().addListener((obs, old, text) -> {
            String[] terms = text.toLowerCase(Locale.ROOT).trim().split("\\s+");
            filteredItems.setPredicate(item -> {
                for (String t : terms) {
                    if (!t.isEmpty() && !item.searchText().contains(t)) {
                        return false;
                    }
                }
                return true;
            });
        });
        contexts.setId("contextList");
        contexts.getStyleClass().add("context-list");
        contexts.setCellFactory(l -> new ContextCell());
        Label emptyContexts = new Label("No kubeconfig contexts. Add a kubeconfig file, or start the embedded cluster.");
        emptyContexts.setWrapText(true);
        emptyContexts.getStyleClass().add(Styles.TEXT_MUTED);
        contexts.setPlaceholder(emptyContexts);
        VBox.setVgrow(contexts, Priority.ALWAYS);
        contexts.setOnMouseClicked(e -> {
            if (e.getClickCount() == 2) {
                connectSelectedContext();
            }
        });
        Button addFile = new Button("Add kubeconfig…", Icons.icon(Material2AL.FOLDER_OPEN));
        addFile.setId("addKubeconfig");
        addFile.setOnAction(e -> chooseKubeconfig());
        Button connect = new Button("Connect", Icons.icon(Material2AL.LINK));
        connect.setId("connectContext");
        connect.getStyleClass().add(Styles.ACCENT);
        connect.setDefaultButton(true);
        connect.disableProperty().bind(busy.or(Bindings.createBooleanBinding(() -> {
            ContextItem item = contexts.getSelectionModel().getSelectedItem();
            return item == null || item.context() == null;
        }, contexts.getSelectionModel().selectedItemProperty())));
        connect.setOnAction(e -> connectSelectedContext());
        Region grow = new Region();
        HBox.setHgrow(grow, Priority.ALWAYS);
        HBox contextButtons = new HBox(8, addFile, grow, connect);
        problems.setId("sourceProblems");
        VBox contextsCard = card("Kubernetes contexts", "From ~/.kube/config, KUBECONFIG and files you add.",
                search, problems, contexts, contextButtons);
        contextsCard.setPrefWidth(520);
        HBox.setHgrow(contextsCard, Priority.ALWAYS);

        // Embedded card
        builtInDemo.setToggleGroup(scenarioGroup);
        scenarioFile.setToggleGroup(scenarioGroup);
        builtInDemo.setId("scenarioDemo");
        scenarioPath.getStyleClass().addAll(Styles.TEXT_MUTED, Styles.TEXT_SMALL);
        scenarioPath.setWrapText(true);
        if (initialScenario == null || "demo".equals(initialScenario)) {
            builtInDemo.setSelected(true);
        } else {
            scenarioFile.setSelected(true);
            scenarioPath.setText(initialScenario);
        }
        Button chooseFile = new Button("File…");
        chooseFile.setOnAction(e -> chooseScenario(false));
        Button chooseFolder = new Button("Folder…");
        chooseFolder.setOnAction(e -> chooseScenario(true));
        chooseFile.getStyleClass().add(Styles.SMALL);
        chooseFolder.getStyleClass().add(Styles.SMALL);
        HBox scenarioChoosers = new HBox(6, chooseFile, chooseFolder);
        scenarioChoosers.setPadding(new Insets(0, 0, 0, 26));
        Button startEmbedded = new Button("Start embedded cluster", Icons.icon(Material2MZ.PLAY_ARROW));
        startEmbedded.setId("connectEmbedded");
        startEmbedded.getStyleClass().add(Styles.SUCCESS);
        startEmbedded.setMaxWidth(Double.MAX_VALUE);
        startEmbedded.disableProperty().bind(busy.or(scenarioFile.selectedProperty().and(scenarioPath.textProperty().isEmpty())));
        startEmbedded.setOnAction(e -> actions.connect(new ConnectTarget.Embedded(
                builtInDemo.isSelected() ? "demo" : scenarioPath.getText()), modeChoice(), Connector.MissingCrds.FAIL));
        VBox embeddedCard = card("Embedded cluster",
                "An in-process Kubernetes API server with simulated nodes: rehearse a maintenance window without a cluster.",
                builtInDemo, scenarioFile, scenarioChoosers, scenarioPath, startEmbedded);

        // Recent card
        ListView<ConnectTarget> recent = new ListView<>(recentItems);
        recent.setId("recentList");
        recent.getStyleClass().add("recent-list");
        recent.setPrefHeight(150);
        recent.setCellFactory(l -> new ListCell<>() {
            @Override
            protected void updateItem(ConnectTarget item, boolean empty) {
                super.updateItem(item, empty);
                if (empty || item == null) {
                    setGraphic(null);
                    return;
                }
                Label title = new Label(item.title());
                title.getStyleClass().add(Styles.TEXT_BOLD);
                Label sub = new Label(item.subtitle());
                sub.getStyleClass().addAll(Styles.TEXT_MUTED, Styles.TEXT_SMALL);
                HBox row = new HBox(10, Icons.icon(item instanceof ConnectTarget.Embedded ? Material2MZ.PLAY_ARROW : Material2AL.HISTORY),
                        new VBox(1, title, sub));
                row.setAlignment(Pos.CENTER_LEFT);
                setGraphic(row);
            }
        });
        Label noRecent = new Label("Connections you make are remembered here.");
        noRecent.getStyleClass().add(Styles.TEXT_MUTED);
        recent.setPlaceholder(noRecent);
        recent.setOnMouseClicked(e -> {
            ConnectTarget t = recent.getSelectionModel().getSelectedItem();
            if (e.getClickCount() == 2 && t != null && !busy.get()) {
                actions.connect(t, modeChoice(), Connector.MissingCrds.FAIL);
            }
        });
        VBox recentCard = card("Recent", "Double-click to connect again.", recent);

        VBox right = new VBox(16, embeddedCard, recentCard);
        right.setPrefWidth(400);
        right.setMinWidth(360);
        HBox cards = new HBox(16, contextsCard, right);

        // Mode, progress, errors
        ToggleButton auto = modeButton("Auto", ModeChoice.AUTO, Styles.LEFT_PILL);
        ToggleButton control = modeButton("Control", ModeChoice.CONTROL, Styles.CENTER_PILL);
        ToggleButton observe = modeButton("Observe", ModeChoice.OBSERVE, Styles.RIGHT_PILL);
        auto.setSelected(true);
        modeGroup.selectedToggleProperty().addListener((obs, old, now) -> {
            if (now == null) {
                old.setSelected(true);
            }
        });
        Label modeLabel = new Label("Mode");
        modeLabel.getStyleClass().add(Styles.TEXT_BOLD);
        Label modeHelp = new Label();
        modeHelp.getStyleClass().addAll(Styles.TEXT_MUTED, Styles.TEXT_SMALL);
        modeHelp.setWrapText(true);
        modeHelp.textProperty().bind(Bindings.createStringBinding(() -> switch (modeChoice()) {
            case AUTO -> "Control on the embedded cluster and where no virt-controller runs; Observe where KubeVirt's own virt-controller runs.";
            case CONTROL -> "Drainboard runs KubeVirt's drain control plane for this cluster (with leader election).";
            case OBSERVE -> "Controllers stay off; actions still go to the API.";
        }, modeGroup.selectedToggleProperty()));
        HBox.setHgrow(modeHelp, Priority.ALWAYS);
        HBox modeRow = new HBox(12, modeLabel, new HBox(auto, control, observe), modeHelp);
        modeRow.setAlignment(Pos.CENTER_LEFT);
        modeRow.getStyleClass().add("mode-row");

        // Where a cluster that is not on this machine calls the console's eviction webhook (Control mode only).
        Label webhookLabel = new Label("Webhook address");
        webhookLabel.getStyleClass().add(Styles.TEXT_BOLD);
        webhookHost.setId("webhookHost");
        webhookHost.setPromptText("automatic");
        webhookHost.setPrefColumnCount(16);
        Label webhookHelp = new Label();
        webhookHelp.setId("webhookHelp");
        webhookHelp.getStyleClass().addAll(Styles.TEXT_SMALL);
        webhookHelp.setWrapText(true);
        webhookHelp.textProperty().bind(Bindings.createStringBinding(() -> webhookHostProblem()
                .map(p -> "Not usable: " + p + ".")
                .orElse("Where a remote cluster's API server calls this console's eviction webhook in Control mode. "
                        + "Empty: this machine's address on the route to the API server (loopback for a cluster on this machine)."),
                webhookHost.textProperty()));
        webhookHost.textProperty().addListener((obs, old, now) -> {
            boolean bad = webhookHostProblem().isPresent();
            webhookHost.pseudoClassStateChanged(Styles.STATE_DANGER, bad);
            webhookHelp.pseudoClassStateChanged(Styles.STATE_DANGER, bad);
            webhookHelp.getStyleClass().remove(Styles.TEXT_MUTED);
            if (!bad) {
                webhookHelp.getStyleClass().add(Styles.TEXT_MUTED);
            }
        });
        webhookHelp.getStyleClass().add(Styles.TEXT_MUTED);
        HBox.setHgrow(webhookHelp, Priority.ALWAYS);
        HBox webhookRow = new HBox(12, webhookLabel, webhookHost, webhookHelp);
        webhookRow.setAlignment(Pos.CENTER_LEFT);
        webhookRow.getStyleClass().add("mode-row");
        webhookRow.visibleProperty().bind(Bindings.createBooleanBinding(() -> modeChoice() != ModeChoice.OBSERVE,
                modeGroup.selectedToggleProperty()));
        webhookRow.managedProperty().bind(webhookRow.visibleProperty());

        ProgressIndicator spinner = new ProgressIndicator();
        spinner.setPrefSize(22, 22);
        progressText.setId("progressText");
        HBox progressRow = new HBox(10, spinner, progressText);
        progressRow.setAlignment(Pos.CENTER_LEFT);
        progressBox.getChildren().add(progressRow);
        progressBox.getStyleClass().add("progress-box");
        progressBox.visibleProperty().bind(busy);
        progressBox.managedProperty().bind(busy);

        errorHeadline.setId("errorHeadline");
        errorHeadline.getStyleClass().add("error-headline");
        errorHeadline.setWrapText(true);
        errorHeadline.setGraphic(Icons.icon(Material2AL.ERROR_OUTLINE, 20));
        errorDetail.setId("errorDetail");
        errorDetail.setWrapText(true);
        // Never squeezed to one truncated line when the window is short: the page scrolls instead.
        errorHeadline.setMinHeight(Region.USE_PREF_SIZE);
        errorDetail.setMinHeight(Region.USE_PREF_SIZE);
        errorDetail.getStyleClass().add("error-detail");
        errorBox.setId("errorBox");
        errorBox.getStyleClass().add("error-box");
        errorBox.getChildren().addAll(errorHeadline, errorDetail, errorButtons);
        errorBox.setVisible(false);
        errorBox.setManaged(false);

        VBox body = new VBox(16, header, cards, new VBox(8, modeRow, webhookRow), progressBox, errorBox);
        body.setMaxWidth(1080);
        body.getStyleClass().add("start-body");
        StackPane center = new StackPane(body);
        center.setAlignment(Pos.TOP_CENTER);
        ScrollPane scroll = new ScrollPane(center);
        scroll.setFitToWidth(true);
        scroll.setFitToHeight(true);
        scroll.getStyleClass().add("edge-to-edge");
        root.setCenter(scroll);
    }

    private ToggleButton modeButton(String text, ModeChoice choice, String pill) {
        ToggleButton b = new ToggleButton(text);
        b.setUserData(choice);
        b.setToggleGroup(modeGroup);
        b.getStyleClass().add(pill);
        b.setId("mode" + text);
        return b;
    }

    private ModeChoice modeChoice() {
        return modeGroup.getSelectedToggle() == null ? ModeChoice.AUTO : (ModeChoice) modeGroup.getSelectedToggle().getUserData();
    }

    private static VBox card(String title, String subtitle, Node... content) {
        Label t = new Label(title);
        t.getStyleClass().add("card-title");
        Label s = new Label(subtitle);
        s.getStyleClass().addAll(Styles.TEXT_MUTED, Styles.TEXT_SMALL);
        s.setWrapText(true);
        VBox card = new VBox(10, t, s);
        card.getChildren().addAll(content);
        card.getStyleClass().add("panel-card");
        return card;
    }

    private void connectSelectedContext() {
        ContextItem item = contexts.getSelectionModel().getSelectedItem();
        if (item != null && item.context() != null && !busy.get()) {
            actions.connect(item.target(), modeChoice(), Connector.MissingCrds.FAIL);
        }
    }

    private void chooseKubeconfig() {
        FileChooser chooser = new FileChooser();
        chooser.setTitle("Add a kubeconfig");
        File home = new File(System.getProperty("user.home"), ".kube");
        if (home.isDirectory()) {
            chooser.setInitialDirectory(home);
        }
        File file = chooser.showOpenDialog(root.getScene().getWindow());
        if (file != null) {
            actions.addKubeconfig(file.toPath());
        }
    }

    private void chooseScenario(boolean folder) {
        File chosen;
        if (folder) {
            DirectoryChooser chooser = new DirectoryChooser();
            chooser.setTitle("Scenario folder");
            chosen = chooser.showDialog(root.getScene().getWindow());
        } else {
            FileChooser chooser = new FileChooser();
            chooser.setTitle("Scenario YAML");
            chooser.getExtensionFilters().add(new FileChooser.ExtensionFilter("YAML", "*.yaml", "*.yml"));
            chosen = chooser.showOpenDialog(root.getScene().getWindow());
        }
        if (chosen != null) {
            scenarioPath.setText(chosen.getAbsolutePath());
            scenarioFile.setSelected(true);
        }
    }

    /** Replaces the listed sources (the default first, then added files in order). */
    public void setSources(List<KubeconfigSource> sources) {
        ContextItem selected = contexts.getSelectionModel().getSelectedItem();
        items.clear();
        problems.getChildren().clear();
        for (KubeconfigSource source : sources) {
            source.problem().ifPresent(p -> {
                Label problem = new Label(p, Icons.icon(Material2MZ.WARNING, 16));
                problem.setWrapText(true);
                problem.getStyleClass().add("source-problem");
                problems.getChildren().add(problem);
            });
            for (KubeContext c : source.contexts()) {
                items.add(new ContextItem(source, c));
            }
        }
        problems.setVisible(!problems.getChildren().isEmpty());
        problems.setManaged(!problems.getChildren().isEmpty());
        if (selected != null) {
            items.stream().filter(i -> i.source().label().equals(selected.source().label())
                    && i.context().name().equals(selected.context().name())).findFirst()
                    .ifPresent(i -> contexts.getSelectionModel().select(i));
        } else {
            items.stream().filter(i -> i.context().current()).findFirst()
                    .ifPresent(i -> contexts.getSelectionModel().select(i));
        }
    }

    public void setRecent(List<ConnectTarget> recent) {
        recentItems.setAll(recent);
    }

    public void showProgress(String message) {
        busy.set(true);
        hideError();
        progressText.setText(message);
    }

    public void hideProgress() {
        busy.set(false);
    }

    /** Shows a failed connection and the ways forward it offers. */
    public void showError(ConnectTarget target, ModeChoice mode, ConnectError error) {
        busy.set(false);
        lastTarget = target;
        errorHeadline.setText(error.headline());
        errorDetail.setText(error.detail());
        errorButtons.getChildren().clear();
        if (error.offersCrdInstall()) {
            Button install = new Button("Install KubeVirt CRDs and connect", Icons.icon(Material2AL.BUILD));
            install.setId("installCrds");
            install.getStyleClass().add(Styles.ACCENT);
            install.setOnAction(e -> actions.connect(lastTarget, mode, Connector.MissingCrds.INSTALL));
            Button without = new Button("Connect without KubeVirt");
            without.setId("connectWithoutKubeVirt");
            without.setOnAction(e -> actions.connect(lastTarget, mode, Connector.MissingCrds.IGNORE));
            errorButtons.getChildren().addAll(install, without);
        } else {
            Button retry = new Button("Try again", Icons.icon(Material2MZ.REFRESH));
            retry.setId("retryConnect");
            retry.setOnAction(e -> actions.connect(lastTarget, mode, Connector.MissingCrds.FAIL));
            errorButtons.getChildren().add(retry);
        }
        Button dismiss = new Button("Dismiss");
        dismiss.getStyleClass().add(Styles.FLAT);
        dismiss.setOnAction(e -> hideError());
        errorButtons.getChildren().add(dismiss);
        errorBox.setVisible(true);
        errorBox.setManaged(true);
    }

    public void hideError() {
        errorBox.setVisible(false);
        errorBox.setManaged(false);
    }

    /** The eviction webhook host typed in; empty: chosen per cluster. */
    public Optional<String> webhookHost() {
        String text = webhookHost.getText() == null ? "" : webhookHost.getText().trim();
        return text.isEmpty() ? Optional.empty() : Optional.of(text);
    }

    /** Why the typed webhook host cannot be used (nothing typed is fine: automatic). */
    public Optional<String> webhookHostProblem() {
        return webhookHost().flatMap(WebhookAddress::problem);
    }

    public void setWebhookHost(String host) {
        webhookHost.setText(host == null ? "" : host);
    }

    /** Selects a context by name (for tests and for the command line). */
    public boolean selectContext(String name) {
        for (ContextItem item : filteredItems) {
            if (item.context() != null && item.context().name().equals(name)) {
                contexts.getSelectionModel().select(item);
                return true;
            }
        }
        return false;
    }

    public Node root() {
        return root;
    }

    private static final class ContextCell extends ListCell<ContextItem> {
        @Override
        protected void updateItem(ContextItem item, boolean empty) {
            super.updateItem(item, empty);
            if (empty || item == null) {
                setGraphic(null);
                setText(null);
                return;
            }
            KubeContext c = item.context();
            Label name = new Label(c.name());
            name.getStyleClass().add(Styles.TEXT_BOLD);
            Label server = new Label(c.server().isEmpty() ? "no server" : c.server());
            server.getStyleClass().addAll(Styles.TEXT_MUTED, Styles.TEXT_SMALL);
            Label who = new Label("cluster " + c.cluster() + (c.user().isEmpty() ? "" : " · user " + c.user())
                    + (c.namespace().isEmpty() ? "" : " · ns " + c.namespace()));
            who.getStyleClass().addAll(Styles.TEXT_MUTED, Styles.TEXT_SMALL);
            Label source = new Label(item.source().label());
            source.getStyleClass().addAll("source-chip");
            Region spacer = new Region();
            HBox.setHgrow(spacer, Priority.ALWAYS);
            HBox top = new HBox(8, name, spacer, source);
            top.setAlignment(Pos.CENTER_LEFT);
            if (c.current()) {
                Label current = new Label("current");
                current.getStyleClass().addAll("badge", "badge-accent");
                top.getChildren().add(1, current);
            }
            VBox box = new VBox(2, top, server, who);
            setGraphic(box);
            setText(null);
        }
    }
}
