package dev.drainboard.ui.drain;

import dev.drainboard.ops.DrainOptions;
import dev.drainboard.ops.DrainPreview;
import dev.drainboard.ops.DrainProgress;
import dev.drainboard.ops.DrainResult;
import dev.drainboard.ops.DrainWaits;
import dev.drainboard.ops.TimeLeftDecision;
import dev.drainboard.ops.PodOutcome;
import dev.drainboard.ui.actions.AccessDecision;
import dev.drainboard.ui.drain.DrainSummary.EndState;
import dev.drainboard.ui.model.WebhookStatus;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.beans.value.ObservableValue;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiConsumer;
import java.util.function.Supplier;

/**
 * The drain dialog's workflow, without a control in it: the options and their check, the preview (asked again when
 * an option it depends on changes; an answer to an older question is dropped), whether Drain may be pressed and if
 * not why, the run with each node's and each pod's progress, Cancel, and an end state that never says drained after
 * a failure.
 *
 * <p>Its state changes on the UI thread only: the backend's answers and the drains' progress (heard on the drains'
 * threads, the newest snapshot per node kept, one repaint per turn) are posted through the injected executor,
 * {@code Platform::runLater} in the console and inline in tests, which need no FX toolkit.
 */
public final class DrainDialogModel {

    /** Where the workflow is: choosing options and reading the preview, draining, or ended. */
    public enum Stage { PREVIEW, RUNNING, ENDED }

    /** Runs an action once the options have stood still for a moment (a typed selector asks one preview, not five). */
    @FunctionalInterface
    public interface Debounce {
        void request(Runnable action);
    }

    static final String TIMEOUT_PROBLEM = "not a duration (e.g. 90s, 5m)";
    static final String SUBTITLE = "Cordon, then evict every pod through the eviction API until it is gone. Nothing is written until you confirm.";
    static final String RUNNING_SUBTITLE = "Draining: pods are evicted through the eviction API; KubeVirt live-migrates the VMs that can move.";

    private final List<String> nodes;
    private final DrainBackend backend;
    private final ObservableValue<AccessDecision> access;
    private final Supplier<WebhookStatus> webhook;
    private final BiConsumer<EndState, List<DrainResult>> onEnded;
    private final Executor ui;
    private final Debounce debounce;

    private final BooleanProperty ignoreDaemonSets = new SimpleBooleanProperty(this, "ignoreDaemonSets");
    private final BooleanProperty deleteEmptyDirData = new SimpleBooleanProperty(this, "deleteEmptyDirData");
    private final BooleanProperty force = new SimpleBooleanProperty(this, "force");
    private final BooleanProperty allowStranded = new SimpleBooleanProperty(this, "allowStranded");
    private final BooleanProperty externalHandled = new SimpleBooleanProperty(this, "externalHandled");
    private final ReadOnlyStringWrapper timeLeft = new ReadOnlyStringWrapper(this, "timeLeft", "");
    private final ObservableList<String> marked = FXCollections.observableArrayList();
    private final ObservableList<String> markedView = FXCollections.unmodifiableObservableList(marked);
    private final ReadOnlyStringWrapper marksText = new ReadOnlyStringWrapper(this, "marksText", "");
    private DrainWaits waits = DrainWaits.NONE;
    private boolean waitsInFlight;
    private final ReadOnlyBooleanWrapper blocked = new ReadOnlyBooleanWrapper(this, "blocked");
    private final ObjectProperty<Integer> gracePeriod = new SimpleObjectProperty<>(this, "gracePeriod", -1);
    private final StringProperty timeout = new SimpleStringProperty(this, "timeout", "");
    private final StringProperty podSelector = new SimpleStringProperty(this, "podSelector", "");
    private final ReadOnlyStringWrapper timeoutProblem = new ReadOnlyStringWrapper(this, "timeoutProblem", "");

