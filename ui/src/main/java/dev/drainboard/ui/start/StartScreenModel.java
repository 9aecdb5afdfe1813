package dev.drainboard.ui.start;

import dev.drainboard.controlplane.WebhookAddress;
import dev.drainboard.ui.connect.ConnectError;
import dev.drainboard.ui.connect.ConnectTarget;
import dev.drainboard.ui.connect.Connector;
import dev.drainboard.ui.connect.KubeContext;
import dev.drainboard.ui.connect.KubeconfigSource;
import dev.drainboard.ui.connect.ModeChoice;
import javafx.beans.binding.Bindings;
import javafx.beans.binding.BooleanBinding;
import javafx.beans.binding.StringBinding;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import javafx.collections.transformation.FilteredList;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The start screen without its controls: the contexts of the kubeconfigs read (searchable, one selected), the
 * embedded cluster's scenario, the mode, the webhook address checked as it is typed, recent connections, and where
 * connecting stands (on its way, or failed with the ways forward it offers). Connecting itself is the console's
 * ({@link Actions}); this decides what may be pressed and what is asked. Needs no FX toolkit.
 */
public final class StartScreenModel {

    /** What the screen asks of the console. */
    public interface Actions {
        void connect(ConnectTarget target, ModeChoice mode, Connector.MissingCrds missingCrds);

        /** Reads a kubeconfig file off the FX thread and adds it to the list. */
        void addKubeconfig(Path file);

        void toggleTheme();
    }

    /** Where connecting stands: nothing asked, on its way, or failed (its error shown). */
    public enum Phase { IDLE, CONNECTING, FAILED }

    /** Where the embedded cluster's objects come from: the built-in demo, or a YAML file or folder. */
    public enum Scenario { DEMO, FILE }

    /** A way forward from a failed connection, in the order of its buttons. */
    public enum Choice { INSTALL_CRDS, CONNECT_WITHOUT_KUBEVIRT, RETRY, DISMISS }

    /** A failed connection as shown: what was asked, in which mode, and why it failed. */
    public record Failure(ConnectTarget target, ModeChoice mode, ConnectError error) {
        /** Missing CRDs can be installed or done without; anything else can be tried again. */
        public List<Choice> choices() {
            return error.offersCrdInstall() ? List.of(Choice.INSTALL_CRDS, Choice.CONNECT_WITHOUT_KUBEVIRT, Choice.DISMISS)
                    : List.of(Choice.RETRY, Choice.DISMISS);
        }
    }

    static final String AUTOMATIC_WEBHOOK = "Where a remote cluster's API server calls this console's eviction webhook in Control mode. "
            + "Empty: this machine's address on the route to the API server (loopback for a cluster on this machine).";

    private final Actions actions;
    private final ObservableList<ContextItem> items = FXCollections.observableArrayList();
    private final FilteredList<ContextItem> visibleItems = new FilteredList<>(items);
    private final StringProperty search = new SimpleStringProperty(this, "search", "");
    private final ObjectProperty<ContextItem> selected = new SimpleObjectProperty<>(this, "selected");
    private final ObservableList<String> sourceProblems = FXCollections.observableArrayList();
    private final ObservableList<String> sourceProblemsView = FXCollections.unmodifiableObservableList(sourceProblems);
    private final ObservableList<ConnectTarget> recent = FXCollections.observableArrayList();
    private final ObservableList<ConnectTarget> recentView = FXCollections.unmodifiableObservableList(recent);
    private final ObjectProperty<ModeChoice> mode = new SimpleObjectProperty<>(this, "mode", ModeChoice.AUTO);
    private final ObjectProperty<Scenario> scenario = new SimpleObjectProperty<>(this, "scenario", Scenario.DEMO);
    private final ReadOnlyStringWrapper scenarioPath = new ReadOnlyStringWrapper(this, "scenarioPath", "");
    private final StringProperty webhookHost = new SimpleStringProperty(this, "webhookHost", "");
    private final ReadOnlyObjectWrapper<Phase> phase = new ReadOnlyObjectWrapper<>(this, "phase", Phase.IDLE);
    private final ReadOnlyStringWrapper progressText = new ReadOnlyStringWrapper(this, "progressText", "");
    private final ReadOnlyObjectWrapper<Failure> failure = new ReadOnlyObjectWrapper<>(this, "failure");

