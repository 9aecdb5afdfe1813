package dev.drainboard.ui.actions;

import dev.drainboard.admission.EvictionAdmitter;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.ops.DrainListener;
import dev.drainboard.ops.DrainOperation;
import dev.drainboard.ops.DrainOptions;
import dev.drainboard.ops.DrainPreview;
import dev.drainboard.ops.DrainResult;
import dev.drainboard.ops.EvictionResponse;
import dev.drainboard.ops.InvalidTaintException;
import dev.drainboard.ops.NodeChange;
import dev.drainboard.ops.Ops;
import dev.drainboard.ops.OpsException;
import dev.drainboard.ops.PodPreview;
import dev.drainboard.ops.ReplicaSetChange;
import dev.drainboard.ops.VmiChange;
import dev.drainboard.ui.connect.Session;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import javafx.application.Platform;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * The console's operator actions on one connection: {@link Ops} calls run on a background executor and their
 * results come back on the FX thread (every future this returns completes there, never exceptionally for an
 * action). Failures carry ops' and the API server's messages verbatim.
 */
public final class ClusterActions implements AutoCloseable {

    private final Ops ops;
    private final KubernetesClient client;
    private final ExecutorService background;
    private final Executor fx;
    private final Permissions permissions;
    /** Requests started here whose answer has not been handed to the FX thread yet; read and written there. */
    private final AtomicInteger pending = new AtomicInteger();
    /** Observe: every write is refused here, before it reaches the API (the disabled controls are not the only guard). */
    private boolean readOnly;

    /** Why every write is off on an Observe connection (the tooltip of each disabled action, and any refusal). */
    public static final String OBSERVE_REASON = "Observe mode: this console changes nothing";

    /**
     * Actions on the session's cluster, with permissions from SelfSubjectAccessReviews; on an Observe connection
     * read-only: every action denied with {@link #OBSERVE_REASON} and no write sent.
     */
    public static ClusterActions open(Session session) {
        if (session.info().mode() == dev.drainboard.ui.connect.Mode.OBSERVE) {
            ExecutorService background = Executors.newFixedThreadPool(2,
                    Thread.ofPlatform().daemon().name("console-actions-", 0).factory());
            // The cluster's own denial, when there is one, says more (credentials that could never do it).
            AccessReviewer cluster = new SelfSubjectAccessReviewer(session.client());
            AccessReviewer observe = check -> {
                AccessDecision answer = cluster.review(check);
                return answer.state() == AccessDecision.State.DENIED ? answer
                        : new AccessDecision(AccessDecision.State.DENIED, OBSERVE_REASON);
            };
            ClusterActions readOnly = new ClusterActions(new Ops(session.client()), session.client(), observe,
                    background, Platform::runLater);
            readOnly.readOnly = true;
            return readOnly;
        }
        return forClient(session.client());
    }

    /** Actions through this client (a session's, or a benchmark's own). */
    public static ClusterActions forClient(KubernetesClient client) {
        ExecutorService background = Executors.newFixedThreadPool(2,
                Thread.ofPlatform().daemon().name("console-actions-", 0).factory());
        return new ClusterActions(new Ops(client), client, new SelfSubjectAccessReviewer(client), background, Platform::runLater);
    }

    ClusterActions(Ops ops, KubernetesClient client, AccessReviewer reviewer, ExecutorService background, Executor fx) {
        this.ops = Objects.requireNonNull(ops);
        this.client = client;
        this.background = background;
        this.fx = fx;
        this.permissions = new Permissions(reviewer, background, fx);
    }

    public Permissions permissions() {
        return permissions;
    }

    /** Whether this connection is Observe: nothing is written. */
    public boolean readOnly() {
        return readOnly;
    }

    /**
     * Actions and reads started through this object whose outcome has not yet come back on the FX thread (a busy
     * indicator). Read it on the FX thread: at 0, every write asked for so far has been answered and its outcome
     * handed on, e.g. to a toast.
     */
    public int pending() {
        return pending.get();
    }

    public CompletableFuture<ActionResult> cordon(String node) {
        return run("Cannot cordon " + node, () -> nodeResult(ops.cordon(node), "Cordoned " + node));
    }

