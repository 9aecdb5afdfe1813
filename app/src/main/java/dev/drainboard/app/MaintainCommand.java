package dev.drainboard.app;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.drainboard.maintenance.MaintenancePlan;
import dev.drainboard.maintenance.MaintenancePlanSpec;
import dev.drainboard.maintenance.MaintenancePlanSpec.AfterDrain;
import dev.drainboard.maintenance.MaintenancePlanStatus;
import dev.drainboard.maintenance.MaintenancePlanStatus.NodeStatus;
import dev.drainboard.ops.Ops;
import dev.drainboard.ops.OpsException;
import dev.drainboard.ops.maintenance.MaintenanceOps;
import dev.drainboard.ops.maintenance.MaintenancePlanPreview;
import io.fabric8.kubernetes.client.KubernetesClientException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * {@code drainboard maintain NODE… | --selector S}: a rolling maintenance as a MaintenancePlan in the cluster, executed
 * by the leader of the controllers (the console or {@code drainboard controllers}), followed here until it ends.
 */
@Command(name = "maintain", mixinStandardHelpOptions = true,
        description = {"Maintain nodes one batch after another: cordon, migrate each VM to a node already maintained "
                + "where it fits, drain the rest through the eviction API, the after-drain step, uncordon.",
                "The plan orders the nodes so that each VM moves once where possible and says beforehand how many "
                        + "migrations it makes, which VMs move more than once and why, what cannot move, and how long "
                        + "it takes. --dry-run prints it and writes nothing.",
                "Without --dry-run the plan is created as a MaintenancePlan (kubectl get mp) and followed here; the "
                        + "leader of the controllers (the console or `drainboard controllers`) executes it. Ctrl-C "
                        + "stops following, not the plan.",
                "Exit 0 when every node was maintained (--dry-run: nothing would be stranded); 1 when the plan failed, "
                        + "was aborted, or no controllers execute it; 2 for bad options; 3 with --dry-run when "
                        + "something would be stranded."})
public final class MaintainCommand implements Callable<Integer> {

    static final int EXIT_STRANDED = 3;
    /** How long a new plan may wait for the controllers to pick it up before the command says none run. */
    static final Duration CONTROLLERS_WAIT = Duration.ofSeconds(15);
    private static final Duration POLL = Duration.ofMillis(500);

    @Spec
    CommandSpec spec;
    @Mixin
    ClusterOptions cluster;
    @Parameters(paramLabel = "NODE", arity = "0..*", description = "The nodes to maintain (or --selector).")
    List<String> nodes;
    @Option(names = {"-l", "--selector"}, paramLabel = "S", description = "The nodes this label selector selects, e.g. role=worker.")
    String selector;
    @Option(names = "--max-unavailable", paramLabel = "N", defaultValue = "1",
            description = "How many nodes are drained at once (default: ${DEFAULT-VALUE}).")
    int maxUnavailable;
    @Option(names = "--after-drain", paramLabel = "STEP", defaultValue = "none",
            description = "Once a node is drained, before it is uncordoned: none, pause=DURATION (e.g. pause=10m), or "
                    + "wait-for-annotation=KEY (until something, e.g. an upgrade, annotates the node with KEY). Default: ${DEFAULT-VALUE}.")
    String afterDrain;
    @Option(names = "--name", paramLabel = "NAME", description = "The plan's name (default: maintenance-<random>).")
    String name;
    @Option(names = "--dry-run", description = "Print the plan: order, migrations per VM, estimate; write nothing.")
    boolean dryRun;
    @Option(names = {"-o", "--output"}, paramLabel = "FORMAT",
            description = "json: the plan (--dry-run) or the finished MaintenancePlan as one JSON document; progress goes to stderr.")
    String output;

