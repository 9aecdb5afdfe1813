package dev.drainboard.ui.drain;

import dev.drainboard.units.GoDurations;

import dev.drainboard.ops.PodProgress;
import dev.drainboard.ui.model.WebhookStatus;

import dev.drainboard.ops.Blocker;
import dev.drainboard.ops.DrainPreview;
import dev.drainboard.ops.DrainProgress;
import dev.drainboard.ops.DrainResult;
import dev.drainboard.ops.PodOutcome;
import dev.drainboard.ops.PodProgress;
import dev.drainboard.ops.PodState;
import dev.drainboard.ui.common.Badge;
import dev.drainboard.ui.model.WebhookStatus;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/** The drain dialog's words, colours and sums, as pure functions of ops' records. */
public final class DrainSummary {

    private DrainSummary() {
    }

    /** Where a drain of one or several nodes stands, as the dialog's end banner says it. */
    public enum EndState {
        RUNNING("Draining"), DRAINED("Drained"), FAILED("Failed"), TIMED_OUT("Timed out"), CANCELLED("Cancelled"),
        /** Drained with "Allow stranded VMs": pods are gone but what had nowhere to run is left behind; never green. */
        STRANDED("Drained, VMs stranded");

        private final String label;

        EndState(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }
    }

    public static EndState endState(DrainProgress progress) {
        return progress.result().map(DrainSummary::endState).orElse(EndState.RUNNING);
    }

    /** As {@link #endState(DrainResult.Status)}, and STRANDED for a drained node that left something with nowhere to run. */
    public static EndState endState(DrainResult result) {
        return result.drained() && !result.stranded().isEmpty() ? EndState.STRANDED : endState(result.status());
    }

    public static EndState endState(DrainResult.Status status) {
        return switch (status) {
            case DRAINED, DRY_RUN -> EndState.DRAINED;
            case FAILED -> EndState.FAILED;
            case TIMED_OUT -> EndState.TIMED_OUT;
            case CANCELLED -> EndState.CANCELLED;
        };
    }

    /**
     * Several nodes drained as one operation: running while any runs; then failed if any failed, else timed out
     * if any timed out, else cancelled if any was, else drained. Never "drained" after a failure.
     */
    public static EndState overall(List<EndState> nodes) {
        if (nodes.isEmpty() || nodes.contains(EndState.RUNNING)) {
            return EndState.RUNNING;
        }
        for (EndState worst : List.of(EndState.FAILED, EndState.TIMED_OUT, EndState.CANCELLED, EndState.STRANDED)) {
            if (nodes.contains(worst)) {
                return worst;
            }
        }
        return EndState.DRAINED;
    }

    /** The node's bar: pods gone of pods to evict; full only when drained (an empty node is full once it ends). */
    public static double fraction(DrainProgress progress) {
        if (progress.result().filter(DrainResult::drained).isPresent()) {
            return 1.0;
        }
        if (progress.pods().isEmpty()) {
            return progress.phase() == DrainProgress.Phase.ENDED ? 0.0 : -1.0; // indeterminate while preparing
        }
        return (double) progress.count(PodState.GONE) / progress.pods().size();
    }

    /** One line under the node's bar. */
    public static String nodeLine(DrainProgress progress) {
        Optional<DrainResult> result = progress.result();
        if (result.isPresent()) {
            return result.get().why();
        }
        return switch (progress.phase()) {
            case PREPARING -> "Reading the node's pods…";
            case CORDONING -> "Cordoning…";
            case EVICTING, ENDED -> progress.count(PodState.GONE) + " of " + progress.pods().size() + " pods gone"
                    + waiting(progress);
        };
    }

    private static String waiting(DrainProgress progress) {
        long migrating = progress.count(PodState.WAITING_FOR_MIGRATION);
        long blocked = progress.count(PodState.BLOCKED);
        String text = "";
        if (migrating > 0) {
            text += " · " + migrating + " waiting for migration";
        }
        if (blocked > 0) {
            text += " · " + blocked + " blocked";
        }
        return text;
    }

    /** How wide a column of outcome badges must be for the longest to show whole. */
    public static double outcomeBadgeWidth() {
        return PodTables.outcomeBadgeWidth();
    }

