package dev.drainboard.ui.start;

import atlantafx.base.controls.CustomTextField;
import atlantafx.base.theme.Styles;
import dev.drainboard.ui.common.Icons;
import dev.drainboard.ui.common.Scrolling;
import dev.drainboard.ui.common.StepSpinner;
import dev.drainboard.ui.connect.ConnectError;
import dev.drainboard.ui.connect.ConnectTarget;
import dev.drainboard.ui.connect.KubeconfigSource;
import dev.drainboard.ui.connect.ModeChoice;
import javafx.beans.binding.Bindings;
import javafx.collections.ListChangeListener;
import javafx.geometry.Pos;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.ListView;
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
import javafx.stage.FileChooser;
import org.kordamp.ikonli.material2.Material2AL;
import org.kordamp.ikonli.material2.Material2MZ;

import java.io.File;
import java.util.List;
import java.util.Optional;

/**
 * The start screen: pick a kubeconfig context or the embedded cluster, choose the mode, connect. It shows the
 * connection's progress and, when it fails, what went wrong and what can be done, plainly.
 *
 * <p>Layout and bindings only: what may be pressed and what it asks is {@link StartScreenModel}'s.
 */
public final class StartScreen {

    private final StartScreenModel model;
    private final BorderPane root = new BorderPane();

    public StartScreen(StartScreenModel.Actions actions, String initialScenario) {
        model = new StartScreenModel(actions, initialScenario);
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
        theme.setOnAction(e -> model.toggleTheme());
        Region spacer = new Region();
        HBox.setHgrow(spacer, Priority.ALWAYS);
        HBox header = new HBox(16, new VBox(4, brand, tagline), spacer, theme);
        header.setAlignment(Pos.CENTER_LEFT);
        header.getStyleClass().add("start-header");

        VBox right = new VBox(16, EmbeddedCard.of(model), recentCard());
        right.setPrefWidth(400);
        right.setMinWidth(360);
        HBox cards = new HBox(16, contextsCard(), right);

        // Progress and errors
        StepSpinner spinner = new StepSpinner(22);
        spinner.setId("connectSpinner");
        spinner.runningProperty().bind(model.busy());
        Label progressText = new Label();
        progressText.setId("progressText");
        progressText.textProperty().bind(model.progressText());
        HBox progressRow = new HBox(10, spinner, progressText);
        progressRow.setAlignment(Pos.CENTER_LEFT);
        VBox progressBox = new VBox(8, progressRow);
        progressBox.getStyleClass().add("progress-box");
        Cards.showWhen(progressBox, model.busy());

        VBox body = new VBox(16, header, cards, new VBox(8, modeRow(), webhookRow()), progressBox, new ErrorBox(model));
        body.setMaxWidth(1080);
        body.getStyleClass().add("start-body");
        StackPane center = new StackPane(body);
        center.setAlignment(Pos.TOP_CENTER);
        // The spinner animates inside it: draw only what changes, not the whole screen each frame.
        ScrollPane scroll = Scrolling.uncachedViewport(new ScrollPane(center));
        scroll.setFitToWidth(true);
        scroll.setFitToHeight(true);
        scroll.getStyleClass().add("edge-to-edge");
        root.setCenter(scroll);
    }