    @Option(names = "--controllers-wait", paramLabel = "D", defaultValue = "15s", converter = GoDurations.class, hidden = true,
            description = "How long a new plan may wait for the controllers before the command says none run.")
    Duration controllersWait = CONTROLLERS_WAIT;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (output != null && !output.equals("json")) {
            throw new ParameterException(spec.commandLine(), "Invalid value for option '--output': '" + output
                    + "' (only json is supported)");
        }
        boolean byName = nodes != null && !nodes.isEmpty();
        if (byName == (selector != null)) {
            throw new ParameterException(spec.commandLine(), byName ? "give NODEs or --selector, not both"
                    : "give the nodes to maintain: NODE... or --selector S");
        }
        if (maxUnavailable < 1) {
            throw new ParameterException(spec.commandLine(), "--max-unavailable must be at least 1, not " + maxUnavailable);
        }
        AfterDrain after = afterDrain(afterDrain);
        MaintenancePlanSpec planSpec = new MaintenancePlanSpec(byName ? nodes : null, selector, maxUnavailable, after, null);
        try (Ops ops = cluster.connect()) {
            MaintenanceOps maintenance = new MaintenanceOps(ops);
            List<String> resolved;
            try {
                resolved = maintenance.nodes(planSpec);
            } catch (IllegalArgumentException e) {
                err.println("drainboard maintain: " + e.getMessage());
                return 1;
            }
            if (dryRun) {
                MaintenancePlanPreview plan = maintenance.preview(planSpec, resolved);
                if (output != null) {
                    out.println(json(plan));
                } else {
                    printPlan(out, plan, after);
                }
                out.flush();
                return plan.strands() ? EXIT_STRANDED : 0;
            }
            return run(ops, planSpec, out, err);
        } catch (ClusterOptions.CannotConnect | OpsException e) {
            err.println("drainboard maintain: " + e.getMessage());
            return 1;
        } finally {
            out.flush();
            err.flush();
        }
    }

    private AfterDrain afterDrain(String text) {
        String value = text.strip();
        if (value.equals("none")) {
            return AfterDrain.none();
        }
        int eq = value.indexOf('=');
        String kind = eq < 0 ? value : value.substring(0, eq);
        String arg = eq < 0 ? "" : value.substring(eq + 1);
        if (kind.equals("pause") && !arg.isEmpty()) {
            return AfterDrain.pause(GoDurations.parse(arg));
        }
        if (kind.equals("wait-for-annotation") && !arg.isEmpty()) {
            return AfterDrain.waitForAnnotation(arg);
        }
        throw new ParameterException(spec.commandLine(), "Invalid value for option '--after-drain': '" + text
                + "' (none, pause=DURATION or wait-for-annotation=KEY)");
    }

    /** Creates the plan and follows it until it ends; Ctrl-C leaves it running. */
    private int run(Ops ops, MaintenancePlanSpec planSpec, PrintWriter out, PrintWriter err) {
        PrintWriter progress = output != null ? err : out;
        MaintenancePlan created;
        try {
            created = ops.client().resources(MaintenancePlan.class)
                    .resource(new MaintenancePlan(name != null ? name : "maintenance-", planSpec)).create();
        } catch (KubernetesClientException e) {
            if (e.getCode() == 404) {
                err.println("drainboard maintain: the cluster does not serve " + MaintenancePlan.CRD_NAME
                        + " (run drainboard install-crds)");
            } else {
                err.println("drainboard maintain: cannot create the plan: "
                        + (e.getStatus() == null ? e.getMessage() : e.getStatus().getMessage()));
            }
            return 1;
        }
        String planName = created.name();
        progress.println("maintenanceplan/" + planName + " created; the leader of the controllers executes it");
        progress.flush();
        CountDownLatch stopped = new CountDownLatch(1);
        Signals.onStop(stopped::countDown);
        Instant createdAt = Instant.now();
        Map<String, String> shown = new HashMap<>();
        String shownPlan = null;
        while (true) {
            MaintenancePlan plan;
            try {
                plan = ops.client().resources(MaintenancePlan.class).withName(planName).get();
            } catch (KubernetesClientException e) {
                plan = null; // read again
            }
            if (plan == null && Duration.between(createdAt, Instant.now()).compareTo(Duration.ofSeconds(2)) > 0) {
                err.println("drainboard maintain: maintenanceplan/" + planName + " was deleted");
                return 1;
            }
            MaintenancePlanStatus status = plan == null ? null : plan.getStatus();
            if (status == null || status.phase() == null) {
                if (Duration.between(createdAt, Instant.now()).compareTo(controllersWait) >= 0) {
                    err.println("drainboard maintain: no controllers have picked up maintenanceplan/" + planName
                            + " after " + controllersWait.toSeconds() + "s: start the console or `drainboard controllers` "
                            + "on this cluster; the plan stays and starts then (kubectl get mp " + planName
                            + " -w; kubectl delete mp " + planName + " to drop it)");
                    return 1;
                }
            } else {
                String line = status.phase() + (status.message() == null ? "" : ": " + status.message());
                if (!line.equals(shownPlan)) {
                    progress.println("plan " + planName + " " + line + " [" + Objects.requireNonNullElse(status.progress(), "") + "]");
                    shownPlan = line;
                }
                for (NodeStatus n : status.nodes()) {
                    String nodeLine = n.phaseOrWaiting() + (n.message() == null ? "" : ": " + n.message());
                    if (!nodeLine.equals(shown.put(n.name(), nodeLine)) && n.phaseOrWaiting() != MaintenancePlanStatus.NodePhase.Waiting) {
                        progress.println("  node/" + n.name() + " " + nodeLine + timing(n));
                    }
                }
                progress.flush();
                if (status.phase().finished()) {
                    if (output != null) {
                        out.println(json(plan));
                    } else {
                        printReport(out, status);
                    }
                    return status.phase() == MaintenancePlanStatus.Phase.Succeeded ? 0 : 1;
                }
            }
            try {
                if (stopped.await(POLL.toMillis(), TimeUnit.MILLISECONDS)) {
                    err.println("drainboard maintain: stopped following; maintenanceplan/" + planName + " keeps running "
                            + "(kubectl get mp " + planName + "; to abort: kubectl patch mp " + planName
                            + " --type merge -p '{\"spec\":{\"action\":\"Abort\"}}')");
                    return 0;
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return 1;
            }
        }
    }

    private static String timing(NodeStatus n) {
        if (n.actualSeconds() == null || n.predictedSeconds() == null) {
            return "";
        }
        return " (took %s, predicted %s)".formatted(seconds(n.actualSeconds()), seconds(n.predictedSeconds()));
    }

    static void printPlan(PrintWriter out, MaintenancePlanPreview plan, AfterDrain after) {
        long nodes = plan.nodes().size();
        out.printf("Plan: %d nodes in %d batches, %d migrations, about %s%s%n", nodes, plan.batches().size(),
                plan.migrations(), seconds(plan.seconds()),
                after.typeOrNone() == AfterDrain.Type.WaitForAnnotation ? " plus the wait for " + after.annotation() + " on each node" : "");
        for (MaintenancePlanPreview.NodePlan n : plan.nodes()) {
            out.printf("batch %d  node/%s  %s%n", n.batch() + 1, n.name(), n.isSkipped() ? n.skipped()
                    : "starts at %s, takes %s, %d migrations%s".formatted(seconds(n.predictedStartSeconds()),
                    seconds(n.predictedSeconds()), n.migrations().size(), n.evictions() == 0 ? "" : ", " + n.evictions() + " other pods evicted"));
            for (MaintenancePlanPreview.Migration m : n.migrations()) {
                out.printf("  %s/%s → %s%n", m.namespace(), m.vmi(), m.to());
            }
        }
        if (!plan.vms().isEmpty()) {
            out.println("VMs:");
            for (MaintenancePlanPreview.VmPlan vm : plan.vms()) {
                out.printf("  %s/%s  %d %s  %s%n", vm.namespace(), vm.name(), vm.moves(), vm.moves() == 1 ? "move" : "moves",
                        String.join(" → ", vm.hops()));
            }
        }
        if (!plan.movedMoreThanOnce().isEmpty()) {
            out.println("Moved more than once:");
            plan.movedMoreThanOnce().forEach(v -> out.printf("  %s/%s: %s%n", v.namespace(), v.name(), v.reason()));
        }
        if (!plan.stranded().isEmpty()) {
            out.println("Stranded (cannot move):");
            plan.stranded().forEach(v -> out.printf("  %s: %s%n", v.name().isEmpty() ? "node/" + v.node()
                    : v.namespace() + "/" + v.name() + " on node/" + v.node(), v.reason()));
        }
    }

    private static void printReport(PrintWriter out, MaintenancePlanStatus status) {
        out.printf("%s: %s%n", status.phase(), status.message());
        out.printf("%-20s %-9s %10s %10s %11s%n", "NODE", "PHASE", "PREDICTED", "ACTUAL", "MIGRATIONS");
        for (NodeStatus n : status.nodes()) {
            out.printf("%-20s %-9s %10s %10s %5s/%-5s%n", n.name(), n.phaseOrWaiting(),
                    n.predictedSeconds() == null ? "-" : seconds(n.predictedSeconds()),
                    n.actualSeconds() == null ? "-" : seconds(n.actualSeconds()),
                    n.migrationsMade() == null ? "-" : n.migrationsMade().toString(),
                    n.migrationsPredicted() == null ? "-" : n.migrationsPredicted().toString());
        }
        if (status.plan() != null) {
            out.printf("migrations: %d made, %d planned; predicted %s in all%n",
                    status.migrationsMade() == null ? 0 : status.migrationsMade(), status.plan().migrations(),
                    seconds(status.plan().seconds() == null ? 0 : status.plan().seconds()));
        }
    }

    static String seconds(double s) {
        if (s < 60) {
            return String.format(Locale.ROOT, "%.0fs", s);
        }
        long whole = Math.round(s);
        return whole >= 3600 ? "%dh%02dm%02ds".formatted(whole / 3600, whole % 3600 / 60, whole % 60)
                : "%dm%02ds".formatted(whole / 60, whole % 60);
    }

    private static String json(Object value) {
        try {
            return new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(value);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
