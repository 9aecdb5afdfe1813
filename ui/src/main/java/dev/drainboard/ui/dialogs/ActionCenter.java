package dev.drainboard.ui.dialogs;

import dev.drainboard.ops.DrainResult;
import dev.drainboard.ui.actions.ActionResult;
import dev.drainboard.ui.actions.ClusterActions;
import dev.drainboard.ui.actions.FailedMigrations;
import dev.drainboard.ui.actions.LauncherPod;
import dev.drainboard.ui.actions.Permissions;
import dev.drainboard.ui.common.Badge;
import dev.drainboard.ui.common.DialogCard;
import dev.drainboard.ui.common.DialogHost;
import dev.drainboard.ui.common.Notifier;
import dev.drainboard.ui.drain.DrainDialog;
import dev.drainboard.ui.drain.DrainSummary;
import dev.drainboard.ui.model.ClusterModel;
import dev.drainboard.ui.model.MigrationRow;
import dev.drainboard.ui.model.NodeRow;
import dev.drainboard.ui.model.ReplicaSetRow;
import dev.drainboard.ui.model.VmRow;
import dev.drainboard.ui.model.VmiRow;
import dev.drainboard.ui.model.WebhookStatus;
import dev.drainboard.ui.shell.CommandPalette;
import javafx.collections.ListChangeListener;
import javafx.scene.Node;
import javafx.scene.control.ContextMenu;
import org.kordamp.ikonli.material2.Material2AL;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Every operator action of one connection, wherever it starts (a table's toolbar or key, a tile's context menu, the
 * command palette): confirmed in a dialog, run off the FX thread by {@link ClusterActions}, its outcome shown as a
 * toast with the API server's words. Also tells the operator when a drain ends and when a migration fails.
 */
public final class ActionCenter implements AutoCloseable {

    /** Nothing will happen to these any more ("Cancelled": deleted before it finished, kept in the list). */
    private static final Set<String> FINISHED_MIGRATION = Set.of("Succeeded", "Failed", "Cancelled");

    private final ClusterActions actions;
    private final ClusterModel model;
    private final Supplier<WebhookStatus> webhook;
    private final DialogHost dialogs = new DialogHost();
    private final Notifier notifier = new Notifier();
    private final ActionSet<NodeRow> nodeActions;
    private final ActionSet<VmiRow> vmiActions;
    private final ActionSet<VmRow> vmActions;
    private final ActionSet<MigrationRow> migrationActions;
    private final FailedMigrations failedMigrations = new FailedMigrations();
    private final List<DrainDialog> drains = new ArrayList<>();
    private final ActionSet<ReplicaSetRow> replicaSetActions;

    public ActionCenter(ClusterActions actions, ClusterModel model) {
        this(actions, model, () -> WebhookStatus.NOT_SERVING);
    }