    private final ReadOnlyObjectWrapper<Stage> stage = new ReadOnlyObjectWrapper<>(this, "stage", Stage.PREVIEW);
    private final ReadOnlyStringWrapper title;
    private final ReadOnlyStringWrapper subtitle = new ReadOnlyStringWrapper(this, "subtitle", SUBTITLE);
    private final ReadOnlyStringWrapper status = new ReadOnlyStringWrapper(this, "status", "");
    private final ReadOnlyBooleanWrapper startDisabled = new ReadOnlyBooleanWrapper(this, "startDisabled", true);
    private final ReadOnlyBooleanWrapper cancelRunDisabled = new ReadOnlyBooleanWrapper(this, "cancelRunDisabled", false);
    private final ObservableList<String> previewLines = FXCollections.observableArrayList();
    // Kept: an unmodifiable view listens to its list weakly, so one made per call could stop telling its listeners.
    private final ObservableList<String> previewLinesView = FXCollections.unmodifiableObservableList(previewLines);
    private final ObservableList<String> problems = FXCollections.observableArrayList();
    private final ObservableList<String> problemsView = FXCollections.unmodifiableObservableList(problems);
    private final ObservableList<PodLine> previewRows = FXCollections.observableArrayList();
    private final ObservableList<PodLine> previewRowsView = FXCollections.unmodifiableObservableList(previewRows);
    private final ObservableList<PodLine> progressRows = FXCollections.observableArrayList();
    private final ObservableList<PodLine> progressRowsView = FXCollections.unmodifiableObservableList(progressRows);
    private final ObservableList<NodeStatus> nodeStatuses = FXCollections.observableArrayList();
    private final ObservableList<NodeStatus> nodeStatusesView = FXCollections.unmodifiableObservableList(nodeStatuses);
    private final ReadOnlyStringWrapper webhookHint = new ReadOnlyStringWrapper(this, "webhookHint", "");
    private final ReadOnlyStringWrapper endText = new ReadOnlyStringWrapper(this, "endText", "");
    private final ReadOnlyObjectWrapper<EndState> endState = new ReadOnlyObjectWrapper<>(this, "endState");

    private final Map<String, DrainProgress> latest = new ConcurrentHashMap<>();
    private final AtomicBoolean repaintQueued = new AtomicBoolean();
    private List<DrainPreview> previews = List.of();
    private String previewError;
    private boolean previewLoading;
    private long previewToken;
    private DrainBackend.Run run;

    /**
     * Asks the first preview at once.
     *
     * @param access   whether the connection may drain (patch nodes, create pods/eviction)
     * @param webhook  this console's eviction webhook now (to tell when the cluster cannot reach it)
     * @param onEnded  called once, on the UI thread, when every node's drain has ended
     * @param ui       runs on the UI thread: {@code Platform::runLater} in the console
     * @param debounce delays the preview after an option changed
     */
    public DrainDialogModel(List<String> nodes, DrainBackend backend, ObservableValue<AccessDecision> access,
                            Supplier<WebhookStatus> webhook, BiConsumer<EndState, List<DrainResult>> onEnded,
                            Executor ui, Debounce debounce) {
        this.nodes = List.copyOf(nodes);
        this.backend = backend;
        this.access = access;
        this.webhook = webhook;
        this.onEnded = onEnded;
        this.ui = ui;
        this.debounce = debounce;
        this.title = new ReadOnlyStringWrapper(this, "title", title(this.nodes));
        for (BooleanProperty box : List.of(ignoreDaemonSets, deleteEmptyDirData, force, externalHandled)) {
            box.addListener((obs, o, n) -> debounce.request(this::refreshPreview));
        }
        podSelector.addListener((obs, o, n) -> debounce.request(this::refreshPreview));
        gracePeriod.addListener((obs, o, n) -> updateStart());
        // The blockers do not depend on it: no new preview, only whether Drain may be pressed.
        allowStranded.addListener((obs, o, n) -> showPreview());
        timeout.addListener((obs, o, n) -> {
            timeoutProblem.set(DrainSummary.parseTimeout(n).isPresent() ? "" : TIMEOUT_PROBLEM);
            updateStart();
        });
        access.addListener((obs, old, now) -> updateStart());
        refreshPreview();
    }

