package dev.drainboard.app;

import dev.drainboard.ops.Ops;
import dev.drainboard.ops.OpsException;
import dev.drainboard.ops.VmiChange;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.concurrent.Callable;
import java.util.function.Function;

/**
 * {@code cancel-evacuation}, {@code migrate} and {@code cancel-migration}: one line; exit 0 when done (or nothing
 * was left to do), 1 when refused or failed, 2 for bad input (picocli).
 */
public final class VmiCommands {

    private VmiCommands() {
    }

    /** What the three commands share: the cluster, the namespace, and how an outcome becomes an exit code. */
    abstract static class VmiCommand implements Callable<Integer> {
        @Spec
        CommandSpec spec;
        @Mixin
        ClusterOptions cluster;
        @Option(names = {"-n", "--namespace"}, paramLabel = "NS", defaultValue = "default", description = "Namespace (default: ${DEFAULT-VALUE}).")
        String namespace;

        /**
         * @param unchangedIsFailure whether "nothing written" means the user did not get what they asked for (a
         *                           migration that already finished cannot be cancelled) rather than it being so already
         */
        int run(boolean unchangedIsFailure, Function<Ops, VmiChange> action) {
            PrintWriter out = spec.commandLine().getOut();
            PrintWriter err = spec.commandLine().getErr();
            String command = "drainboard " + spec.name();
            try (Ops ops = cluster.connect()) {
                VmiChange change = action.apply(ops);
                if (!change.changed() && unchangedIsFailure) {
                    err.println(command + ": " + change.message());
                    return 1;
                }
                out.println(change.message());
                return 0;
            } catch (ClusterOptions.CannotConnect | OpsException e) {
                err.println(command + ": " + e.getMessage());
                return 1;
            } finally {
                out.flush();
                err.flush();
            }
        }
    }

    @Command(name = "cancel-evacuation", mixinStandardHelpOptions = true,
            description = {"Clear a VMI's evacuation mark (status.evacuationNodeName) so it is no longer migrated away.",
                    "Refused while its node still carries the drain taint: remove the taint first."})
    public static final class CancelEvacuation extends VmiCommand {
        @Parameters(paramLabel = "VMI")
        String vmi;

        @Override
        public Integer call() {
            return run(false, ops -> ops.cancelEvacuation(namespace, vmi));
        }
    }

    @Command(name = "migrate", mixinStandardHelpOptions = true,
            description = {"Live-migrate a VMI: create a VirtualMachineInstanceMigration for it.",
                    "Refused unless the VMI is running, live-migratable and has no unfinished migration."})
    public static final class Migrate extends VmiCommand {
        @Parameters(paramLabel = "VMI")
        String vmi;

        @Override
        public Integer call() {
            return run(true, ops -> ops.migrate(namespace, vmi));
        }
    }

    @Command(name = "cancel-migration", mixinStandardHelpOptions = true,
            description = {"Cancel a live migration by deleting its VirtualMachineInstanceMigration; the VMI stays on its source node.",
                    "Exit 1 when the migration already finished."})
    public static final class CancelMigration extends VmiCommand {
        @Parameters(paramLabel = "VMIM")
        String vmim;

        @Override
        public Integer call() {
            return run(true, ops -> ops.cancelMigration(namespace, vmim));
        }
    }
}