    /** @param webhook this console's eviction webhook now (the drain dialog tells when the cluster cannot reach it) */
    public ActionCenter(ClusterActions actions, ClusterModel model, Supplier<WebhookStatus> webhook) {
        this.actions = Objects.requireNonNull(actions);
        this.model = model;
        this.webhook = Objects.requireNonNull(webhook);
        Consumer<String> refused = why -> notifier.show(Badge.Tone.WARNING, "Not done", why);
        nodeActions = new ActionSet<NodeRow>(actions.permissions(), refused)
                .add(ConsoleAction.CORDON, rows -> rows.isEmpty() ? "select a node" : null, rows -> "", this::cordon)
                .add(ConsoleAction.UNCORDON, rows -> rows.isEmpty() ? "select a node" : null, rows -> "", this::uncordon)
                .add(ConsoleAction.DRAIN, rows -> rows.isEmpty() ? "select one or more nodes" : null, rows -> "", this::drain)
                .add(ConsoleAction.TAINT, rows -> rows.size() == 1 ? null : "select one node", rows -> "",
                        rows -> taint(rows.getFirst()));
        vmiActions = new ActionSet<VmiRow>(actions.permissions(), refused)
                .add(ConsoleAction.EVICT, rows -> rows.size() != 1 ? "select one VMI"
                                : rows.getFirst().node().isEmpty() ? "the VMI runs on no node" : null,
                        ActionCenter::namespaceOf, rows -> evict(rows.getFirst()))
                .add(ConsoleAction.MIGRATE, rows -> rows.size() != 1 ? "select one VMI"
                                : !"Running".equals(rows.getFirst().phase()) ? "the VMI is not running" : null,
                        ActionCenter::namespaceOf, rows -> migrate(rows.getFirst()))
                .add(ConsoleAction.CANCEL_EVACUATION, rows -> rows.size() != 1 ? "select one VMI"
                                : !rows.getFirst().markedForEvacuation() ? "the VMI is not marked for evacuation" : null,
                        ActionCenter::namespaceOf, rows -> cancelEvacuation(rows.getFirst()))
                .add(ConsoleAction.MIGRATE_TO_NODE, rows -> rows.size() != 1 ? "select one VMI"
                                : !"Running".equals(rows.getFirst().phase()) ? "the VMI is not running" : null,
                        ActionCenter::namespaceOf, rows -> migrateToNode(rows.getFirst()));
        vmActions = new ActionSet<VmRow>(actions.permissions(), refused)
                .add(ConsoleAction.START_VM, rows -> rows.size() != 1 ? "select one VM" : null,
                        rows -> rows.isEmpty() ? "" : rows.getFirst().namespace(), rows -> startVm(rows.getFirst()))
                .add(ConsoleAction.STOP_VM, rows -> rows.size() != 1 ? "select one VM" : null,
                        rows -> rows.isEmpty() ? "" : rows.getFirst().namespace(), rows -> stopVm(rows.getFirst()))
                .add(ConsoleAction.RESTART_VM, rows -> rows.size() != 1 ? "select one VM" : null,
                        rows -> rows.isEmpty() ? "" : rows.getFirst().namespace(), rows -> restartVm(rows.getFirst()));
        migrationActions = new ActionSet<MigrationRow>(actions.permissions(), refused)
                .add(ConsoleAction.CANCEL_MIGRATION, rows -> rows.size() != 1 ? "select one migration"
                                : FINISHED_MIGRATION.contains(rows.getFirst().phase()) ? "the migration has finished" : null,
                        rows -> rows.isEmpty() ? "" : rows.getFirst().namespace(), rows -> cancelMigration(rows.getFirst()));
        replicaSetActions = new ActionSet<ReplicaSetRow>(actions.permissions(), refused)
                .add(ConsoleAction.SCALE, rows -> rows.size() == 1 ? null : "select one replica set",
                        rows -> rows.isEmpty() ? "" : rows.getFirst().namespace(), rows -> scale(rows.getFirst()));
        watchMigrations();
        actions.onHistoryNotice(why -> notifier.show(Badge.Tone.WARNING, "Drain history not kept", why));
    }

    /** The actions on this connection, for views that own their workflow (the Maintenance view). */
    public ClusterActions clusterActions() {
        return actions;
    }

    /** The cluster's drain records, newest first (the History view). */
    public CompletableFuture<List<dev.drainboard.ui.model.HistoryRow>> history() {
        return actions.history();
    }

    private static String namespaceOf(List<VmiRow> rows) {
        return rows.isEmpty() ? "" : rows.getFirst().namespace();
    }

    /** The dialog layer, to put over the shell (notices go above the status bar: {@link Notifier#layer()}). */
    public List<Node> layers() {
        return List.of(dialogs.layer());
    }

    public Notifier notifier() {
        return notifier;
    }

    public DialogHost dialogs() {
        return dialogs;
    }

    public Permissions permissions() {
        return actions.permissions();
    }

    /** Actions started here whose outcome has not come back yet; see {@link ClusterActions#pending()}. */
    public int pendingActions() {
        return actions.pending();
    }

    public ActionSet<NodeRow> nodeActions() {
        return nodeActions;
    }

    public ActionSet<VmiRow> vmiActions() {
        return vmiActions;
    }

    public ActionSet<VmRow> vmActions() {
        return vmActions;
    }

    public ActionSet<MigrationRow> migrationActions() {
        return migrationActions;
    }

    public ActionSet<ReplicaSetRow> replicaSetActions() {
        return replicaSetActions;
    }