    static String title(List<String> nodes) {
        return nodes.size() == 1 ? "Drain " + nodes.getFirst() : "Drain " + nodes.size() + " nodes: " + String.join(", ", nodes);
    }

    // ---- options

    /** The options as chosen; empty while the timeout is not a duration. */
    public Optional<DrainOptions> options() {
        return DrainSummary.parseTimeout(timeout.get()).map(this::chosen);
    }

    private DrainOptions chosen(java.time.Duration timeout) {
        Integer g = gracePeriod.get();
        return DrainOptions.defaults()
                .withIgnoreDaemonSets(ignoreDaemonSets.get())
                .withDeleteEmptyDirData(deleteEmptyDirData.get())
                .withForce(force.get())
                .withGracePeriodSeconds(g == null ? -1 : g)
                .withTimeout(timeout)
                .withPodSelector(podSelector.get())
                .withAllowStranded(allowStranded.get())
                .withExternalHandled(externalHandled.get());
    }

    // ---- preview

    private void refreshPreview() {
        if (stage.get() != Stage.PREVIEW) {
            return;
        }
        long mine = ++previewToken;
        previewLoading = true;
        status.set("Reading the " + (nodes.size() == 1 ? "node's" : "nodes'") + " pods…");
        updateStart();
        // A timeout being typed does not change what the preview shows: the boxes ticked still count.
        DrainOptions options = chosen(DrainSummary.parseTimeout(timeout.get()).orElse(java.time.Duration.ZERO));
        backend.preview(nodes, options).whenComplete((result, error) -> ui.execute(() -> {
            if (mine != previewToken || stage.get() != Stage.PREVIEW) {
                return; // a newer preview was asked, or the drain started
            }
            previewLoading = false;
            previews = error == null ? result : List.of();
            previewError = error == null ? null : message(error);
            showPreview();
        }));
    }

    private void showPreview() {
        List<String> lines = new ArrayList<>();
        List<PodLine> rows = new ArrayList<>();
        List<String> errors = new ArrayList<>();
        if (previewError != null) {
            errors.add(previewError);
        }
        for (DrainPreview p : previews) {
            lines.add(DrainSummary.previewLine(p));
            p.pods().forEach(pod -> rows.add(PodLine.of(p.node(), pod)));
            for (String error : p.errors()) {
                String hint = DrainSummary.optionHint(error);
                errors.add((nodes.size() > 1 ? p.node() + ": " : "") + error + (hint.isEmpty() ? "" : "\n" + hint));
            }
        }
        List<String> blockerLines = new ArrayList<>();
        for (DrainPreview p : previews) {
            p.blockers().forEach(b -> blockerLines.add((nodes.size() > 1 ? p.node() + ": " : "") + b.kind() + " " + b.key()
                    + ": " + b.reason()));
        }
        blocked.set(!blockerLines.isEmpty());
        if (!blockerLines.isEmpty()) {
            errors.add(blockerLines.size() + (blockerLines.size() == 1 ? " blocker" : " blockers")
                    + ": the drain does not start unless \"Allow stranded VMs\" is ticked.");
            errors.addAll(blockerLines);
        }
        previewLines.setAll(lines);
        problems.setAll(errors);
        previewRows.setAll(rows);
        long blockers = rows.stream().filter(r -> r.outcome().blocks()).count();
        if (previewError != null) {
            status.set("The preview could not be read.");
        } else if (previews.stream().anyMatch(p -> !p.canStart())) {
            status.set("The drain cannot start as the options stand.");
        } else if (!blockerLines.isEmpty()) {
            status.set(allowStranded.get()
                    ? "Allowed: " + blockerLines.size() + " stranded or waiting on something outside KubeVirt; the end will name them."
                    : blockerLines.size() + (blockerLines.size() == 1 ? " blocker keeps" : " blockers keep")
                    + " the drain from starting: tick \"Allow stranded VMs\" to drain anyway.");
        } else if (blockers > 0) {
            status.set(blockers + (blockers == 1 ? " pod blocks" : " pods block")
                    + " the drain for now: it will wait (and time out if a timeout is set).");
        } else {
            status.set("Ready: " + rows.stream().filter(r -> r.outcome().effect() == PodOutcome.Effect.EVICT).count()
                    + " pods to evict.");
        }
        updateStart();
    }

