package dev.drainboard.app;

import dev.drainboard.ops.EvictionResponse;
import dev.drainboard.ops.Ops;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.OptionalLong;
import java.util.concurrent.Callable;

/** {@code drainboard evict POD -n NS}: one eviction through the eviction API; prints the API server's answer verbatim. */
@Command(name = "evict", mixinStandardHelpOptions = true,
        description = {"Evict one pod through the eviction API (webhooks and PodDisruptionBudgets apply).",
                "Exit 0 when the eviction was accepted, 1 when it was refused."})
public final class EvictCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;
    @Mixin
    ClusterOptions cluster;
    @Parameters(paramLabel = "POD")
    String pod;
    @Option(names = {"-n", "--namespace"}, paramLabel = "NS", defaultValue = "default", description = "Namespace (default: ${DEFAULT-VALUE}).")
    String namespace;
    @Option(names = "--grace-period", paramLabel = "N", defaultValue = "-1",
            description = "Seconds the pod gets to terminate; negative: its own (default: ${DEFAULT-VALUE}).")
    long gracePeriod;
    @Option(names = "--dry-run", description = "Ask the API server without evicting.")
    boolean dryRun;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        try (Ops ops = cluster.connect()) {
            EvictionResponse answer = ops.evict(namespace, pod,
                    gracePeriod < 0 ? OptionalLong.empty() : OptionalLong.of(gracePeriod), dryRun);
            if (answer.accepted()) {
                out.println("evicting pod " + namespace + "/" + pod + (dryRun ? " (dry run)" : ""));
                out.println("pod/" + pod + " evicted" + (dryRun ? " (dry run)" : ""));
                return 0;
            }
            err.println("error when evicting pods/\"" + pod + "\" -n \"" + namespace + "\" (HTTP " + answer.code() + "): " + answer.text());
            return 1;
        } catch (ClusterOptions.CannotConnect e) {
            err.println("drainboard evict: " + e.getMessage());
            return 1;
        } finally {
            out.flush();
            err.flush();
        }
    }
}