    public static String outcomeLabel(PodOutcome outcome) {
        return switch (outcome) {
            case EVICTED -> "Evicted";
            case EVICTED_VM_RESTARTS -> "Evicted, VM restarts";
            case EVICTED_VMI_LOST -> "Evicted, VMI lost";
            case EVICTED_VMI_REPLACED -> "Evicted, VMI replaced";
            case LIVE_MIGRATION -> "Live migration";
            case EXTERNAL_EVACUATION -> "External evacuation";
            case BLOCKED_NOT_MIGRATABLE -> "Blocked: not migratable";
            case BLOCKED_BY_PDB -> "Blocked: PDB";
            case REFUSED -> "Refused";
            case SKIPPED_DAEMONSET -> "Stays (DaemonSet)";
            case SKIPPED_MIRROR -> "Stays (static pod)";
            case NEEDS_IGNORE_DAEMONSETS -> "Needs Ignore DaemonSets";
            case NEEDS_DELETE_EMPTYDIR_DATA -> "Needs Delete emptyDir data";
            case NEEDS_FORCE -> "Needs Force";
        };
    }

    public static Badge.Tone outcomeTone(PodOutcome outcome) {
        if (outcome.blocks() || outcome.effect() == PodOutcome.Effect.REFUSE_TO_START) {
            return Badge.Tone.DANGER;
        }
        return switch (outcome) {
            case LIVE_MIGRATION -> Badge.Tone.ACCENT;
            case EVICTED_VMI_LOST, EXTERNAL_EVACUATION -> Badge.Tone.WARNING;
            case SKIPPED_DAEMONSET, SKIPPED_MIRROR -> Badge.Tone.NEUTRAL;
            default -> Badge.Tone.SUCCESS;
        };
    }

    /** A preview row's style class: red for a pod that blocks or keeps the drain from starting, muted for one that stays. */
    public static Optional<String> previewRowStyle(PodOutcome outcome) {
        if (outcome.blocks() || outcome.effect() == PodOutcome.Effect.REFUSE_TO_START) {
            return Optional.of("row-danger");
        }
        return outcome.effect() == PodOutcome.Effect.SKIP ? Optional.of("row-muted") : Optional.empty();
    }

    public static String stateLabel(PodState state) {
        return switch (state) {
            case PENDING -> "Pending";
            case EVICTING -> "Evicting";
            case WAITING_FOR_MIGRATION -> "Waiting for migration";
            case BLOCKED -> "Blocked";
            case EVICTED -> "Terminating";
            case GONE -> "Gone";
            case FAILED -> "Failed";
        };
    }

    public static Badge.Tone stateTone(PodState state) {
        return switch (state) {
            case PENDING -> Badge.Tone.NEUTRAL;
            case EVICTING, WAITING_FOR_MIGRATION, EVICTED -> Badge.Tone.ACCENT;
            case BLOCKED -> Badge.Tone.WARNING;
            case GONE -> Badge.Tone.SUCCESS;
            case FAILED -> Badge.Tone.DANGER;
        };
    }

    public static Badge.Tone endTone(EndState state) {
        return switch (state) {
            case RUNNING -> Badge.Tone.ACCENT;
            case DRAINED -> Badge.Tone.SUCCESS;
            case FAILED, TIMED_OUT -> Badge.Tone.DANGER;
            case CANCELLED, STRANDED -> Badge.Tone.WARNING;
        };
    }

    /** "about 2 min 40 s at best" (the estimate is a floor). */
    static String estimateText(double seconds) {
        String left = dev.drainboard.ops.TimeLeftDecision.text(seconds);
        return "about " + left.substring(1, left.length() - " left".length()) + " at best";
    }

