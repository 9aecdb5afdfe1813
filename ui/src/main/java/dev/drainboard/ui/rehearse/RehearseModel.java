package dev.drainboard.ui.rehearse;

import dev.drainboard.kubevirt.config.ClusterConfig;
import dev.drainboard.ui.connect.ConnectTarget;
import javafx.beans.binding.Bindings;
import javafx.beans.binding.BooleanBinding;
import javafx.beans.binding.StringBinding;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Consumer;

/**
 * "Rehearse on a copy" without its controls: the time scale typed (checked as it is typed), then a snapshot of the
 * connected cluster into a fresh folder and an embedded cluster serving it at that scale. The real connection stays in
 * Recent (the console remembers every connection it opened). Needs no FX toolkit; results are handed back through
 * the executor given (the FX thread in the console, the caller's thread in tests).
 */
public final class RehearseModel {

    /** What the model asks of the console. */
    public interface Actions {
        /** Takes a snapshot of the connected cluster into a new folder, off the FX thread. */
        CompletableFuture<Snapshot> snapshot();

        /** Disconnects and opens the copy (the real connection is already in Recent). */
        void open(ConnectTarget.Embedded copy);
    }

    /** A snapshot written: where, and the kinds it could not read (empty when complete). */
    public record Snapshot(Path folder, List<String> unreadable) {
        public Snapshot {
            unreadable = List.copyOf(unreadable);
        }
    }

    /** Nothing asked yet, copying, opening the copy, or failed (its message shown). */
    public enum Phase { IDLE, COPYING, OPENING, FAILED }

    static final String DEFAULT_TIME_SCALE = "10";

    private final Actions actions;
    private final Consumer<Runnable> onFx;
    private final String server;
    private final StringProperty timeScale = new SimpleStringProperty(this, "timeScale", DEFAULT_TIME_SCALE);
    private final ReadOnlyObjectWrapper<Phase> phase = new ReadOnlyObjectWrapper<>(this, "phase", Phase.IDLE);
    private final ReadOnlyStringWrapper message = new ReadOnlyStringWrapper(this, "message", "");
    private final StringBinding timeScaleProblem = Bindings.createStringBinding(() -> problem(timeScale.get()).orElse(""), timeScale);
    private final StringBinding timeScaleHelp = Bindings.createStringBinding(() -> help(timeScale.get()), timeScale);
    private final BooleanBinding canStart = Bindings.createBooleanBinding(
            () -> problem(timeScale.get()).isEmpty() && phase.get() != Phase.COPYING && phase.get() != Phase.OPENING,
            timeScale, phase);

    /**
     * @param server the connected cluster's API server, for the texts
     * @param onFx   runs a result on the UI thread
     */
    public RehearseModel(String server, Actions actions, Consumer<Runnable> onFx) {
        this.server = server;
        this.actions = actions;
        this.onFx = onFx;
    }

    public String server() {
        return server;
    }

    public StringProperty timeScaleProperty() {
        return timeScale;
    }

    /** Why the time scale typed cannot be used; empty when it can. */
    public StringBinding timeScaleProblemProperty() {
        return timeScaleProblem;
    }

    /** What the typed scale means, e.g. "A 2-hour window rehearses in 12 minutes." */
    public StringBinding timeScaleHelpProperty() {
        return timeScaleHelp;
    }

    public BooleanBinding canStartProperty() {
        return canStart;
    }

    public ReadOnlyObjectProperty<Phase> phaseProperty() {
        return phase.getReadOnlyProperty();
    }

    public ReadOnlyStringProperty messageProperty() {
        return message.getReadOnlyProperty();
    }

    static Optional<String> problem(String text) {
        if (text == null || text.isBlank()) {
            return Optional.of("Type how many times faster than real time the copy runs, e.g. 10.");
        }
        if (ClusterConfig.parseTimeScale(text).isEmpty()) {
            return Optional.of("Not a time scale: a number above 0 and at most " + (long) ClusterConfig.MAX_TIME_SCALE
                    + " (1 is real time), e.g. 10 or 2.5.");
        }
        return Optional.empty();
    }

    static String help(String text) {
        Optional<Double> scale = ClusterConfig.parseTimeScale(text);
        if (scale.isEmpty()) {
            return "";
        }
        if (scale.get() == 1.0) {
            return "The copy runs at real time.";
        }
        long minutes = Math.round(120 / scale.get());
        return "Boots, migrations, grace periods and KubeVirt's timeouts run " + text.trim()
                + " times faster: a 2-hour window rehearses in " + (minutes < 1 ? "under a minute" : minutes + (minutes == 1 ? " minute" : " minutes"))
                + ". Durations measured on the copy × " + text.trim() + " are real time.";
    }

    /** Copies the cluster, then opens the copy. Refused (nothing done) while the scale is not usable or busy. */
    public void start() {
        if (!canStart.get()) {
            return;
        }
        double scale = ClusterConfig.parseTimeScale(timeScale.get()).orElseThrow();
        phase.set(Phase.COPYING);
        message.set("Copying " + server + " (nodes, VMs, VMIs, pods, PDBs, storage, KubeVirt settings; no Secrets)…");
        actions.snapshot().whenComplete((snapshot, error) -> onFx.accept(() -> {
            if (error != null) {
                Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
                phase.set(Phase.FAILED);
                message.set("The copy could not be taken: " + (cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getMessage())
                        + ". Nothing was started; the cluster was only read.");
                return;
            }
            phase.set(Phase.OPENING);
            message.set((snapshot.unreadable().isEmpty() ? "Copied to " + snapshot.folder()
                    : "Copied to " + snapshot.folder() + ", without what could not be read: " + String.join("; ", snapshot.unreadable()))
                    + ". Starting the copy…");
            actions.open(new ConnectTarget.Embedded(snapshot.folder().toString(), scale));
        }));
    }
}