    private final StringBinding modeHelp = Bindings.createStringBinding(() -> modeHelp(mode.get()), mode);
    private final BooleanBinding webhookRowVisible = Bindings.createBooleanBinding(() -> mode.get() != ModeChoice.OBSERVE, mode);
    private final StringBinding webhookHelp = Bindings.createStringBinding(() -> webhookHostProblem()
            .map(p -> "Not usable: " + p + ".").orElse(AUTOMATIC_WEBHOOK), webhookHost);
    private final BooleanBinding webhookHostBad = Bindings.createBooleanBinding(() -> webhookHostProblem().isPresent(), webhookHost);
    private final BooleanBinding busy = phase.isEqualTo(Phase.CONNECTING);
    private final StringBinding connectBlocked = Bindings.createStringBinding(() -> {
        if (busy.get()) {
            return "A connection is on its way.";
        }
        ContextItem item = selected.get();
        return item == null || item.context() == null ? "Select a context first." : "";
    }, busy, selected);
    private final BooleanBinding embeddedDisabled = busy.or(scenario.isEqualTo(Scenario.FILE).and(scenarioPath.isEmpty()));

    /** @param initialScenario {@code demo} (or null) for the built-in demo, else a YAML file or folder */
    public StartScreenModel(Actions actions, String initialScenario) {
        this.actions = actions;
        if (initialScenario != null && !"demo".equals(initialScenario)) {
            useScenarioPath(initialScenario);
        }
        search.addListener((obs, old, text) -> {
            String[] terms = text.toLowerCase(Locale.ROOT).trim().split("\\s+");
            visibleItems.setPredicate(item -> {
                for (String t : terms) {
                    if (!t.isEmpty() && !item.searchText().contains(t)) {
                        return false;
                    }
                }
                return true;
            });
        });
    }

    static String modeHelp(ModeChoice mode) {
        return switch (mode) {
            case AUTO -> "Control on the embedded cluster and where no virt-controller runs; Observe where KubeVirt's own virt-controller runs.";
            case CONTROL -> "Drainboard runs KubeVirt's drain control plane for this cluster (with leader election).";
            case OBSERVE -> "Controllers stay off and this console changes nothing (read-only).";
        };
    }

    // ---- contexts

    /**
     * Replaces the listed sources (the default first, then added files in order). The selection stays on the same
     * context when it is still there; with nothing selected before, the kubeconfig's current context is.
     */
    public void setSources(List<KubeconfigSource> sources) {
        ContextItem previous = selected.get();
        List<ContextItem> next = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        boolean anyContexts = sources.stream().anyMatch(s -> !s.contexts().isEmpty());
        for (KubeconfigSource source : sources) {
            // A missing default kubeconfig is no problem once kubeconfigs were added that have contexts.
            boolean missingDefault = source.isDefault() && source.contexts().isEmpty() && source.problem().isPresent()
                    && source.problem().get().startsWith("No kubeconfig found");
            if (!(missingDefault && anyContexts)) {
                source.problem().ifPresent(problems::add);
            }
            for (KubeContext c : source.contexts()) {
                next.add(new ContextItem(source, c));
            }
        }
        items.setAll(next);
        sourceProblems.setAll(problems);
        selected.set(next.stream().filter(i -> previous != null ? i.sameAs(previous) : i.context().current())
                .findFirst().orElse(null));
    }

    /** Selects a context by name among those the search shows (for tests and for the command line). */
    public boolean selectContext(String name) {
        for (ContextItem item : visibleItems) {
            if (item.context() != null && item.context().name().equals(name)) {
                selected.set(item);
                return true;
            }
        }
        return false;
    }

    /** Connects to the selected context, unless a connection is on its way. */
    public void connectSelected() {
        ContextItem item = selected.get();
        if (connectBlocked.get().isEmpty()) {
            actions.connect(item.target(), mode.get(), Connector.MissingCrds.FAIL);
        }
    }

    public void addKubeconfig(Path file) {
        actions.addKubeconfig(file);
    }

    public void toggleTheme() {
        actions.toggleTheme();
    }

    // ---- embedded cluster and recent connections

    /** A scenario file or folder chosen: the embedded cluster starts from it. */
    public void useScenarioPath(String path) {
        scenarioPath.set(path);
        scenario.set(Scenario.FILE);
    }

