package dev.drainboard.app;

import dev.drainboard.ops.Blocker;
import dev.drainboard.ops.DrainOperation;
import dev.drainboard.ops.DrainOptions;
import dev.drainboard.ops.DrainPreview;
import dev.drainboard.ops.DrainResult;
import dev.drainboard.ops.DrainWaits;
import dev.drainboard.ops.VmiChange;
import dev.drainboard.ops.Ops;
import dev.drainboard.ops.OpsException;
import dev.drainboard.ops.PodProgress;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * {@code drainboard drain NODE}: kubectl drain's options, through the eviction API, with live progress per pod.
 * Exit 0 only when every evicted pod is gone; 1 on failure, timeout or Ctrl-C; 2 for a wrong invocation.
 */
@Command(name = "drain", mixinStandardHelpOptions = true,
        description = {"Drain a node: cordon it, then evict its pods through the eviction API until they are gone.",
                "Shows per pod its state, attempts and the API server's last answer. --dry-run prints what would "
                        + "happen to each pod and why, and writes nothing.",
                "Before anything is written, every VMI that migrates and every pod or VMI that is recreated is placed with "
                        + "the scheduler's rules on the nodes that remain (all NODEs count as gone); what has nowhere to "
                        + "go, and a VMI with eviction strategy External, is a blocker: the drain refuses to start.",
                "While it runs, a pod whose VMI's migration has not started says why (a node's or the cluster's migration "
                        + "limit, a back-off, the target pod unschedulable, the PDB expansion), and how long the live "
                        + "migrations still take is shown. A drain that does not end drained lists the VMIs still marked "
                        + "for evacuation; --clear-evacuation-marks clears them.",
                "Exit 0 only when drained; 1 on failure, timeout or Ctrl-C; 2 for bad options; 3 when blockers keep "
                        + "it from starting (--dry-run: when it would be refused)."})
public final class DrainCommand implements Callable<Integer> {

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(DrainCommand.class);

    @Spec
    CommandSpec spec;
    @Mixin
    ClusterOptions cluster;
    @Parameters(paramLabel = "NODE", arity = "1..*", description = "The nodes to drain together.")
    List<String> nodes;
    @Option(names = "--ignore-daemonsets", description = "Leave DaemonSet-managed pods on the node.")
    boolean ignoreDaemonSets;
    @Option(names = "--delete-emptydir-data", description = "Evict pods with emptyDir volumes (their data is lost).")
    boolean deleteEmptyDirData;
    @Option(names = "--force", description = "Evict pods that declare no controller (nothing recreates them).")
    boolean force;
    @Option(names = "--grace-period", paramLabel = "N", defaultValue = "-1",
            description = "Seconds each pod gets to terminate; negative: its own (default: ${DEFAULT-VALUE}).")
    long gracePeriod;
    @Option(names = "--timeout", paramLabel = "D", defaultValue = "0", converter = GoDurations.class,
            description = "Give up after this long, e.g. 90s or 5m; 0 waits as long as it takes (default: ${DEFAULT-VALUE}).")
    Duration timeout;
    @Option(names = {"-l", "--pod-selector"}, paramLabel = "S", description = "Only pods matching this label selector.")
    String podSelector;
    @Option(names = "--dry-run", description = "Print what would happen to each pod and why, and the blockers; write nothing.")
    boolean dryRun;
    @Option(names = {"-o", "--output"}, paramLabel = "FORMAT",
            description = "With --dry-run: json prints the preview as one JSON document.")
    String output;
    @Option(names = "--allow-stranded", description = "Drain even though VMIs or pods will have nowhere to run; "
            + "the end names them.")
    boolean allowStranded;
    @Option(names = "--external-handled", description = "VMIs with eviction strategy External are moved by something "
            + "outside KubeVirt: not blockers (the drain waits until they are gone).")
    boolean externalHandled;

    @Option(names = "--clear-evacuation-marks", description = "Drain nothing: clear status.evacuationNodeName of every "
            + "VMI marked for evacuation from NODE (what a cancelled drain leaves); refused while NODE carries the drain taint.")
    boolean clearEvacuationMarks;

    /** How often the live display reads why migrations wait and how long they take. */
    static final Duration WAITS_EVERY = Duration.ofSeconds(2);

    /** Blockers keep the drain from starting. */
    static final int EXIT_BLOCKED = 3;