    private VBox contextsCard() {
        CustomTextField search = new CustomTextField();
        search.setPromptText("Search contexts, clusters, servers…");
        search.setLeft(Icons.icon(Material2MZ.SEARCH));
        search.setId("contextSearch");
        search.textProperty().bindBidirectional(model.search());
        ListView<ContextItem> contexts = new ListView<>(model.contexts());
        contexts.setId("contextList");
        contexts.getStyleClass().add("context-list");
        contexts.setCellFactory(l -> new ContextCell());
        Label emptyContexts = new Label("No kubeconfig contexts. Add a kubeconfig file, or start the embedded cluster.");
        emptyContexts.setWrapText(true);
        emptyContexts.getStyleClass().add(Styles.TEXT_MUTED);
        contexts.setPlaceholder(emptyContexts);
        VBox.setVgrow(contexts, Priority.ALWAYS);
        contexts.getSelectionModel().selectedItemProperty().addListener((obs, old, item) -> model.selected().set(item));
        model.selected().addListener((obs, old, item) -> {
            if (item == null) {
                contexts.getSelectionModel().clearSelection();
            } else {
                contexts.getSelectionModel().select(item);
            }
        });
        contexts.setOnMouseClicked(e -> {
            if (e.getClickCount() == 2) {
                model.connectSelected();
            }
        });
        Button addFile = new Button("Add kubeconfig…", Icons.icon(Material2AL.FOLDER_OPEN));
        addFile.setId("addKubeconfig");
        addFile.setOnAction(e -> chooseKubeconfig());
        Button connect = new Button("Connect", Icons.icon(Material2AL.LINK));
        connect.setId("connectContext");
        connect.getStyleClass().add(Styles.ACCENT);
        connect.setDefaultButton(true);
        connect.disableProperty().bind(model.connectBlocked().isNotEmpty());
        connect.setOnAction(e -> model.connectSelected());
        Region grow = new Region();
        HBox.setHgrow(grow, Priority.ALWAYS);
        HBox contextButtons = new HBox(8, addFile, grow, connect);
        VBox problems = new VBox(6);
        problems.setId("sourceProblems");
        model.sourceProblems().addListener((ListChangeListener<String>) c -> problems.getChildren().setAll(
                model.sourceProblems().stream().map(StartScreen::sourceProblem).toList()));
        Cards.showWhen(problems, Bindings.isNotEmpty(model.sourceProblems()));
        VBox card = Cards.card("Kubernetes contexts", "From ~/.kube/config, KUBECONFIG and files you add.",
                search, problems, contexts, contextButtons);
        card.setPrefWidth(520);
        HBox.setHgrow(card, Priority.ALWAYS);
        return card;
    }

    private static Label sourceProblem(String text) {
        Label problem = new Label(text, Icons.icon(Material2MZ.WARNING, 16));
        problem.setWrapText(true);
        problem.getStyleClass().add("source-problem");
        return problem;
    }

    private VBox recentCard() {
        ListView<ConnectTarget> recent = new ListView<>(model.recent());
        recent.setId("recentList");
        recent.getStyleClass().add("recent-list");
        recent.setPrefHeight(150);
        recent.setMinHeight(72); // a short window still shows a whole recent connection (the page scrolls for more)
        recent.setCellFactory(l -> new RecentCell(t -> running.test(t)));
        Label noRecent = new Label("Connections you make are remembered here.");
        noRecent.getStyleClass().add(Styles.TEXT_MUTED);
        recent.setPlaceholder(noRecent);
        recent.setOnMouseClicked(e -> {
            if (e.getClickCount() == 2) {
                model.connectRecent(recent.getSelectionModel().getSelectedItem());
            }
        });
        return Cards.card("Recent", "Double-click to connect again.", recent);
    }

    private VBox modeRow() {
        ToggleGroup modeGroup = new ToggleGroup();
        ToggleButton auto = modeButton(modeGroup, "Auto", ModeChoice.AUTO, Styles.LEFT_PILL);
        ToggleButton control = modeButton(modeGroup, "Control", ModeChoice.CONTROL, Styles.CENTER_PILL);
        ToggleButton observe = modeButton(modeGroup, "Observe", ModeChoice.OBSERVE, Styles.RIGHT_PILL);
        Cards.syncToggles(modeGroup, model.mode());
        Label modeLabel = new Label("Mode");
        modeLabel.getStyleClass().add(Styles.TEXT_BOLD);
        Label modeHelp = new Label();
        modeHelp.getStyleClass().addAll(Styles.TEXT_MUTED, Styles.TEXT_SMALL);
        modeHelp.setWrapText(true);
        modeHelp.textProperty().bind(model.modeHelp());
        // The help on its own line below: beside the pills an HBox cut it to one line ("…") in a 1280-wide window.
        modeLabel.setMinWidth(Region.USE_PREF_SIZE);
        HBox pillsRow = new HBox(12, modeLabel, new HBox(auto, control, observe));
        pillsRow.setAlignment(Pos.CENTER_LEFT);
        modeHelp.setMinHeight(Region.USE_PREF_SIZE);
        VBox modeRow = new VBox(6, pillsRow, modeHelp);
        modeRow.getStyleClass().add("mode-row");
        return modeRow;
    }

