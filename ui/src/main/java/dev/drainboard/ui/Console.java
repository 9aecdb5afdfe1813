package dev.drainboard.ui;

import dev.drainboard.ui.connect.ConnectError;
import dev.drainboard.ui.connect.ConnectTarget;
import dev.drainboard.ui.connect.Connector;
import dev.drainboard.ui.connect.KubeconfigCatalog;
import dev.drainboard.ui.connect.KubeconfigSource;
import dev.drainboard.ui.connect.ModeChoice;
import dev.drainboard.ui.connect.RecentConnections;
import dev.drainboard.ui.connect.Session;
import dev.drainboard.ui.actions.ClusterActions;
import dev.drainboard.ui.controllers.ControllersView;
import dev.drainboard.ui.dialogs.ActionCenter;
import dev.drainboard.ui.events.EventsView;
import dev.drainboard.ui.migrations.MigrationsView;
import dev.drainboard.ui.nodes.NodesView;
import dev.drainboard.ui.overview.OverviewView;
import dev.drainboard.ui.pdbs.PdbsView;
import dev.drainboard.ui.replicasets.ReplicaSetsView;
import dev.drainboard.ui.model.ObjectRef;
import dev.drainboard.ui.shell.ConsoleView;
import dev.drainboard.ui.shell.Navigator;
import dev.drainboard.ui.shell.Shell;
import dev.drainboard.ui.shell.ThemeManager;
import dev.drainboard.ui.shell.ViewId;
import dev.drainboard.ui.start.StartScreen;
import dev.drainboard.ui.start.StartScreenModel;
import dev.drainboard.ui.vmis.VmisView;
import javafx.application.Platform;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.scene.Scene;
import javafx.scene.layout.StackPane;
import javafx.stage.Stage;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The console window's controller: the start screen until a connection is made, then the shell over that
 * connection. Blocking work (reading kubeconfigs, connecting, closing) runs on one background thread; its
 * results come back through {@code Platform.runLater}.
 */
public final class Console {

    /** The webhook address last typed on the start screen (a command-line --webhook-host wins over it). */
    private static final String WEBHOOK_HOST_PREF = "webhookHost";

    private final ConsoleOptions options;
    private final ThemeManager theme;
    private final RecentConnections recent;
    private final Connector connector = new Connector().keepEmbeddedClusters();
    private final ExecutorService background = Executors.newSingleThreadExecutor(
            Thread.ofPlatform().daemon().name("console-background").factory());
    private final StackPane root = new StackPane();
    private final StartScreen startScreen;
    private final List<Path> addedKubeconfigs = new ArrayList<>();
    private final ReadOnlyObjectWrapper<Session> session = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyObjectWrapper<Shell> shell = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyObjectWrapper<ActionCenter> actions = new ReadOnlyObjectWrapper<>();
    private Scene scene;
    private long attempt;

    public Console(ConsoleOptions options) {
        this.options = options;
        this.prefs = options.prefs();
        this.theme = new ThemeManager(options.prefs());
        this.recent = new RecentConnections(options.prefs());
        addedKubeconfigs.addAll(options.kubeconfigs());
        startScreen = new StartScreen(new StartScreenModel.Actions() {
            @Override
            public void connect(ConnectTarget target, ModeChoice mode, Connector.MissingCrds missingCrds) {
                Console.this.connect(target, mode, missingCrds);
            }

            @Override
            public void addKubeconfig(Path file) {
                if (!addedKubeconfigs.contains(file)) {
                    addedKubeconfigs.add(file);
                }
                reloadSources();
            }

            @Override
            public void toggleTheme() {
                theme.toggle();
            }
        }, options.scenario());
        startScreen.setWebhookHost(options.webhookHost().orElseGet(() -> options.prefs().get(WEBHOOK_HOST_PREF, "")));
        root.getStyleClass().add("console-root");
        root.getChildren().setAll(startScreen.root());
    }

    /** Puts the console into the stage and shows it. */
    public void show(Stage stage) {
        scene = new Scene(root, 1360, 860);
        scene.getStylesheets().add(Objects.requireNonNull(Console.class.getResource("console.css")).toExternalForm());
        stage.setTitle("Drainboard");
        stage.setMinWidth(1024);
        stage.setMinHeight(640);
        stage.setScene(scene);
        stage.show();
        startScreen.setRunning(t -> t instanceof ConnectTarget.Embedded e && connector.hasRunningEmbedded(e.scenario()));
        startScreen.setRecent(recent.list());
        reloadSources();
        options.autoConnect().ifPresent(t -> connect(t, ModeChoice.AUTO, Connector.MissingCrds.FAIL));
    }