    public CompletableFuture<ActionResult> uncordon(String node) {
        return run("Cannot uncordon " + node, () -> nodeResult(ops.uncordon(node), "Uncordoned " + node));
    }

    /**
     * {@code kubectl taint NODE specs... [--overwrite]}; an invalid spec, or a taint that is already there without
     * {@code overwrite}, or one to remove that is not, comes back INVALID with kubectl's words and nothing written.
     */
    public CompletableFuture<ActionResult> taint(String node, List<String> specs, boolean overwrite) {
        List<String> copy = List.copyOf(specs);
        boolean removing = copy.stream().allMatch(s -> s.endsWith("-"));
        String title = (removing ? "Untainted " : "Tainted ") + node;
        return run("Cannot change the taints of " + node, () -> {
            try {
                return nodeResult(ops.taint(node, copy, overwrite), title);
            } catch (InvalidTaintException e) {
                return new ActionResult(ActionResult.Outcome.INVALID, "Cannot change the taints of " + node, e.getMessage());
            }
        });
    }

    /** Evicts one pod through the eviction API; a 429 (a PDB, KubeVirt's webhook) is REFUSED_FOR_NOW, verbatim. */
    public CompletableFuture<ActionResult> evict(String namespace, String pod) {
        return run("Cannot evict " + namespace + "/" + pod, () -> evictionResult(namespace + "/" + pod, ops.evict(namespace, pod)));
    }

    public CompletableFuture<ActionResult> cancelEvacuation(String namespace, String vmi) {
        return run("Cannot cancel the evacuation of " + vmi,
                () -> vmiResult(ops.cancelEvacuation(namespace, vmi), "Evacuation of " + vmi + " cancelled"));
    }

    public CompletableFuture<ActionResult> migrate(String namespace, String vmi) {
        return run("Cannot migrate " + vmi, () -> vmiResult(ops.migrate(namespace, vmi), "Migration of " + vmi + " requested"));
    }

    /** Start, stop or restart a VM through virt-api; a refusal comes back FAILED with virt-api's message, verbatim. */
    public CompletableFuture<ActionResult> vm(String namespace, String vm, dev.drainboard.ops.VmOps.Action action) {
        String verb = switch (action) {
            case START -> "start";
            case STOP -> "stop";
            case RESTART -> "restart";
        };
        String done = switch (action) {
            case START -> "Start of ";
            case STOP -> "Stop of ";
            case RESTART -> "Restart of ";
        };
        return run("Cannot " + verb + " " + vm, () -> vmiResult(ops.vm(namespace, vm, action), done + vm + " requested"));
    }

    /** Where a VMI could go, node by node, with PlacementDecision's reason where it does not fit (off the FX thread). */
    public CompletableFuture<List<dev.drainboard.ops.MigrationTargets.Fit>> migrationTargets(String namespace, String vmi) {
        return call(() -> ops.migrationTargets(namespace, vmi));
    }

    /** Migrate a VMI to a chosen node (KubeVirt 1.6+); refused with the reason where the target does not fit. */
    public CompletableFuture<ActionResult> migrateTo(String namespace, String vmi, String node) {
        return run("Cannot migrate " + vmi + " to " + node,
                () -> vmiResult(ops.migrateTo(namespace, vmi, node), "Migration of " + vmi + " to " + node + " requested"));
    }

    public CompletableFuture<ActionResult> cancelMigration(String namespace, String vmim) {
        return run("Cannot cancel migration " + vmim,
                () -> vmiResult(ops.cancelMigration(namespace, vmim), "Migration " + vmim + " cancelled"));
    }