    /** Drain may be pressed once a preview without errors is in, the options are valid and access permits it. */
    private void updateStart() {
        AccessDecision decision = access.getValue();
        boolean preview = stage.get() == Stage.PREVIEW;
        boolean canStart = preview && !previewLoading && previewError == null && !previews.isEmpty()
                && previews.stream().allMatch(DrainPreview::canStart) && options().isPresent()
                && (allowStranded.get() || previews.stream().noneMatch(DrainPreview::blocked))
                && decision != null && decision.permits();
        startDisabled.set(!canStart);
        if (decision != null && !decision.permits() && preview && !previewLoading) {
            status.set(decision.reason());
        }
    }

    // ---- running

    /** Starts the drain with the options as they stand; does nothing while Drain may not be pressed. */
    public void start() {
        Optional<DrainOptions> options = options();
        if (options.isEmpty() || stage.get() != Stage.PREVIEW || startDisabled.get()) {
            return;
        }
        stage.set(Stage.RUNNING);
        subtitle.set(RUNNING_SUBTITLE);
        nodeStatuses.setAll(nodes.stream().map(NodeStatus::starting).toList());
        status.set("Starting…");
        cancelRunDisabled.set(true);
        backend.drain(nodes, options.get(), this::onProgress).whenComplete((started, error) -> ui.execute(() -> {
            if (error != null) {
                // Each node's result carries the reason, so the end banner and the notification both say it.
                String why = "could not start: " + message(error);
                ended(EndState.FAILED, nodes.stream().map(n -> new DrainResult(n, DrainResult.Status.FAILED, why, List.of())).toList());
                return;
            }
            run = started;
            cancelRunDisabled.set(false);
            status.set("Draining. Hide keeps it running; you are told when it ends.");
            started.ended().thenAccept(results -> ui.execute(() -> {
                repaint();
                ended(DrainSummary.overall(results.stream().map(DrainSummary::endState).toList()), results);
            }));
        }));
    }

    /** On a drain's thread: keep the newest snapshot, repaint once per UI turn. */
    private void onProgress(DrainProgress progress) {
        latest.put(progress.node(), progress);
        if (repaintQueued.compareAndSet(false, true)) {
            ui.execute(() -> {
                repaintQueued.set(false);
                repaint();
            });
        }
    }

    private void repaint() {
        List<PodLine> rows = new ArrayList<>();
        List<NodeStatus> bars = new ArrayList<>(nodeStatuses);
        for (int i = 0; i < nodes.size(); i++) {
            String node = nodes.get(i);
            DrainProgress p = latest.get(node);
            if (p == null) {
                continue;
            }
            bars.set(i, NodeStatus.of(p));
            p.pods().forEach(pod -> rows.add(PodLine.of(node, pod, waits)));
        }
        nodeStatuses.setAll(bars);
        progressRows.setAll(rows);
        // Kept after the end: it says why the drain did not get on.
        webhookHint.set(DrainSummary.unreachableWebhookHint(webhook.get(),
                latest.values().stream().flatMap(p -> p.pods().stream()).toList()).orElse(""));
    }

