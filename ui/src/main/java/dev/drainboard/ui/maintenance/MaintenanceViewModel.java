package dev.drainboard.ui.maintenance;

import dev.drainboard.ui.model.MaintenancePlanRow;
import dev.drainboard.ui.model.MaintenanceRequest;
import javafx.beans.binding.Bindings;
import javafx.beans.binding.BooleanBinding;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.IntegerProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleIntegerProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * What the Maintenance view shows and does. The plans in the cluster (refreshed in place, so a selection survives)
 * and a draft: the operator's choices (nodes or a selector, nodes at once, the after-drain step), its problems and
 * the planner's preview of it, asked again whenever a choice changes (the latest answer wins). One plan is shown: the
 * selected one, or the draft's preview when none is. Run creates the draft's plan; Pause, Resume and Abort set
 * the shown plan's {@code spec.action}. Call it on the FX thread; the backend's futures complete there.
 */
public final class MaintenanceViewModel {

    /** After-drain choices, as the spec names them. */
    public static final List<String> AFTER_DRAIN = List.of("None", "Pause", "WaitForAnnotation");

    private final MaintenanceBackend backend;
    private final ObservableList<MaintenancePlanRow> plans = FXCollections.observableArrayList();
    private final ObjectProperty<String> selected = new SimpleObjectProperty<>();
    private final ReadOnlyObjectWrapper<MaintenancePlanRow> preview = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyObjectWrapper<MaintenancePlanRow> shown = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyStringWrapper notice = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper previewProblem = new ReadOnlyStringWrapper("");
    private final ReadOnlyBooleanWrapper busy = new ReadOnlyBooleanWrapper();
    private final ReadOnlyBooleanWrapper loading = new ReadOnlyBooleanWrapper();
    private final ReadOnlyObjectWrapper<List<String>> problems = new ReadOnlyObjectWrapper<>(List.of());

    // The draft.
    private final ObservableList<String> draftNodes = FXCollections.observableArrayList();
    private final BooleanProperty bySelector = new SimpleBooleanProperty();
    private final StringProperty selector = new SimpleStringProperty("");
    private final IntegerProperty maxUnavailable = new SimpleIntegerProperty(1);
    private final StringProperty afterDrain = new SimpleStringProperty("None");
    private final StringProperty pause = new SimpleStringProperty("10m");
    private final StringProperty annotation = new SimpleStringProperty("");
    private long previewAsked;

    public MaintenanceViewModel(MaintenanceBackend backend) {
        this.backend = Objects.requireNonNull(backend);
        draftNodes.addListener((javafx.collections.ListChangeListener<String>) c -> draftChanged());
        for (var p : List.of(bySelector, selector, maxUnavailable, afterDrain, pause, annotation)) {
            p.addListener((o, a, b) -> draftChanged());
        }
        selected.addListener((o, a, b) -> updateShown());
        preview.addListener((o, a, b) -> updateShown());
        draftChanged();
    }

    // ---- reads

    public ObservableList<MaintenancePlanRow> plans() {
        return plans;
    }

    /** The name of the selected plan; null for the draft. */
    public ObjectProperty<String> selected() {
        return selected;
    }

    /** The plan the chart and tables show: the selected one, or the draft's preview (null while there is none). */
    public ReadOnlyObjectProperty<MaintenancePlanRow> shown() {
        return shown.getReadOnlyProperty();
    }

    /** The draft's preview, null while it cannot be planned. */
    public ReadOnlyObjectProperty<MaintenancePlanRow> preview() {
        return preview.getReadOnlyProperty();
    }

    /** Why the draft cannot be planned as it stands, in the operator's words; empty when it can. */
    public ReadOnlyObjectProperty<List<String>> problems() {
        return problems.getReadOnlyProperty();
    }

    /** The planner's refusal of the draft (a bad selector, an unknown node), verbatim; empty when it answered. */
    public ReadOnlyStringProperty previewProblem() {
        return previewProblem.getReadOnlyProperty();
    }

    /** Why the plans cannot be read, or why the last action failed; empty when all is well. */
    public ReadOnlyStringProperty notice() {
        return notice.getReadOnlyProperty();
    }

    /** An action (run, pause, resume, abort) is on its way. */
    public ReadOnlyBooleanProperty busy() {
        return busy.getReadOnlyProperty();
    }

    public ReadOnlyBooleanProperty loading() {
        return loading.getReadOnlyProperty();
    }

    // ---- the draft

    public ObservableList<String> draftNodes() {
        return draftNodes;
    }

    /** The draft names its nodes by a label selector rather than a list. */
    public BooleanProperty bySelector() {
        return bySelector;
    }

    public StringProperty selector() {
        return selector;
    }

    public IntegerProperty maxUnavailable() {
        return maxUnavailable;
    }

    /** None, Pause or WaitForAnnotation. */
    public StringProperty afterDrain() {
        return afterDrain;
    }

    /** The pause after each drain, a Go duration; used when afterDrain is Pause. */
    public StringProperty pause() {
        return pause;
    }

    /** The annotation key that lets a node come back; used when afterDrain is WaitForAnnotation. */
    public StringProperty annotation() {
        return annotation;
    }

    /** The draft as a request. */
    public MaintenanceRequest request() {
        return new MaintenanceRequest(bySelector.get() ? List.of() : List.copyOf(draftNodes),
                bySelector.get() ? selector.get().trim() : "", maxUnavailable.get(), afterDrain.get(),
                pause.get().trim(), annotation.get().trim());
    }

    // ---- what can be done now