    /** What draining the nodes together would do (the Pods view asks node by node); writes nothing. */
    public java.util.concurrent.CompletableFuture<List<dev.drainboard.ops.DrainPreview>> preview(
            List<String> nodes, dev.drainboard.ops.DrainOptions options) {
        return actions.preview(nodes, options);
    }

    /** A node tile's context menu (the overview). */
    public ContextMenu nodeMenu(NodeRow row) {
        return nodeMenu(List.of(row));
    }

    /**
     * The context menu of nodes (a tile, the Nodes table's selection): Cordon or Uncordon by their state, since the
     * other would do nothing; both when the selection mixes cordoned and schedulable nodes.
     */
    public ContextMenu nodeMenu(List<NodeRow> rows) {
        ContextMenu menu = nodeActions.menu(rows);
        if (rows.stream().allMatch(NodeRow::cordoned)) {
            menu.getItems().removeIf(i -> "menu-cordon".equals(i.getId()));
        }
        if (rows.stream().noneMatch(NodeRow::cordoned)) {
            menu.getItems().removeIf(i -> "menu-uncordon".equals(i.getId()));
        }
        return menu;
    }

    // ---- nodes

    public void cordon(List<NodeRow> rows) {
        List<String> names = rows.stream().map(NodeRow::name).toList();
        confirm("confirmCordon", ConsoleAction.CORDON, DialogCard.Kind.WARNING, "Cordon " + describe(names) + "?",
                "New pods and VMIs will not be scheduled on " + describe(names) + ". What runs there stays.",
                "", "Cordon", () -> names.forEach(n -> report(actions.cordon(n))));
    }

    public void uncordon(List<NodeRow> rows) {
        List<String> names = rows.stream().map(NodeRow::name).toList();
        confirm("confirmUncordon", ConsoleAction.UNCORDON, DialogCard.Kind.ACCENT, "Uncordon " + describe(names) + "?",
                "The scheduler may place new pods and VMIs on " + describe(names) + " again.",
                rows.stream().anyMatch(r -> r.taints().stream().anyMatch(t -> t.startsWith("kubevirt.io/drain")))
                        ? "The kubevirt.io/drain taint stays: remove it from the Taints dialog to let VMIs back."
                        : "",
                "Uncordon", () -> names.forEach(n -> report(actions.uncordon(n))));
    }

    /** Opens the drain dialog for these nodes (one operation); its end is notified even when the dialog is hidden. */
    public void drain(List<NodeRow> rows) {
        List<String> names = rows.stream().map(NodeRow::name).sorted().toList();
        for (DrainDialog running : drains) {
            if (running.running() && running.nodes().stream().anyMatch(names::contains)) {
                dialogs.show(running);
                return;
            }
        }
        DrainDialog[] dialog = new DrainDialog[1];
        dialog[0] = new DrainDialog(names, actions, actions.permissions().decision(ConsoleAction.DRAIN.checks("")),
                (state, results) -> drainEnded(names, state, results), () -> dialogs.close(dialog[0]), webhook);
        drains.removeIf(d -> !d.running());
        drains.add(dialog[0]);
        dialogs.show(dialog[0]);
    }

    private void drainEnded(List<String> nodes, DrainSummary.EndState state, List<DrainResult> results) {
        String what = describe(nodes);
        String why = String.join("\n", results.stream().filter(r -> !r.drained()).map(r -> r.node() + ": " + r.why()).toList());
        switch (state) {
            case DRAINED -> notifier.show(Badge.Tone.SUCCESS, "Drain finished: " + what + " drained",
                    "Every evicted pod is gone; " + (nodes.size() == 1 ? "the node stays" : "the nodes stay") + " cordoned.");
            case FAILED -> notifier.show(Badge.Tone.DANGER, "Drain of " + what + " failed", why);
            case TIMED_OUT -> notifier.show(Badge.Tone.DANGER, "Drain of " + what + " timed out", why);
            case CANCELLED -> notifier.show(Badge.Tone.WARNING, "Drain of " + what + " cancelled", why);
            case STRANDED -> notifier.show(Badge.Tone.WARNING, "Drain of " + what + ": drained, with VMs stranded",
                    String.join("\n", results.stream().filter(r -> !r.stranded().isEmpty()).map(r -> r.node() + ": " + r.why()).toList()));
            case RUNNING -> { }
        }
    }