    /**
     * Reads why the drain's migrations wait and how long they still take, then repaints (the dialog asks every few
     * seconds while the drain runs); a question still out is not asked twice, and a failed read keeps the last answer.
     */
    public void refreshWaits() {
        List<DrainPreview> running = latest.values().stream().map(DrainProgress::preview).filter(java.util.Objects::nonNull).toList();
        if (stage.get() != Stage.RUNNING || running.isEmpty() || waitsInFlight) {
            return;
        }
        waitsInFlight = true;
        ask(() -> backend.waits(running)).whenComplete((answer, error) -> ui.execute(() -> {
            waitsInFlight = false;
            if (error != null || stage.get() != Stage.RUNNING) {
                return;
            }
            waits = answer;
            timeLeft.set(answer.secondsLeft() > 0 ? "Live migrations: " + TimeLeftDecision.text(answer.secondsLeft()) : "");
            repaint();
        }));
    }

    /** Clears the evacuation marks the drain left (end state, after a cancel or a timeout). */
    public void clearEvacuationMarks() {
        if (stage.get() != Stage.ENDED || marked.isEmpty()) {
            return;
        }
        marksText.set("Clearing the marks…");
        ask(() -> backend.clearEvacuationMarks(nodes)).whenComplete((messages, error) -> ui.execute(() -> {
            if (error != null) {
                marksText.set("Cannot clear the marks: " + message(error));
                return;
            }
            marked.clear();
            marksText.set(String.join("\n", messages));
        }));
    }

    /** A backend question that cannot even be asked (the connection closed) is a failed answer, not a throw. */
    private static <T> java.util.concurrent.CompletableFuture<T> ask(Supplier<java.util.concurrent.CompletableFuture<T>> question) {
        try {
            return question.get();
        } catch (RuntimeException e) {
            return java.util.concurrent.CompletableFuture.failedFuture(e);
        }
    }

    private void readMarks() {
        ask(() -> backend.markedForEvacuation(nodes)).whenComplete((found, error) -> ui.execute(() -> {
            if (error != null || found.isEmpty()) {
                return;
            }
            marked.setAll(found);
            marksText.set(found.size() + (found.size() == 1 ? " VMI is" : " VMIs are") + " still marked for evacuation "
                    + "(KubeVirt keeps migrating them while marked): " + String.join(", ", found));
        }));
    }

    /** Cancel drain: every node's drain stops; the nodes stay cordoned. */
    public void cancelDrain() {
        if (stage.get() != Stage.RUNNING || run == null) {
            return;
        }
        cancelRunDisabled.set(true);
        status.set("Cancelling… evictions already accepted stand; the nodes stay cordoned.");
        run.cancel();
    }

    /** Cancels the drain if it runs (the connection is closing). */
    public void cancelRunning() {
        if (stage.get() == Stage.RUNNING && run != null) {
            run.cancel();
        }
    }

    private void ended(EndState state, List<DrainResult> results) {
        if (stage.get() == Stage.ENDED) {
            return;
        }
        String text = switch (state) {
            case DRAINED -> nodes.size() == 1 ? nodes.getFirst() + " drained: every evicted pod is gone." : "All " + nodes.size() + " nodes drained.";
            case FAILED -> "Drain failed.";
            case TIMED_OUT -> "Drain timed out.";
            case CANCELLED -> "Drain cancelled: the " + (nodes.size() == 1 ? "node stays" : "nodes stay") + " cordoned.";
            case STRANDED -> "Drained, but not everything has somewhere to run.";
            case RUNNING -> "";
        };
        List<String> why = results.stream().filter(r -> !r.clean()).map(r -> r.node() + ": " + r.why()).toList();
        stage.set(Stage.ENDED);
        endText.set(EndState.DRAINED == state || why.isEmpty() ? text : text + "\n" + String.join("\n", why));
        title.set(title(nodes) + " — " + state.label().toLowerCase(Locale.ROOT));
        status.set("");
        endState.set(state);
        timeLeft.set("");
        if (state != EndState.DRAINED && state != EndState.STRANDED) {
            readMarks();
        }
        onEnded.accept(state, results);
    }

    private static String message(Throwable error) {
        Throwable t = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
        return t.getMessage();
    }

    // ---- what the view shows and binds

    public List<String> nodes() {
        return nodes;
    }

    public boolean running() {
        return stage.get() == Stage.RUNNING;
    }