    /**
     * Sets a VMI replica set's {@code spec.replicas} through its scale subresource; a negative count comes back
     * INVALID with nothing written, a count already in place UNCHANGED. The message is ops' or the API server's.
     */
    public CompletableFuture<ActionResult> scale(String namespace, String replicaSet, int replicas) {
        String failed = "Cannot scale " + namespace + "/" + replicaSet;
        return run(failed, () -> {
            if (replicas < 0) { // ops refuses it too; said here as input the dialog shows in place
                return new ActionResult(ActionResult.Outcome.INVALID, failed, "replicas must be 0 or more; got " + replicas);
            }
            ReplicaSetChange change = ops.scale(namespace, replicaSet, replicas);
            return new ActionResult(change.changed() ? ActionResult.Outcome.DONE : ActionResult.Outcome.UNCHANGED,
                    change.changed() ? "Scaled " + replicaSet + " to " + replicas : "Nothing to do", change.message());
        });
    }

    /**
     * The launcher pod of a VMI (the one on the VMI's node when a migration target exists too), with what its
     * eviction will do. Completes exceptionally with the reason when there is none.
     */
    public CompletableFuture<LauncherPod> launcherOf(String namespace, String vmi) {
        return call(() -> {
            VirtualMachineInstance object;
            List<Pod> pods;
            try {
                object = client.resources(VirtualMachineInstance.class).inNamespace(namespace).withName(vmi).get();
                pods = client.pods().inNamespace(namespace).withLabel("kubevirt.io", "virt-launcher").list().getItems();
            } catch (KubernetesClientException e) {
                throw new IllegalStateException(apiMessage(e), e);
            }
            if (object == null) {
                throw new IllegalStateException("virtualmachineinstance \"" + vmi + "\" not found in namespace " + namespace);
            }
            String vmiNode = object.getStatus() == null ? null : object.getStatus().getNodeName();
            Pod launcher = pods.stream()
                    .filter(p -> EvictionAdmitter.vmiNameOf(p).filter(vmi::equals).isPresent())
                    .filter(p -> p.getMetadata().getDeletionTimestamp() == null && !finished(p))
                    .min(Comparator.comparing((Pod p) -> Objects.equals(p.getSpec().getNodeName(), vmiNode) ? 0 : 1))
                    .orElseThrow(() -> new IllegalStateException("VMI " + namespace + "/" + vmi + " has no running launcher pod"));
            String node = Objects.toString(launcher.getSpec().getNodeName(), "");
            String what = "";
            if (!node.isEmpty()) {
                try {
                    DrainOptions lenient = DrainOptions.defaults().withIgnoreDaemonSets(true).withDeleteEmptyDirData(true).withForce(true);
                    what = ops.preview(node, lenient).pod(namespace, launcher.getMetadata().getName())
                            .map(PodPreview::reason).orElse("");
                } catch (OpsException e) {
                    what = "";
                }
            }
            return new LauncherPod(namespace, launcher.getMetadata().getName(), node, vmi, what);
        });
    }

    /** What draining each node would do, in the order given; completes exceptionally with ops' message. */
    public CompletableFuture<List<DrainPreview>> preview(List<String> nodes, DrainOptions options) {
        List<String> copy = List.copyOf(nodes);
        // Together: the placement check counts every node drained at once as gone.
        return call(() -> ops.previewAll(copy, options));
    }

    /** Starts draining the nodes together ({@link Ops#drainAll}); the listener hears every change, on the drains' threads. */
    public CompletableFuture<List<DrainOperation>> drain(List<String> nodes, DrainOptions options, DrainListener listener) {
        List<String> copy = List.copyOf(nodes);
        if (readOnly) {
            return CompletableFuture.failedFuture(new IllegalStateException(OBSERVE_REASON));
        }
        return call(() -> {
            List<DrainOperation> drains = ops.drainAll(copy, options, listener);
            // Kept in the cluster for every console and the CLI (docs/drain.md, "History").
            ops.history().record(drains);
            return drains;
        });
    }

    /**
     * Tells {@code notice}, once and on the FX thread, when this cluster keeps no drain history (no CRD, no
     * permission), with why and how to enable it.
     */
    public void onHistoryNotice(java.util.function.Consumer<String> notice) {
        ops.history().onNotice(message -> fx.execute(() -> notice.accept(message)));
    }