    public void startEmbedded() {
        if (!embeddedDisabled.get()) {
            actions.connect(new ConnectTarget.Embedded(scenario.get() == Scenario.DEMO ? "demo" : scenarioPath.get()),
                    mode.get(), Connector.MissingCrds.FAIL);
        }
    }

    public void setRecent(List<ConnectTarget> targets) {
        recent.setAll(targets);
    }

    public void connectRecent(ConnectTarget target) {
        if (target != null && !busy.get()) {
            actions.connect(target, mode.get(), Connector.MissingCrds.FAIL);
        }
    }

    // ---- the webhook address

    /** The eviction webhook host typed in; empty: chosen per cluster. */
    public Optional<String> webhookHost() {
        String text = webhookHost.get() == null ? "" : webhookHost.get().trim();
        return text.isEmpty() ? Optional.empty() : Optional.of(text);
    }

    /** Why the typed webhook host cannot be used (nothing typed is fine: automatic). */
    public Optional<String> webhookHostProblem() {
        return webhookHost().flatMap(WebhookAddress::problem);
    }

    public void setWebhookHost(String host) {
        webhookHost.set(host == null ? "" : host);
    }

    // ---- connecting

    public void showProgress(String message) {
        phase.set(Phase.CONNECTING);
        failure.set(null);
        progressText.set(message);
    }

    public void hideProgress() {
        if (phase.get() == Phase.CONNECTING) {
            phase.set(Phase.IDLE);
        }
    }

    /** Shows a failed connection and the ways forward it offers. */
    public void showError(ConnectTarget target, ModeChoice mode, ConnectError error) {
        failure.set(new Failure(target, mode, error));
        phase.set(Phase.FAILED);
    }

    public void hideError() {
        if (phase.get() == Phase.FAILED) {
            failure.set(null);
            phase.set(Phase.IDLE);
        }
    }

    /** One of the failure's ways forward: connect again as it says, or put the error away. */
    public void choose(Choice choice) {
        Failure f = failure.get();
        if (f == null) {
            return;
        }
        switch (choice) {
            case INSTALL_CRDS -> actions.connect(f.target(), f.mode(), Connector.MissingCrds.INSTALL);
            case CONNECT_WITHOUT_KUBEVIRT -> actions.connect(f.target(), f.mode(), Connector.MissingCrds.IGNORE);
            case RETRY -> actions.connect(f.target(), f.mode(), Connector.MissingCrds.FAIL);
            case DISMISS -> hideError();
        }
    }

    // ---- what the view shows and binds

    /** The contexts the search shows. */
    public ObservableList<ContextItem> contexts() {
        return visibleItems;
    }

    public StringProperty search() {
        return search;
    }

    public ObjectProperty<ContextItem> selected() {
        return selected;
    }

    /** Why a source could not be read, one line each. */
    public ObservableList<String> sourceProblems() {
        return sourceProblemsView;
    }

    public ObservableList<ConnectTarget> recent() {
        return recentView;
    }

    public ObjectProperty<ModeChoice> mode() {
        return mode;
    }

    public StringBinding modeHelp() {
        return modeHelp;
    }

    public ObjectProperty<Scenario> scenario() {
        return scenario;
    }

    public ReadOnlyStringProperty scenarioPath() {
        return scenarioPath.getReadOnlyProperty();
    }

    public StringProperty webhookHostText() {
        return webhookHost;
    }

    /** The line beside the webhook field: what it is for, or why the typed address is not usable. */
    public StringBinding webhookHelp() {
        return webhookHelp;
    }

    public BooleanBinding webhookHostBad() {
        return webhookHostBad;
    }

    /** Observe mode runs no webhook: there is no address to give. */
    public BooleanBinding webhookRowVisible() {
        return webhookRowVisible;
    }

    public ReadOnlyObjectProperty<Phase> phase() {
        return phase.getReadOnlyProperty();
    }

    public BooleanBinding busy() {
        return busy;
    }

    public ReadOnlyStringProperty progressText() {
        return progressText.getReadOnlyProperty();
    }

    /** The failed connection shown, null when none is. */
    public ReadOnlyObjectProperty<Failure> failure() {
        return failure.getReadOnlyProperty();
    }

    /** Why Connect cannot be pressed now; empty when it can. */
    public StringBinding connectBlocked() {
        return connectBlocked;
    }

    public BooleanBinding embeddedDisabled() {
        return embeddedDisabled;
    }
}