    /** The Drain button's label. */
    public String startLabel() {
        return nodes.size() == 1 ? "Drain " + nodes.getFirst() : "Drain " + nodes.size() + " nodes";
    }

    public BooleanProperty ignoreDaemonSets() {
        return ignoreDaemonSets;
    }

    public BooleanProperty deleteEmptyDirData() {
        return deleteEmptyDirData;
    }

    public BooleanProperty force() {
        return force;
    }

    /** Seconds; -1: each pod's own. */
    /** Drain even though the preview has blockers ({@code --allow-stranded}). */
    public BooleanProperty allowStranded() {
        return allowStranded;
    }

    /** VMIs with strategy External are moved by something outside KubeVirt: not blockers ({@code --external-handled}). */
    public BooleanProperty externalHandled() {
        return externalHandled;
    }

    /** "Live migrations: ~2 min 40 s left" while the drain runs and migrations remain; empty otherwise. */
    public ReadOnlyStringProperty timeLeft() {
        return timeLeft.getReadOnlyProperty();
    }

    /** The VMIs ({@code namespace/name}) the ended drain left marked for evacuation; empty once cleared. */
    public ObservableList<String> marked() {
        return markedView;
    }

    /** What the end state says of the marks: which are left, or what clearing them did. */
    public ReadOnlyStringProperty marksText() {
        return marksText.getReadOnlyProperty();
    }

    /** Whether the preview has blockers (the "Allow stranded VMs" box shows then). */
    public ReadOnlyBooleanProperty blocked() {
        return blocked.getReadOnlyProperty();
    }

    public ObjectProperty<Integer> gracePeriod() {
        return gracePeriod;
    }

    /** As kubectl's {@code --timeout} reads it; empty or 0: none. */
    public StringProperty timeout() {
        return timeout;
    }

    public StringProperty podSelector() {
        return podSelector;
    }

    /** Why the timeout is not usable; empty when it is. */
    public ReadOnlyStringProperty timeoutProblem() {
        return timeoutProblem.getReadOnlyProperty();
    }

    public ReadOnlyObjectProperty<Stage> stage() {
        return stage.getReadOnlyProperty();
    }

    public ReadOnlyStringProperty title() {
        return title.getReadOnlyProperty();
    }

    public ReadOnlyStringProperty subtitle() {
        return subtitle.getReadOnlyProperty();
    }

    /** The line at the bottom left: what is happening, or why Drain cannot be pressed. */
    public ReadOnlyStringProperty status() {
        return status.getReadOnlyProperty();
    }

    public ReadOnlyBooleanProperty startDisabled() {
        return startDisabled.getReadOnlyProperty();
    }

    public ReadOnlyBooleanProperty cancelRunDisabled() {
        return cancelRunDisabled.getReadOnlyProperty();
    }

    /** One line per node: how many pods, what happens to them, blockers. */
    public ObservableList<String> previewLines() {
        return previewLinesView;
    }

    /** Why the drain cannot start: the preview's error, kubectl's refusals and which box to tick. */
    public ObservableList<String> problems() {
        return problemsView;
    }

    ObservableList<PodLine> previewRows() {
        return previewRowsView;
    }

    ObservableList<PodLine> progressRows() {
        return progressRowsView;
    }

    /** One per node once the drain runs, in the dialog's order. */
    public ObservableList<NodeStatus> nodeStatuses() {
        return nodeStatusesView;
    }

    /** Why the drain does not get on when the cluster cannot reach this console's webhook; empty otherwise. */
    public ReadOnlyStringProperty webhookHint() {
        return webhookHint.getReadOnlyProperty();
    }

    /** The end banner: how it ended and, unless drained, each node's why. */
    public ReadOnlyStringProperty endText() {
        return endText.getReadOnlyProperty();
    }

    /** The end state, null until it has ended. */
    public ReadOnlyObjectProperty<EndState> endState() {
        return endState.getReadOnlyProperty();
    }
}