    /** The taints dialog of one node. */
    public void taint(NodeRow row) {
        String node = row.name();
        TaintDialog[] dialog = new TaintDialog[1];
        dialog[0] = new TaintDialog(node, row.taints(), actions.permissions().decision(ConsoleAction.TAINT.checks("")),
                (specs, overwrite) -> actions.taint(node, specs, overwrite),
                result -> {
                    dialogs.close(dialog[0]);
                    show(result);
                },
                () -> dialogs.close(dialog[0]));
        dialogs.show(dialog[0]);
    }

    // ---- VMIs and migrations

    /** Finds the VMI's launcher pod (off the FX thread), says what its eviction will do, then evicts on confirm. */
    public void evict(VmiRow vmi) {
        actions.launcherOf(vmi.namespace(), vmi.name()).whenComplete((pod, error) -> {
            if (error != null) {
                notifier.show(Badge.Tone.DANGER, "Cannot evict " + vmi.name(), error.getMessage());
                return;
            }
            confirmEvict(pod);
        });
    }

    private void confirmEvict(LauncherPod pod) {
        confirm("confirmEvict", ConsoleAction.EVICT, DialogCard.Kind.WARNING, "Evict pod " + pod.name() + "?",
                "The launcher pod of VMI " + pod.namespace() + "/" + pod.vmi() + " on " + pod.node()
                        + " is evicted through the eviction API: KubeVirt's webhook and the pod's disruption budget decide.",
                pod.whatHappens().isEmpty() ? "" : "What will happen: " + pod.whatHappens(),
                "Evict", () -> report(actions.evict(pod.namespace(), pod.name())));
    }

    public void migrate(VmiRow vmi) {
        confirm("confirmMigrate", ConsoleAction.MIGRATE, DialogCard.Kind.ACCENT, "Migrate " + vmi.name() + "?",
                "A VirtualMachineInstanceMigration is created for " + vmi.namespace() + "/" + vmi.name()
                        + "; KubeVirt live-migrates it off " + vmi.node() + ".",
                "", "Migrate", () -> report(actions.migrate(vmi.namespace(), vmi.name())));
    }

    public void cancelEvacuation(VmiRow vmi) {
        confirm("confirmCancelEvacuation", ConsoleAction.CANCEL_EVACUATION, DialogCard.Kind.WARNING,
                "Cancel the evacuation of " + vmi.name() + "?",
                "The VMI's evacuation mark (leave node " + vmi.evacuationNode() + ") is cleared, so no new migration is "
                        + "started for it. Refused while the node carries the drain taint.",
                "", "Cancel evacuation", () -> report(actions.cancelEvacuation(vmi.namespace(), vmi.name())));
    }

    /**
     * The Migrate-to-node dialog: every node with whether the VMI's migration target fits there (PlacementDecision's
     * answer, read off the FX thread); OK only for a node that fits.
     */
    public void migrateToNode(VmiRow vmi) {
        MigrateToNodeDialog[] dialog = new MigrateToNodeDialog[1];
        dialog[0] = new MigrateToNodeDialog(vmi, actions.migrationTargets(vmi.namespace(), vmi.name()),
                node -> actions.migrateTo(vmi.namespace(), vmi.name(), node),
                result -> {
                    dialogs.close(dialog[0]);
                    show(result);
                },
                () -> dialogs.close(dialog[0]));
        dialogs.show(dialog[0]);
    }

    // ---- VMs: virt-api's start, stop and restart; its refusal (run strategy, state) is shown as it came

    /** Start needs no confirmation: it changes nothing that runs (virt-api refuses what the run strategy forbids). */
    public void startVm(VmRow vm) {
        report(actions.vm(vm.namespace(), vm.name(), dev.drainboard.ops.VmOps.Action.START));
    }

    public void stopVm(VmRow vm) {
        confirm("confirmStopVm", ConsoleAction.STOP_VM, DialogCard.Kind.DANGER, "Stop " + vm.name() + "?",
                "VM " + vm.namespace() + "/" + vm.name() + " (" + vm.runStrategy() + ", " + vm.printableStatus() + ") is stopped: "
                        + "its VMI" + (vm.node().isEmpty() ? "" : " on " + vm.node()) + " is shut down and deleted.",
                "Under runStrategy Always or Once the run strategy becomes Halted; under Manual or RerunOnFailure a stop "
                        + "request is queued for the VM controller.",
                "Stop", () -> report(actions.vm(vm.namespace(), vm.name(), dev.drainboard.ops.VmOps.Action.STOP)));
    }

