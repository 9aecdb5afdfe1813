package dev.drainboard.app;

import dev.drainboard.controlplane.Kubeconfigs;
import dev.drainboard.ops.Ops;
import dev.drainboard.snapshot.ClusterSnapshot;
import io.fabric8.kubernetes.client.KubernetesClientException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Instant;
import java.util.concurrent.Callable;

/**
 * {@code drainboard snapshot -o DIR}: the cluster's drain-relevant state as a scenario folder for
 * {@code drainboard serve --scenario DIR} (rehearse a drain or a maintenance on a copy). Exit 0 when everything was
 * copied; 3 when some kinds could not be read (forbidden): the rest is written and DIR's README.txt names what is
 * missing; 1 when the cluster cannot be reached or DIR cannot be written (nothing is written); 2 for bad options.
 */
@Command(name = "snapshot", mixinStandardHelpOptions = true,
        description = {"Copy the cluster's drain-relevant state into a folder that 'drainboard serve --scenario DIR' runs.",
                "Nodes (capacity, labels, taints), the KubeVirt CR, VMs, VMIs with the node each runs on, pods and their "
                        + "owners, PDBs, PVCs, storage classes, instancetypes, preferences and migration policies. "
                        + "Secrets and ConfigMap data are left out (DIR/README.txt says what was copied).",
                "Exit 0; 3 when some kinds could not be read (the rest is written, README.txt names what is missing); "
                        + "1 when the cluster cannot be read or DIR cannot be written (nothing is written); 2 for bad options."})
public final class SnapshotCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;
    @Mixin
    ClusterOptions cluster;
    @Option(names = {"-o", "--output"}, paramLabel = "DIR", required = true,
            description = "The folder to write (created; must be empty unless --force).")
    Path output;
    @Option(names = "--force", description = "Write into a folder that is not empty, replacing the scenario files "
            + "(*.yaml, *.yml, *.json) and README.txt in it; other files stay.")
    boolean force;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        try {
            ClusterSnapshot.checkWritable(output, force);
        } catch (IllegalStateException | IOException e) {
            err.println("drainboard snapshot: " + e.getMessage());
            return 1;
        }
        ClusterSnapshot snapshot;
        try (Ops ops = cluster.connect()) {
            snapshot = ClusterSnapshot.take(ops.client(), Instant.now());
        } catch (ClusterOptions.CannotConnect e) {
            err.println("drainboard snapshot: " + e.getMessage());
            return 1;
        } catch (KubernetesClientException e) {
            err.println("drainboard snapshot: cannot read the cluster: " + Kubeconfigs.rootMessage(e) + " (nothing written)");
            return 1;
        } finally {
            err.flush();
        }
        try {
            snapshot.write(output, force);
        } catch (IllegalStateException | IOException e) {
            err.println("drainboard snapshot: cannot write " + output + ": " + e.getMessage() + " (nothing written)");
            err.flush();
            return 1;
        }
        for (String missing : snapshot.unreadable()) {
            err.println("drainboard snapshot: could not read " + missing);
        }
        out.println("wrote " + output + ": " + snapshot.summary());
        out.println("serve it with: drainboard serve --scenario " + output);
        out.flush();
        err.flush();
        return snapshot.complete() ? 0 : 3;
    }
}