    private void reloadSources() {
        List<Path> files = List.copyOf(addedKubeconfigs);
        background.execute(() -> {
            List<KubeconfigSource> sources = new ArrayList<>();
            if (options.defaultKubeconfig()) {
                sources.add(KubeconfigCatalog.readDefault(System.getenv(), Path.of(System.getProperty("user.home"))));
            }
            files.forEach(f -> sources.add(KubeconfigCatalog.readFile(f)));
            Platform.runLater(() -> startScreen.setSources(sources));
        });
    }

    /** Connects off the FX thread; the start screen shows progress, then the shell or the error. */
    public void connect(ConnectTarget target, ModeChoice mode, Connector.MissingCrds missingCrds) {
        Optional<String> webhookHost = startScreen.webhookHost();
        Optional<String> problem = startScreen.webhookHostProblem();
        if (problem.isPresent() && target instanceof ConnectTarget.Kubeconfig && mode != ModeChoice.OBSERVE) {
            startScreen.showError(target, mode, new ConnectError(ConnectError.Kind.OTHER,
                    "The webhook address cannot be used.",
                    "The address " + problem.get() + ". It must be a host name or an IP address of this machine that "
                            + "the cluster's API server can reach; clear the field to have it chosen automatically."));
            return;
        }
        options.prefs().put(WEBHOOK_HOST_PREF, webhookHost.orElse(""));
        long mine = ++attempt;
        startScreen.showProgress("Connecting…");
        background.execute(() -> {
            try {
                Session s = connector.connect(target, mode, missingCrds, webhookHost, options.webhookCallers(),
                        message -> Platform.runLater(() -> {
                            if (mine == attempt) {
                                startScreen.showProgress(message);
                            }
                        }));
                Platform.runLater(() -> opened(s));
            } catch (Connector.Failure failure) {
                Platform.runLater(() -> startScreen.showError(target, mode, failure.error()));
            }
        });
    }

    /** The embedded cluster's choice of KubeVirt release, remembered per cluster (docs/kubevirt-versions.md). */
    private java.util.Optional<dev.drainboard.ui.controllers.KubeVirtVersionOverride> versionOverride(Session s) {
        return s.kubeVirtVersionSetter().map(set -> new dev.drainboard.ui.controllers.KubeVirtVersionOverride(
                prefs, s.info().cluster(), set));
    }

    private void opened(Session s) {
        versionOverride(s).ifPresent(o -> {
            try {
                o.restore();
            } catch (RuntimeException e) {
                System.err.println("drainboard: the remembered KubeVirt version was not applied: " + e.getMessage());
            }
        });
        startScreen.hideProgress();
        recent.remember(s.info().target());
        startScreen.setRecent(recent.list());
        session.set(s);
        ActionCenter center = new ActionCenter(ClusterActions.open(s), s.model(), () -> s.controlPlaneStatus().webhook().getValue());
        actions.set(center);
        Shell newShell = new Shell(s, theme, id -> view(id, s, center), this::askDisconnect);
        newShell.addLayers(center.layers());
        newShell.setNotices(center.notifier().layer());
        newShell.setPaletteActions(() -> {
            List<dev.drainboard.ui.shell.CommandPalette.Entry> entries = new ArrayList<>(center.paletteEntries());
            if (!s.info().embedded()) {
                entries.add(dev.drainboard.ui.rehearse.Rehearsal.entry(s, center.dialogs(), background, this::rehearse));
            }
            return entries;
        });
        shell.set(newShell);
        // The namespace the lists show, remembered per cluster: set before the first list is made.
        dev.drainboard.ui.shell.NamespacePicker picker = new dev.drainboard.ui.shell.NamespacePicker(s.model(), prefs,
                dev.drainboard.ui.shell.NamespacePicker.clusterKey(s.info().cluster(), s.info().context()));
        newShell.addHeaderTool(picker.root());
        newShell.installShortcuts(scene, theme);
        scene.getAccelerators().put(new javafx.scene.input.KeyCodeCombination(javafx.scene.input.KeyCode.N,
                javafx.scene.input.KeyCombination.SHORTCUT_DOWN, javafx.scene.input.KeyCombination.SHIFT_DOWN), picker::focus);
        root.getChildren().setAll(newShell.root());
        System.out.println("drainboard: connected to " + s.info().server() + " (" + s.info().mode().label() + " mode)");
    }