    private static ToggleButton modeButton(ToggleGroup group, String text, ModeChoice choice, String pill) {
        ToggleButton b = new ToggleButton(text);
        b.setUserData(choice);
        b.setToggleGroup(group);
        b.getStyleClass().add(pill);
        b.setId("mode" + text);
        return b;
    }

    /** Where a cluster that is not on this machine calls the console's eviction webhook (Control mode only). */
    private VBox webhookRow() {
        Label webhookLabel = new Label("Webhook address");
        webhookLabel.getStyleClass().add(Styles.TEXT_BOLD);
        TextField webhookHost = new TextField();
        webhookHost.setId("webhookHost");
        webhookHost.setPromptText("automatic");
        webhookHost.setPrefColumnCount(16);
        webhookHost.textProperty().bindBidirectional(model.webhookHostText());
        Label webhookHelp = new Label();
        webhookHelp.setId("webhookHelp");
        webhookHelp.getStyleClass().addAll(Styles.TEXT_SMALL, Styles.TEXT_MUTED);
        webhookHelp.setWrapText(true);
        webhookHelp.textProperty().bind(model.webhookHelp());
        model.webhookHostBad().addListener((obs, was, bad) -> {
            webhookHost.pseudoClassStateChanged(Styles.STATE_DANGER, bad);
            webhookHelp.pseudoClassStateChanged(Styles.STATE_DANGER, bad);
            webhookHelp.getStyleClass().remove(Styles.TEXT_MUTED);
            if (!bad) {
                webhookHelp.getStyleClass().add(Styles.TEXT_MUTED);
            }
        });
        // The help text wraps to make room; the label and the field keep their width ("Webhook address" and the
        // "automatic" placeholder whole at 1280×720).
        webhookLabel.setMinWidth(Region.USE_PREF_SIZE);
        webhookHost.setMinWidth(Region.USE_PREF_SIZE);
        webhookHelp.setMinHeight(Region.USE_PREF_SIZE);
        HBox fieldRow = new HBox(12, webhookLabel, webhookHost);
        fieldRow.setAlignment(Pos.CENTER_LEFT);
        VBox webhookRow = new VBox(6, fieldRow, webhookHelp);
        webhookRow.getStyleClass().add("mode-row");
        Cards.showWhen(webhookRow, model.webhookRowVisible());
        Cards.showWhen(fieldRow, model.webhookRowVisible());
        return webhookRow;
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
            model.addKubeconfig(file.toPath());
        }
    }

    // ---- what the console tells the screen, and asks of it

    public StartScreenModel model() {
        return model;
    }

    /** Replaces the listed sources (the default first, then added files in order). */
    public void setSources(List<KubeconfigSource> sources) {
        model.setSources(sources);
    }

    private java.util.function.Predicate<ConnectTarget> running = t -> false;

    /** Which recent targets are embedded clusters still running (the Recent list says so). */
    public void setRunning(java.util.function.Predicate<ConnectTarget> running) {
        this.running = running;
    }

    public void setRecent(List<ConnectTarget> recent) {
        model.setRecent(recent);
    }

    public void showProgress(String message) {
        model.showProgress(message);
    }

    public void hideProgress() {
        model.hideProgress();
    }

    /** Shows a failed connection and the ways forward it offers. */
    public void showError(ConnectTarget target, ModeChoice mode, ConnectError error) {
        model.showError(target, mode, error);
    }

    public void hideError() {
        model.hideError();
    }

    /** The eviction webhook host typed in; empty: chosen per cluster. */
    public Optional<String> webhookHost() {
        return model.webhookHost();
    }

    /** Why the typed webhook host cannot be used (nothing typed is fine: automatic). */
    public Optional<String> webhookHostProblem() {
        return model.webhookHostProblem();
    }

    public void setWebhookHost(String host) {
        model.setWebhookHost(host);
    }

    /** Selects a context by name (for tests and for the command line). */
    public boolean selectContext(String name) {
        return model.selectContext(name);
    }

    public Node root() {
        return root;
    }
}