    /** The cluster's drain records, newest first; completes exceptionally with why history cannot be read. */
    public CompletableFuture<List<dev.drainboard.ui.model.HistoryRow>> history() {
        return call(() -> {
            try {
                return ops.history().store().list().stream().map(dev.drainboard.ui.model.HistoryRow::of).toList();
            } catch (dev.drainboard.history.HistoryUnavailableException e) {
                throw new java.util.concurrent.CompletionException(e);
            }
        });
    }

    /**
     * The Maintenance view's reads and writes on this connection ({@link dev.drainboard.ops.maintenance.MaintenancePlans}): every
     * call runs off the FX thread and completes there, exceptionally with ops' or the API server's message.
     */
    public dev.drainboard.ui.maintenance.MaintenanceBackend maintenance() {
        var plans = new dev.drainboard.ops.maintenance.MaintenancePlans(client);
        ClusterActions self = this;
        return new dev.drainboard.ui.maintenance.MaintenanceBackend() {
            @Override
            public CompletableFuture<List<dev.drainboard.ui.model.MaintenancePlanRow>> plans() {
                return call(() -> plans.list().stream().map(dev.drainboard.ui.model.MaintenancePlanRow::of).toList());
            }

            @Override
            public CompletableFuture<dev.drainboard.ui.model.MaintenancePlanRow> preview(dev.drainboard.ui.model.MaintenanceRequest request) {
                return call(() -> dev.drainboard.ui.model.MaintenancePlanRow.ofPreview(plans.preview(request.spec()), request));
            }

            @Override
            public CompletableFuture<String> create(dev.drainboard.ui.model.MaintenanceRequest request) {
                if (readOnly) {
                    return CompletableFuture.failedFuture(new IllegalStateException(OBSERVE_REASON));
                }
                return call(() -> plans.create(request.spec()));
            }

            @Override
            public CompletableFuture<Void> setAction(String plan, String action) {
                if (readOnly) {
                    return CompletableFuture.failedFuture(new IllegalStateException(OBSERVE_REASON));
                }
                var chosen = dev.drainboard.maintenance.MaintenancePlanSpec.Action.valueOf(action);
                return call(() -> {
                    plans.setAction(plan, chosen);
                    return null;
                });
            }

            @Override
            public String readOnlyReason() {
                return self.readOnly ? OBSERVE_REASON : "";
            }
        };
    }

    /** Why a running drain's migrations wait and how long they still take ({@link Ops#waits}). */
    public CompletableFuture<dev.drainboard.ops.DrainWaits> waits(List<DrainPreview> previews) {
        List<DrainPreview> copy = List.copyOf(previews);
        return call(() -> ops.waits(copy));
    }

    /** The VMIs ({@code namespace/name}) marked for evacuation from these nodes. */
    public CompletableFuture<List<String>> markedForEvacuation(List<String> nodes) {
        List<String> copy = List.copyOf(nodes);
        return call(() -> copy.stream().flatMap(n -> ops.markedForEvacuation(n).stream())
                .map(v -> v.getMetadata().getNamespace() + "/" + v.getMetadata().getName()).toList());
    }

    /** Clears the evacuation marks for these nodes ({@link Ops#clearEvacuationMarks}); ops' messages, one per VMI. */
    public CompletableFuture<List<String>> clearEvacuationMarks(List<String> nodes) {
        if (readOnly) {
            return CompletableFuture.failedFuture(new IllegalStateException(OBSERVE_REASON));
        }
        List<String> copy = List.copyOf(nodes);
        return call(() -> copy.stream().flatMap(n -> ops.clearEvacuationMarks(n).stream()).map(dev.drainboard.ops.VmiChange::message).toList());
    }

    /** Completes on the FX thread once every drain has ended, with their results. */
    public CompletableFuture<List<DrainResult>> whenAllEnded(List<DrainOperation> drains) {
        CompletableFuture<List<DrainResult>> done = new CompletableFuture<>();
        Ops.allEnded(drains).thenAccept(results -> fx.execute(() -> done.complete(results)));
        return done;
    }