    public void restartVm(VmRow vm) {
        confirm("confirmRestartVm", ConsoleAction.RESTART_VM, DialogCard.Kind.WARNING, "Restart " + vm.name() + "?",
                "The VMI of VM " + vm.namespace() + "/" + vm.name() + (vm.node().isEmpty() ? "" : " on " + vm.node())
                        + " is shut down and a new one is started; the guest reboots and may land on another node.",
                "", "Restart", () -> report(actions.vm(vm.namespace(), vm.name(), dev.drainboard.ops.VmOps.Action.RESTART)));
    }

    public void cancelMigration(MigrationRow row) {
        confirm("confirmCancelMigration", ConsoleAction.CANCEL_MIGRATION, DialogCard.Kind.DANGER,
                "Cancel migration " + row.name() + "?",
                "The migration of VMI " + row.namespace() + "/" + row.vmi() + " (" + row.phase() + ") is deleted: "
                        + "KubeVirt cancels or aborts it and the VMI stays on " + (row.sourceNode().isEmpty() ? "its node" : row.sourceNode()) + ".",
                "", "Cancel migration", () -> report(actions.cancelMigration(row.namespace(), row.name())));
    }

    // ---- replica sets

    /** The scale dialog of one replica set; its outcome is a toast quoting ops. */
    public void scale(ReplicaSetRow row) {
        ScaleDialog[] dialog = new ScaleDialog[1];
        dialog[0] = new ScaleDialog(row, actions.permissions().decision(ConsoleAction.SCALE.checks(row.namespace())),
                n -> actions.scale(row.namespace(), row.name(), n),
                result -> {
                    dialogs.close(dialog[0]);
                    show(result);
                },
                () -> dialogs.close(dialog[0]));
        dialogs.show(dialog[0]);
    }

    // ---- the connection

    /**
     * "Do this?" for an action a view owns (the Maintenance view's Abort): runs {@code confirm} only when the operator
     * confirms, {@code cancel} otherwise (Escape, Cancel); both after the dialog has closed.
     */
    public void confirm(String id, String title, String message, String detail, String verb, Runnable confirm, Runnable cancel) {
        ConfirmDialog[] dialog = new ConfirmDialog[1];
        dialog[0] = new ConfirmDialog(id, Material2AL.ERROR_OUTLINE, DialogCard.Kind.DANGER, title, message, detail, verb,
                () -> {
                    dialogs.close(dialog[0]);
                    confirm.run();
                }, () -> {
                    dialogs.close(dialog[0]);
                    cancel.run();
                });
        dialogs.show(dialog[0]);
    }

    /**
     * "Disconnect?": ends the session only on confirm (running drains are cancelled by it).
     *
     * @param clusterStays what happens to the cluster, e.g. that the embedded one keeps running
     */
    public void confirmDisconnect(String server, String clusterStays, Runnable disconnect) {
        long running = drains.stream().filter(DrainDialog::running).count();
        ConfirmDialog[] dialog = new ConfirmDialog[1];
        dialog[0] = new ConfirmDialog("confirmDisconnect", Material2AL.LINK_OFF, DialogCard.Kind.WARNING,
                "Disconnect from " + server + "?",
                "This session ends and the console goes back to the start screen. " + clusterStays,
                running == 0 ? "" : running + (running == 1 ? " drain is" : " drains are") + " still running: disconnecting cancels "
                        + (running == 1 ? "it" : "them") + ".",
                "Disconnect", () -> {
                    dialogs.close(dialog[0]);
                    disconnect.run();
                }, () -> dialogs.close(dialog[0]));
        dialogs.show(dialog[0]);
    }

    // ---- the command palette

