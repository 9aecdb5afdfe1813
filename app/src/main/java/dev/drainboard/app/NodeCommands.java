package dev.drainboard.app;

import dev.drainboard.ops.InvalidTaintException;
import dev.drainboard.ops.NodeChange;
import dev.drainboard.ops.Ops;
import dev.drainboard.ops.OpsException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code cordon}, {@code uncordon} and {@code taint}: one line as kubectl prints it; exit 0, 1 when refused, 2 for bad input. */
public final class NodeCommands {

    private NodeCommands() {
    }

    /** An operation on one node. */
    interface NodeAction {
        NodeChange apply(Ops ops, String node) throws InvalidTaintException;
    }

    static int run(CommandSpec spec, ClusterOptions cluster, String node, NodeAction action) {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        String name = "drainboard " + spec.name();
        try (Ops ops = cluster.connect()) {
            out.println(action.apply(ops, node).message());
            out.flush();
            return 0;
        } catch (ClusterOptions.CannotConnect | OpsException e) {
            err.println(name + ": " + e.getMessage());
            return 1;
        } catch (InvalidTaintException e) {
            err.println(name + ": " + e.getMessage());
            return e.getMessage().contains(" already has ") || e.getMessage().contains("not found") ? 1 : 2;
        } finally {
            err.flush();
        }
    }

    @Command(name = "cordon", mixinStandardHelpOptions = true, description = "Mark a node unschedulable.")
    public static final class Cordon implements Callable<Integer> {
        @Spec
        CommandSpec spec;
        @Mixin
        ClusterOptions cluster;
        @Parameters(paramLabel = "NODE")
        String node;

        @Override
        public Integer call() {
            return run(spec, cluster, node, (ops, n) -> ops.cordon(n));
        }
    }

    @Command(name = "uncordon", mixinStandardHelpOptions = true, description = "Mark a node schedulable again.")
    public static final class Uncordon implements Callable<Integer> {
        @Spec
        CommandSpec spec;
        @Mixin
        ClusterOptions cluster;
        @Parameters(paramLabel = "NODE")
        String node;

        @Override
        public Integer call() {
            return run(spec, cluster, node, (ops, n) -> ops.uncordon(n));
        }
    }

    @Command(name = "taint", mixinStandardHelpOptions = true,
            description = {"Add or remove taints as kubectl taint does: KEY[=VALUE]:EFFECT adds, KEY:EFFECT- or KEY- removes.",
                    "Effects: NoSchedule, PreferNoSchedule, NoExecute. Invalid input writes nothing."})
    public static final class Taint implements Callable<Integer> {
        @Spec
        CommandSpec spec;
        @Mixin
        ClusterOptions cluster;
        @Parameters(index = "0", paramLabel = "NODE")
        String node;
        @Parameters(index = "1..*", arity = "1..*", paramLabel = "TAINT")
        List<String> taints;
        @Option(names = "--overwrite", description = "Replace a taint with the same key and effect.")
        boolean overwrite;

        @Override
        public Integer call() {
            try {
                dev.drainboard.ops.Taints.parse(taints); // bad input is refused before connecting
            } catch (InvalidTaintException e) {
                spec.commandLine().getErr().println("drainboard taint: " + e.getMessage());
                spec.commandLine().getErr().flush();
                return 2;
            }
            return run(spec, cluster, node, (ops, n) -> ops.taint(n, taints, overwrite));
        }
    }
}