    private CompletableFuture<ActionResult> run(String failedTitle, Supplier<ActionResult> action) {
        if (readOnly) {
            return CompletableFuture.completedFuture(new ActionResult(ActionResult.Outcome.FAILED, failedTitle, OBSERVE_REASON));
        }
        pending.incrementAndGet();
        return CompletableFuture.supplyAsync(() -> {
                    try {
                        return action.get();
                    } catch (OpsException e) {
                        return new ActionResult(ActionResult.Outcome.FAILED, failedTitle, e.getMessage());
                    } catch (RuntimeException e) {
                        return new ActionResult(ActionResult.Outcome.FAILED, failedTitle, String.valueOf(e.getMessage()));
                    }
                }, background)
                .exceptionally(e -> new ActionResult(ActionResult.Outcome.FAILED, failedTitle, rootMessage(e)))
                .thenApplyAsync(r -> {
                    pending.decrementAndGet(); // the future's dependents run right after, in this FX task
                    return r;
                }, fx);
    }

    /** Runs a blocking read off the FX thread; completes on the FX thread, exceptionally with a readable message. */
    private <T> CompletableFuture<T> call(Supplier<T> read) {
        CompletableFuture<T> result = new CompletableFuture<>();
        if (background.isShutdown()) {
            // Closed with the connection (a drain's end may still ask): an answer, not an exception thrown at the caller.
            result.completeExceptionally(new IllegalStateException("the connection is closed"));
            return result;
        }
        pending.incrementAndGet();
        CompletableFuture<T> started;
        try {
            started = CompletableFuture.supplyAsync(read, background);
        } catch (java.util.concurrent.RejectedExecutionException e) {
            // Closed (disconnected): a late read, e.g. a view's periodic refresh, gets an answer, not an exception.
            started = CompletableFuture.failedFuture(new IllegalStateException("disconnected", e));
        }
        started.whenComplete((value, error) -> fx.execute(() -> {
            pending.decrementAndGet();
            if (error != null) {
                result.completeExceptionally(new IllegalStateException(rootMessage(error), error));
            } else {
                result.complete(value);
            }
        }));
        return result;
    }

    private static ActionResult nodeResult(NodeChange change, String doneTitle) {
        return new ActionResult(change.changed() ? ActionResult.Outcome.DONE : ActionResult.Outcome.UNCHANGED,
                change.changed() ? doneTitle : "Nothing to do", change.message());
    }

    private static ActionResult vmiResult(VmiChange change, String doneTitle) {
        return new ActionResult(change.changed() ? ActionResult.Outcome.DONE : ActionResult.Outcome.UNCHANGED,
                change.changed() ? doneTitle : "Nothing to do", change.message());
    }

    /** The eviction API's answer as the operator should read it; the message is the API server's, verbatim. */
    static ActionResult evictionResult(String pod, EvictionResponse answer) {
        if (answer.accepted()) {
            return new ActionResult(ActionResult.Outcome.DONE, "Evicted " + pod, "pod/" + pod.substring(pod.indexOf('/') + 1) + " evicted");
        }
        if (answer.tooManyRequests()) {
            return new ActionResult(ActionResult.Outcome.REFUSED_FOR_NOW, "Eviction of " + pod + " refused for now (HTTP 429)",
                    answer.text());
        }
        String code = answer.unreachable() ? "no answer" : "HTTP " + answer.code()
                + (answer.reason() == null || answer.reason().isEmpty() ? "" : " " + answer.reason());
        return new ActionResult(ActionResult.Outcome.FAILED, "Eviction of " + pod + " failed (" + code + ")", answer.text());
    }

    private static boolean finished(Pod pod) {
        String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
        return "Succeeded".equals(phase) || "Failed".equals(phase);
    }

    private static String apiMessage(KubernetesClientException e) {
        return e.getStatus() != null && e.getStatus().getMessage() != null ? e.getStatus().getMessage() : String.valueOf(e.getMessage());
    }

    static String rootMessage(Throwable e) {
        Throwable t = e;
        while ((t instanceof CompletionException || t.getCause() != null && t.getMessage() == null) && t.getCause() != null) {
            t = t.getCause();
        }
        return String.valueOf(t.getMessage());
    }

    @Override
    public void close() {
        background.shutdownNow();
    }
}