    /** Entries for the command palette: every applicable, allowed action on every node, VMI and running migration. */
    public List<CommandPalette.Entry> paletteEntries() {
        List<CommandPalette.Entry> entries = new ArrayList<>();
        for (DrainDialog d : drains) {
            if (d.running()) {
                entries.add(new CommandPalette.Entry("Show the drain of " + describe(d.nodes()), "Drain in progress",
                        Material2AL.ARROW_CIRCLE_DOWN, () -> dialogs.show(d)));
            }
        }
        for (NodeRow n : model.nodes()) {
            for (ConsoleAction a : nodeActions.available(List.of(n))) {
                entries.add(new CommandPalette.Entry(a.label().replace("…", "") + " " + n.name() + (a.label().endsWith("…") ? "…" : ""),
                        "Node action · key " + a.keyHint() + " in Nodes", a.icon(), () -> nodeActions.trigger(a, List.of(n))));
            }
        }
        for (VmiRow v : model.vmis()) {
            for (ConsoleAction a : vmiActions.available(List.of(v))) {
                entries.add(new CommandPalette.Entry(a.label().replace("…", "") + " " + v.name() + (a.label().endsWith("…") ? "…" : ""),
                        "VMI action · " + v.namespace() + " · key " + a.keyHint() + " in VMIs", a.icon(),
                        () -> vmiActions.trigger(a, List.of(v))));
            }
        }
        for (ReplicaSetRow r : model.replicaSets()) {
            for (ConsoleAction a : replicaSetActions.available(List.of(r))) {
                entries.add(new CommandPalette.Entry("Scale " + r.name() + "…", "Replica set · " + r.namespace() + " · "
                        + r.desired() + " desired · key " + a.keyHint() + " in Replica sets", a.icon(),
                        () -> replicaSetActions.trigger(a, List.of(r))));
            }
        }
        for (MigrationRow m : model.migrations()) {
            for (ConsoleAction a : migrationActions.available(List.of(m))) {
                entries.add(new CommandPalette.Entry(a.label() + " " + m.name(), "Migration of " + m.vmi() + " · key "
                        + a.keyHint() + " in Migrations", a.icon(), () -> migrationActions.trigger(a, List.of(m))));
            }
        }
        return entries;
    }

    // ---- notifications

    private void watchMigrations() {
        model.synced().addListener((obs, was, now) -> {
            if (now) {
                failedMigrations.update(List.copyOf(model.migrations()));
            }
        });
        if (model.synced().get()) {
            failedMigrations.update(List.copyOf(model.migrations()));
        }
        model.migrations().addListener((ListChangeListener<MigrationRow>) c -> {
            if (!model.synced().get()) {
                return;
            }
            for (MigrationRow failed : failedMigrations.update(List.copyOf(model.migrations()))) {
                notifier.show(Badge.Tone.DANGER, "Migration of " + failed.namespace() + "/" + failed.vmi() + " failed",
                        failed.name() + (failed.sourceNode().isEmpty() ? "" : " · " + failed.sourceNode() + " → "
                                + (failed.targetNode().isEmpty() ? "?" : failed.targetNode()))
                                + ". The VMI stays on its source node.");
            }
        });
    }

    // ---- helpers

    private void confirm(String id, ConsoleAction action, DialogCard.Kind kind, String title, String message, String detail,
                         String verb, Runnable run) {
        ConfirmDialog[] dialog = new ConfirmDialog[1];
        dialog[0] = new ConfirmDialog(id, action.icon(), kind, title, message, detail, verb, () -> {
            dialogs.close(dialog[0]);
            run.run();
        }, () -> dialogs.close(dialog[0]));
        dialogs.show(dialog[0]);
    }

    private void report(CompletableFuture<ActionResult> result) {
        result.thenAccept(this::show);
    }

    private void show(ActionResult result) {
        Badge.Tone tone = switch (result.outcome()) {
            case DONE -> Badge.Tone.SUCCESS;
            case UNCHANGED -> Badge.Tone.NEUTRAL;
            case REFUSED_FOR_NOW -> Badge.Tone.WARNING;
            case FAILED, INVALID -> Badge.Tone.DANGER;
        };
        notifier.show(tone, result.title(), result.message());
    }

    private static String describe(List<String> names) {
        return names.size() == 1 ? names.getFirst() : names.size() + " nodes (" + String.join(", ", names) + ")";
    }

    /** Cancels drains still running (disconnecting), then stops the action threads. */
    @Override
    public void close() {
        drains.forEach(DrainDialog::cancelRunning);
        actions.close();
    }
}
