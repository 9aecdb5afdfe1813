package dev.drainboard.app;

import dev.drainboard.ops.DrainOperation;
import dev.drainboard.ops.DrainOptions;
import dev.drainboard.ops.DrainPreview;
import dev.drainboard.ops.DrainResult;
import dev.drainboard.ops.Ops;
import dev.drainboard.ops.OpsException;
import dev.drainboard.ops.PodProgress;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.concurrent.Callable;

/**
 * {@code drainboard drain NODE}: kubectl drain's options, through the eviction API, with live progress per pod.
 * Exit 0 only when every evicted pod is gone; 1 on failure, timeout or Ctrl-C; 2 for a wrong invocation.
 */
@Command(name = "drain", mixinStandardHelpOptions = true,
        description = {"Drain a node: cordon it, then evict its pods through the eviction API until they are gone.",
                "Shows per pod its state, attempts and the API server's last answer. --dry-run prints what would "
                        + "happen to each pod and why, and writes nothing.",
                "Exit 0 only when drained; 1 on failure, timeout or Ctrl-C."})
public final class DrainCommand implements Callable<Integer> {

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(DrainCommand.class);

    @Spec
    CommandSpec spec;
    @Mixin
    ClusterOptions cluster;
    @Parameters(paramLabel = "NODE")
    String node;
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
    @Option(names = "--dry-run", description = "Print what would happen to each pod and why; write nothing.")
    boolean dryRun;

    /** Tests force plain output; by default ANSI redraw when stdout is a terminal. */
    Boolean ansi;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        DrainOptions options = DrainOptions.defaults()
                .withIgnoreDaemonSets(ignoreDaemonSets).withDeleteEmptyDirData(deleteEmptyDirData).withForce(force)
                .withGracePeriodSeconds(gracePeriod).withTimeout(timeout).withPodSelector(podSelector).withDryRun(dryRun);
        try (Ops ops = cluster.connect()) {
            if (dryRun) {
                DrainPreview preview = ops.preview(node, options);
                DrainDisplay.printPreview(out, preview);
                out.flush();
                return preview.canStart() ? 0 : 1;
            }
            boolean terminal = ansi != null ? ansi : System.console() != null && System.console().isTerminal();
            DrainDisplay display = new DrainDisplay(out, terminal, columns());
            DrainOperation drain = ops.drain(node, options, display::show);
            Signals.onStop(drain::cancel);
            DrainResult result = drain.await();
            int exit = report(result, out, err, terminal);
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

    private int report(DrainResult result, PrintWriter out, PrintWriter err, boolean terminal) {
        if (terminal) {
            // The live block cut long messages to the terminal's width: the outcome in full.
            result.pods().forEach(p -> out.println(DrainDisplay.line(p)));
        }
        if (result.drained()) {
            out.println("node/" + result.node() + " drained");
            return 0;
        }
        err.println("error: drain of node/" + result.node() + " " + result.status() + ": " + result.why());
        for (PodProgress pod : result.pods()) {
            if (!pod.state().isFinal()) {
                err.println("  " + pod.key() + " is " + pod.state() + ": " + pod.preview().reason());
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