    /** {@code 6 pods: 3 evicted, 1 live migration, 2 stay · 1 blocker} for one node's preview. */
    public static String previewLine(DrainPreview preview) {
        long evict = preview.pods().stream().filter(p -> p.outcome().effect() == PodOutcome.Effect.EVICT).count();
        long migrate = preview.pods().stream().filter(p -> p.outcome() == PodOutcome.LIVE_MIGRATION).count();
        long stay = preview.pods().stream().filter(p -> p.outcome().effect() == PodOutcome.Effect.SKIP).count();
        long blockers = preview.pods().stream().filter(p -> p.outcome().blocks()).count();
        StringBuilder text = new StringBuilder(preview.node()).append(": ").append(preview.pods().size())
                .append(preview.pods().size() == 1 ? " pod" : " pods").append(" — ")
                .append(evict).append(" to evict");
        if (migrate > 0) {
            text.append(" (").append(migrate).append(" by live migration)");
        }
        text.append(", ").append(stay).append(" stay");
        if (preview.estimateSeconds() != null && preview.estimateSeconds() > 0) {
            // DrainEstimate's floor, the same figure as the CLI's dry run.
            text.append(" · live migrations ").append(estimateText(preview.estimateSeconds()));
        }
        if (blockers > 0) {
            text.append(" · ").append(blockers).append(blockers == 1 ? " blocker" : " blockers");
        }
        if (preview.blocked()) {
            long stranded = preview.blockers().stream().filter(b -> b.cause() == Blocker.Cause.NOWHERE_TO_RUN).count();
            long external = preview.blockers().stream().filter(b -> b.cause() == Blocker.Cause.EXTERNAL).count();
            long notMigratable = preview.blockers().stream().filter(b -> b.cause() == Blocker.Cause.NOT_MIGRATABLE).count();
            if (stranded > 0) {
                text.append(" · ").append(stranded).append(" with nowhere to run");
            }
            if (external > 0) {
                text.append(" · ").append(external).append(" External");
            }
            if (notMigratable > 0) {
                text.append(" · ").append(notMigratable).append(" not live-migratable");
            }
        }
        if (!preview.canStart()) {
            text.append(" · cannot start");
        }
        return text.toString();
    }

    /** kubectl's refusal names a command-line flag; the dialog says which box to tick. */
    public static String optionHint(String error) {
        if (error.contains("--ignore-daemonsets")) {
            return "Tick “Ignore DaemonSets” to leave these pods on the node.";
        }
        if (error.contains("--delete-emptydir-data")) {
            return "Tick “Delete emptyDir data” to evict them (their emptyDir data is lost).";
        }
        if (error.contains("--force")) {
            return "Tick “Force” to evict them (nothing recreates them).";
        }
        return "";
    }

    /**
     * The timeout field as kubectl's {@code --timeout} reads it (a Go duration: {@code 90s}, {@code 5m},
     * {@code 1h30m}); empty or {@code 0} for none. Empty result: not a duration.
     */
    public static Optional<Duration> parseTimeout(String text) {
        String t = text == null ? "" : text.strip();
        if (t.isEmpty()) {
            return Optional.of(Duration.ZERO);
        }
        try {
            // The same reading as `drainboard drain --timeout` and kubectl's: Go's duration syntax.
            return Optional.of(GoDurations.parse(t));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    /**
     * Launcher pods of VMIs refused by their PDBs while this console's eviction webhook, serving, has answered no
     * review: the cluster's API server does not reach the webhook (failurePolicy Ignore lets the eviction through to
     * the PDB), so nothing marks the VMIs and the drain would wait for ever. Says so, and the way out.
     */
    public static Optional<String> unreachableWebhookHint(WebhookStatus webhook, List<PodProgress> pods) {
        if (webhook == null || !webhook.serving() || webhook.answered() > 0) {
            return Optional.empty();
        }
        boolean launcherHeldByBudget = pods.stream().anyMatch(p -> p.preview() != null && p.preview().vmi() != null
                && p.lastCode() == 429 && p.lastMessage() != null && p.lastMessage().contains("disruption budget"));
        if (!launcherHeldByBudget) {
            return Optional.empty();
        }
        return Optional.of("This console's eviction webhook (" + webhook.url() + ") has answered no eviction: the "
                + "cluster's API server does not reach it, so no VMI is marked for evacuation and their pods wait on "
                + "their disruption budgets. Give a webhook address the API server can reach on the start screen "
                + "(or --webhook-host) and connect again."
                + (webhook.authenticated() ? " The webhook also refuses an API server that presents no client "
                + "certificate it trusts (" + webhook.callers() + "): check the webhook kubeconfig of the API server's "
                + "AdmissionConfiguration." : ""));
    }
}