    /** Run: the draft is shown, can be planned, and the planner placed it. */
    public BooleanBinding canRun() {
        return Bindings.createBooleanBinding(() -> selected.get() == null && problems.get().isEmpty()
                && preview.get() != null && !busy.get() && backend.readOnlyReason().isEmpty(), selected, problems, preview, busy);
    }

    public BooleanBinding canPause() {
        return phaseIs(List.of("Running", "Planning"), "Run");
    }

    public BooleanBinding canResume() {
        return phaseIs(List.of("Paused"), "Pause");
    }

    public BooleanBinding canAbort() {
        return Bindings.createBooleanBinding(() -> {
            MaintenancePlanRow p = shownPlan();
            return p != null && !p.ended() && !"Abort".equals(p.action()) && !busy.get() && backend.readOnlyReason().isEmpty();
        }, shown, busy);
    }

    private BooleanBinding phaseIs(List<String> phases, String action) {
        return Bindings.createBooleanBinding(() -> {
            MaintenancePlanRow p = shownPlan();
            return p != null && phases.contains(p.phase()) && action.equals(p.action()) && !busy.get()
                    && backend.readOnlyReason().isEmpty();
        }, shown, busy);
    }

    /** The shown plan when it is one in the cluster, else null. */
    private MaintenancePlanRow shownPlan() {
        MaintenancePlanRow p = shown.get();
        return p == null || p.preview() ? null : p;
    }

    // ---- actions

    /** Reads the plans again; a refresh while one is under way is skipped. Completes when applied. */
    public CompletableFuture<Void> refresh() {
        if (loading.get()) {
            return CompletableFuture.completedFuture(null);
        }
        loading.set(true);
        return backend.plans().handle((fresh, error) -> {
            loading.set(false);
            if (error != null) {
                notice.set("Maintenance plans cannot be read: " + rootMessage(error));
            } else {
                if (notice.get().startsWith("Maintenance plans cannot be read")) {
                    notice.set("");
                }
                apply(fresh);
            }
            return null;
        });
    }

    /** Replaces changed plans in place, adds new ones, drops the deleted: newest first, as given. */
    void apply(List<MaintenancePlanRow> fresh) {
        Map<String, MaintenancePlanRow> byName = new HashMap<>();
        fresh.forEach(r -> byName.put(r.name(), r));
        plans.removeIf(r -> !byName.containsKey(r.name()));
        for (int i = 0; i < fresh.size(); i++) {
            MaintenancePlanRow row = fresh.get(i);
            int at = indexOf(row.name());
            if (at < 0) {
                plans.add(Math.min(i, plans.size()), row);
            } else if (!plans.get(at).equals(row)) {
                plans.set(at, row);
            }
        }
        if (selected.get() != null && indexOf(selected.get()) < 0) {
            selected.set(null); // deleted (kubectl delete mp …): back to the draft
        }
        updateShown();
    }

    /** Creates the draft's plan; once created, it is selected. Completes with its name, or null if refused. */
    public CompletableFuture<String> run() {
        if (!canRun().get()) {
            return CompletableFuture.completedFuture(null);
        }
        busy.set(true);
        return backend.create(request()).handle((name, error) -> {
            busy.set(false);
            if (error != null) {
                notice.set("The plan was not created: " + rootMessage(error));
                return null;
            }
            notice.set("");
            refresh().thenRun(() -> selected.set(name));
            selected.set(name);
            return name;
        });
    }

    public CompletableFuture<Void> pausePlan() {
        return act(canPause().get(), "Pause");
    }

    public CompletableFuture<Void> resume() {
        return act(canResume().get(), "Run");
    }

    /** Stops taking nodes; the executor cancels what is in flight and uncordons what the plan cordoned. Confirm first. */
    public CompletableFuture<Void> abort() {
        return act(canAbort().get(), "Abort");
    }

    private CompletableFuture<Void> act(boolean allowed, String action) {
        MaintenancePlanRow p = shownPlan();
        if (!allowed || p == null) {
            return CompletableFuture.completedFuture(null);
        }
        busy.set(true);
        return backend.setAction(p.name(), action).handle((ok, error) -> {
            busy.set(false);
            notice.set(error == null ? "" : "The plan " + p.name() + " was not changed: " + rootMessage(error));
            return null;
        }).thenCompose(x -> refresh());
    }

    // ---- internals

    private void draftChanged() {
        MaintenanceRequest r = request();
        List<String> found = PlanForm.problems(r);
        problems.set(found);
        long asked = ++previewAsked;
        if (!found.isEmpty()) {
            preview.set(null);
            previewProblem.set("");
            return;
        }
        backend.preview(r).whenComplete((plan, error) -> {
            if (asked != previewAsked) {
                return; // the draft changed since: a newer answer is on its way
            }
            if (error != null) {
                preview.set(null);
                previewProblem.set(rootMessage(error));
            } else {
                previewProblem.set("");
                preview.set(plan);
            }
        });
    }

    private void updateShown() {
        String name = selected.get();
        shown.set(name == null ? preview.get() : plans.stream().filter(p -> p.name().equals(name)).findFirst().orElse(null));
    }

    private int indexOf(String name) {
        for (int i = 0; i < plans.size(); i++) {
            if (plans.get(i).name().equals(name)) {
                return i;
            }
        }
        return -1;
    }

    static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t && (t instanceof CompletionException || t.getMessage() == null
                || t instanceof IllegalStateException && t.getCause().getMessage() != null
                && t.getMessage().equals(t.getCause().getMessage()))) {
            t = t.getCause();
        }
        return String.valueOf(t.getMessage());
    }
}
