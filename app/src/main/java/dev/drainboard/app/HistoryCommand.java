package dev.drainboard.app;

import dev.drainboard.history.DrainRecord;
import dev.drainboard.history.HistoryDocuments;
import dev.drainboard.history.HistoryUnavailableException;
import dev.drainboard.ops.Ops;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;

/**
 * {@code drainboard history [NAME]}: the drains, evacuations and cancelled migrations the cluster has recorded
 * (DrainRecords, newest first), as a table, JSON or Markdown. Exit 0; 1 when the cluster cannot be read (or keeps
 * no history, or NAME is not there); 2 for bad options.
 */
@Command(name = "history", mixinStandardHelpOptions = true,
        description = {"List the drains, evacuations and cancelled migrations recorded in the cluster, newest first.",
                "With NAME: that record in full (pods, migrations, what was left behind).",
                "Exit 0; 1 when the cluster cannot be read or keeps no history (see install-crds); 2 for bad options."})
public final class HistoryCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;
    @Mixin
    ClusterOptions cluster;
    @Option(names = {"-o", "--output"}, paramLabel = "FORMAT", defaultValue = "table",
            description = "table, json or markdown (default: ${DEFAULT-VALUE}).")
    String output;
    @Parameters(paramLabel = "NAME", arity = "0..1", description = "One record (see the NAME column).")
    String name;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (!List.of("table", "json", "markdown").contains(output)) {
            throw new ParameterException(spec.commandLine(), "Invalid value for option '--output': '" + output
                    + "' (expected table, json or markdown)");
        }
        try (Ops ops = cluster.connect()) {
            List<DrainRecord> records;
            if (name != null) {
                Optional<DrainRecord> one = ops.history().store().get(name);
                if (one.isEmpty()) {
                    err.println("drainboard history: drainrecords.drainboard.dev \"" + name + "\" not found");
                    return 1;
                }
                records = List.of(one.get());
            } else {
                records = ops.history().store().list();
            }
            out.print(switch (output) {
                case "json" -> name != null ? HistoryDocuments.json(records.getFirst()) : HistoryDocuments.json(records);
                case "markdown" -> name != null ? HistoryDocuments.markdown(records.getFirst()) : HistoryDocuments.markdown(records);
                default -> name != null ? HistoryDocuments.markdown(records.getFirst())
                        : records.isEmpty() ? "No drains recorded.\n" : HistoryDocuments.table(records);
            });
            return 0;
        } catch (ClusterOptions.CannotConnect | HistoryUnavailableException e) {
            err.println("drainboard history: " + e.getMessage());
            return 1;
        } finally {
            out.flush();
            err.flush();
        }
    }
}