    private final java.util.prefs.Preferences prefs;

    private ConsoleView view(ViewId id, Session s, ActionCenter center) {
        var model = s.model();
        return switch (id) {
            case OVERVIEW -> new OverviewView(model, lazyNavigator(), center);
            case NODES -> new NodesView(model, center);
            case VMIS -> new VmisView(model, center);
            case MIGRATIONS -> new MigrationsView(model, center);
            case PDBS -> new PdbsView(model);
            case REPLICA_SETS -> new ReplicaSetsView(model, center);
            case VMS -> new dev.drainboard.ui.vms.VmsView(model, center);
            case EVENTS -> new EventsView(model);
            case CONTROLLERS -> new ControllersView(s.info(), s.controlPlaneStatus(), model.kubeVirtSettings(),
                    versionOverride(s).orElse(null));
            case HISTORY -> new dev.drainboard.ui.history.HistoryView(new dev.drainboard.ui.history.HistoryViewModel(center::history),
                    model.relations(), message -> center.notifier().show(dev.drainboard.ui.common.Badge.Tone.NEUTRAL, "History", message));
            case PODS -> new dev.drainboard.ui.pods.PodsView(model, center::preview);
            case MAINTENANCE -> new dev.drainboard.ui.maintenance.MaintenanceView(
                    new dev.drainboard.ui.maintenance.MaintenanceViewModel(center.clusterActions().maintenance()), model.nodes(),
                    (title, message, detail, verb, yes, no) -> center.confirm("confirmAbortPlan", title, message, detail, verb, yes, no),
                    message -> center.notifier().show(dev.drainboard.ui.common.Badge.Tone.NEUTRAL, "Maintenance", message));
        };
    }

    /** The shell as navigator, looked up when used (the first view is made while the shell is being built). */
    private Navigator lazyNavigator() {
        return new Navigator() {
            @Override
            public void show(ViewId view) {
                shell.get().show(view);
            }

            @Override
            public void reveal(ObjectRef ref) {
                shell.get().reveal(ref);
            }
        };
    }

    /** The sidebar's Disconnect: asks first, since it ends the session (an embedded cluster keeps running). */
    public void askDisconnect() {
        Session s = session.get();
        ActionCenter center = actions.get();
        if (s == null || center == null) {
            return;
        }
        center.confirmDisconnect(s.info().embedded() ? "the embedded cluster" : s.info().server(),
                s.info().embedded() ? "The embedded cluster keeps running until the console quits: open it again from "
                        + "Recent to find it as you left it." : "The cluster is not changed.",
                this::disconnect);
    }

    /** Leaves the real cluster (it stays in Recent) for an embedded cluster serving a copy of it. */
    private void rehearse(ConnectTarget.Embedded copy) {
        disconnect();
        connect(copy, ModeChoice.AUTO, Connector.MissingCrds.FAIL);
    }

    /** Back to the start screen; the old session closes in the background. */
    public void disconnect() {
        Session old = session.get();
        ActionCenter oldActions = actions.get();
        session.set(null);
        shell.set(null);
        actions.set(null);
        if (oldActions != null) {
            oldActions.close(); // cancels running drains before the session's client goes
        }
        scene.getAccelerators().clear();
        startScreen.setRecent(recent.list()); // says which embedded cluster still runs
        root.getChildren().setAll(startScreen.root());
        if (old != null) {
            background.execute(old::close);
        }
    }

    /** Closes the session (blocking, for application shutdown). */
    public void close() {
        if (actions.get() != null) {
            actions.get().close();
        }
        Session old = session.get();
        if (old != null) {
            old.close();
        }
        background.shutdownNow();
        connector.close(); // the embedded clusters kept running for Recent

    }

    public ReadOnlyObjectProperty<Session> sessionProperty() {
        return session.getReadOnlyProperty();
    }

    public ReadOnlyObjectProperty<Shell> shellProperty() {
        return shell.getReadOnlyProperty();
    }

    /** The current connection's actions (dialogs, toasts, permissions), null on the start screen. */
    public ReadOnlyObjectProperty<ActionCenter> actionsProperty() {
        return actions.getReadOnlyProperty();
    }

    public StartScreen startScreen() {
        return startScreen;
    }

    public ThemeManager theme() {
        return theme;
    }

    public Scene scene() {
        return scene;
    }
}