    /** Tests force plain output; by default ANSI redraw when stdout is a terminal. */
    Boolean ansi;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (output != null && !output.equals("json")) {
            throw new ParameterException(spec.commandLine(), "Invalid value for option '--output': '" + output
                    + "' (only json is supported)");
        }
        if (output != null && !dryRun) {
            throw new ParameterException(spec.commandLine(), "--output json is only supported with --dry-run");
        }
        if (clearEvacuationMarks && (dryRun || output != null || allowStranded || externalHandled)) {
            throw new ParameterException(spec.commandLine(), "--clear-evacuation-marks drains nothing: it takes no "
                    + "--dry-run, --output, --allow-stranded or --external-handled");
        }
        List<String> distinct = nodes.stream().distinct().toList();
        if (clearEvacuationMarks) {
            return clearMarks(distinct, out, err);
        }
        DrainOptions options = DrainOptions.defaults()
                .withIgnoreDaemonSets(ignoreDaemonSets).withDeleteEmptyDirData(deleteEmptyDirData).withForce(force)
                .withGracePeriodSeconds(gracePeriod).withTimeout(timeout).withPodSelector(podSelector).withDryRun(dryRun)
                .withExternalHandled(externalHandled).withAllowStranded(allowStranded);
        try (Ops ops = cluster.connect()) {
            List<DrainPreview> previews = ops.previewAll(distinct, options);
            boolean refusedByKubectlRules = previews.stream().anyMatch(p -> !p.canStart());
            boolean blocked = !allowStranded && previews.stream().anyMatch(DrainPreview::blocked);
            if (dryRun) {
                if (output != null) {
                    DrainDisplay.printJson(out, previews);
                    previews.forEach(p -> p.errors().forEach(e -> err.println("error: " + e)));
                } else {
                    previews.forEach(p -> DrainDisplay.printPreview(out, p));
                }
                out.flush();
                return refusedByKubectlRules ? 1 : blocked ? EXIT_BLOCKED : 0;
            }
            if (blocked && !refusedByKubectlRules) {
                // As kubectl drain refuses over DaemonSet pods: nothing cordoned, each blocker named.
                err.println("error: cannot drain " + String.join(", ", distinct.stream().map(n -> "node/" + n).toList())
                        + ": " + previews.stream().mapToInt(p -> p.blockers().size()).sum()
                        + " blocker(s) (use --allow-stranded to drain anyway; --external-handled when something outside "
                        + "KubeVirt moves the External VMIs):");
                for (DrainPreview p : previews) {
                    for (Blocker b : p.blockers()) {
                        err.println("  node/" + p.node() + ": " + b.kind() + " " + b.key() + ": " + b.reason());
                    }
                }
                return EXIT_BLOCKED;
            }
            boolean terminal = ansi != null ? ansi : System.console() != null && System.console().isTerminal();
            // Several nodes' blocks cannot be redrawn in one place: appended lines then.
            DrainDisplay display = new DrainDisplay(out, terminal && distinct.size() == 1, columns());
            // On the previews just checked: what the drain acts on is what was checked, read once.
            List<DrainOperation> drains = ops.drainPreviewed(previews, options, display::show);
            // Kept in the cluster (docs/drain.md, "History"); a cluster that keeps none is told once.
            var recording = ops.history().record(drains, notice -> err.println("warning: " + notice));
            Signals.onStop(() -> drains.forEach(DrainOperation::cancel));
            ScheduledExecutorService poll = Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform().daemon()
                    .name("drain-waits").factory());
            // The first read one interval in: at the start nothing has waited yet, and its five lists would go out
            // alongside the cordon and the first evictions, the drain's critical path.
            poll.scheduleWithFixedDelay(() -> readWaits(ops, drains, display), WAITS_EVERY.toMillis(), WAITS_EVERY.toMillis(),
                    TimeUnit.MILLISECONDS);
            List<DrainResult> results;
            try {
                results = Ops.allEnded(drains).join();
            } finally {
                poll.shutdownNow();
            }
            awaitRecorded(recording.written());
            int exit = 0;
            for (DrainResult result : results) {
                exit = Math.max(exit, report(result, out, err, terminal && distinct.size() == 1));
            }
            if (results.stream().anyMatch(r -> !r.drained())) {
                reportMarks(ops, distinct, out, err);
            }
            LOG.debug("drain reported, closing the connection");
            return exit;
        } catch (ClusterOptions.CannotConnect | OpsException e) {
            err.println("drainboard drain: " + e.getMessage());
            return 1;
        } finally {
            out.flush();
            err.flush();
            LOG.debug("drain command done");
        }
    }

    /** Reads why the drains' migrations wait and redraws; a failed read keeps the last figures. */
    private static void readWaits(Ops ops, List<DrainOperation> drains, DrainDisplay display) {
        try {
            List<DrainPreview> previews = drains.stream().map(d -> d.progress().preview()).filter(Objects::nonNull).toList();
            if (previews.isEmpty() || drains.stream().allMatch(d -> d.result().isDone())) {
                return;
            }
            DrainWaits waits = ops.waits(previews);
            display.waits(waits);
            drains.stream().filter(d -> !d.result().isDone()).forEach(d -> display.show(d.progress()));
        } catch (RuntimeException e) {
            LOG.debug("cannot read the drain's migrations", e);
        }
    }

    /** After a drain that did not end drained: the VMIs it left marked for evacuation, and how to clear the marks. */
    private void reportMarks(Ops ops, List<String> drained, PrintWriter out, PrintWriter err) {
        for (String node : drained) {
            List<String> marked;
            try {
                marked = ops.markedForEvacuation(node).stream()
                        .map(v -> v.getMetadata().getNamespace() + "/" + v.getMetadata().getName()).toList();
            } catch (OpsException e) {
                err.println("warning: cannot list the VMIs marked for evacuation from node/" + node + ": " + e.getMessage());
                continue;
            }
            if (marked.isEmpty()) {
                continue;
            }
            err.println(marked.size() + (marked.size() == 1 ? " VMI is" : " VMIs are") + " still marked for evacuation from node/"
                    + node + " (KubeVirt keeps migrating them while marked): " + String.join(", ", marked));
            err.println("to clear the marks: " + clearCommand(node));
        }
    }

    /** The exact command that clears the marks, with this invocation's cluster options. */
    String clearCommand(String node) {
        StringBuilder command = new StringBuilder("drainboard drain ").append(node).append(" --clear-evacuation-marks");
        if (cluster.kubeconfig != null) {
            command.append(" --kubeconfig ").append(cluster.kubeconfig);
        }
        if (cluster.context != null) {
            command.append(" --context ").append(cluster.context);
        }
        return command.toString();
    }

    private int clearMarks(List<String> names, PrintWriter out, PrintWriter err) {
        try (Ops ops = cluster.connect()) {
            int exit = 0;
            for (String node : names) {
                try {
                    List<VmiChange> changes = ops.clearEvacuationMarks(node);
                    if (changes.isEmpty()) {
                        out.println("node/" + node + ": no VMI is marked for evacuation");
                    }
                    changes.forEach(c -> out.println(c.message()));
                } catch (OpsException e) {
                    err.println("error: node/" + node + ": " + e.getMessage());
                    exit = 1;
                }
            }
            return exit;
        } catch (ClusterOptions.CannotConnect e) {
            err.println("drainboard drain: " + e.getMessage());
            return 1;
        } finally {
            out.flush();
            err.flush();
        }
    }

    /** The record's end is written before the process exits; a slow cluster does not hold the exit up for long. */
    private static void awaitRecorded(java.util.concurrent.CompletableFuture<Void> written) {
        try {
            written.get(10, java.util.concurrent.TimeUnit.SECONDS);
        } catch (java.util.concurrent.TimeoutException | java.util.concurrent.ExecutionException e) {
            LOG.warn("drain history: the end was not recorded in time");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private int report(DrainResult result, PrintWriter out, PrintWriter err, boolean terminal) {
        if (terminal) {
            // The live block cut long messages to the terminal's width: the outcome in full.
            result.pods().forEach(p -> out.println(DrainDisplay.line(p)));
        }
        if (result.drained()) {
            // Never a plain "drained" while something was left with nowhere to run (--allow-stranded).
            out.println("node/" + result.node() + " drained" + (result.stranded().isEmpty() ? ""
                    : "; " + Blocker.nowhereToRun(result.stranded())));
            for (Blocker b : result.stranded()) {
                err.println("warning: " + b.kind() + " " + b.key() + ": " + b.reason());
            }
            return 0;
        }
        err.println("error: drain of node/" + result.node() + " " + result.status() + ": " + result.why());
        for (PodProgress pod : result.pods()) {
            if (!pod.state().isFinal()) {
                err.println("  " + pod.key() + " is " + pod.stateText() + ": " + pod.preview().reason());
            }
        }
        return 1;
    }

    private static int columns() {
        try {
            return Integer.parseInt(System.getenv().getOrDefault("COLUMNS", "120"));
        } catch (NumberFormatException e) {
            return 120;
        }
    }
}
