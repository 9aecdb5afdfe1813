package dev.drainboard.app;

import dev.drainboard.ops.Ops;
import dev.drainboard.ops.OpsException;
import dev.drainboard.ops.ReplicaSetChange;
import dev.drainboard.ops.ReplicaSetOps;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;

/**
 * {@code scale vmirs NAME --replicas N} (or {@code vmirs/NAME}): sets a VirtualMachineInstanceReplicaSet's replicas
 * through its scale subresource. One line; exit 0 when scaled (or already at N), 1 when refused or failed, 2 for bad
 * input, which writes nothing and is refused before connecting.
 */
@Command(name = "scale", mixinStandardHelpOptions = true,
        description = {"Set the number of VMIs of a VirtualMachineInstanceReplicaSet (through its scale subresource);",
                "the replica set controller creates or deletes VMIs (deleting not-ready ones first, then migrating, then ready).",
                "Example: drainboard scale vmirs web --replicas 5 -n demo --kubeconfig F"})
public final class ScaleCommand implements Callable<Integer> {

    /** How the resource may be named, as kubectl accepts it. */
    static final Set<String> RESOURCE_NAMES = Set.of("vmirs", "vmirss", "virtualmachineinstancereplicaset",
            "virtualmachineinstancereplicasets", "virtualmachineinstancereplicaset.kubevirt.io",
            "virtualmachineinstancereplicasets.kubevirt.io");

    @Spec
    CommandSpec spec;
    @Mixin
    ClusterOptions cluster;
    @Option(names = {"-n", "--namespace"}, paramLabel = "NS", defaultValue = "default", description = "Namespace (default: ${DEFAULT-VALUE}).")
    String namespace;
    @Option(names = "--replicas", paramLabel = "N", required = true, description = "The number of VMIs wanted: a whole number, 0 or more.")
    String replicas;
    @Parameters(arity = "1..2", paramLabel = "vmirs NAME | vmirs/NAME")
    List<String> target;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        try {
            String name;
            int count;
            try {
                name = replicaSetName(target);
                count = ReplicaSetOps.parseReplicas(replicas);
            } catch (IllegalArgumentException e) {
                err.println("drainboard scale: " + e.getMessage());
                return 2;
            }
            try (Ops ops = cluster.connect()) {
                ReplicaSetChange change = ops.scale(namespace, name, count);
                out.println(change.message());
                return 0;
            } catch (ClusterOptions.CannotConnect | OpsException e) {
                err.println("drainboard scale: " + e.getMessage());
                return 1;
            }
        } finally {
            out.flush();
            err.flush();
        }
    }

    /** The set's name from {@code vmirs NAME} or {@code vmirs/NAME}. */
    static String replicaSetName(List<String> target) {
        String type;
        String name;
        if (target.size() == 1) {
            int slash = target.getFirst().indexOf('/');
            if (slash < 0) {
                throw new IllegalArgumentException("say what to scale: vmirs NAME (or vmirs/NAME)");
            }
            type = target.getFirst().substring(0, slash);
            name = target.getFirst().substring(slash + 1);
        } else {
            type = target.get(0);
            name = target.get(1);
        }
        if (!RESOURCE_NAMES.contains(type.toLowerCase(java.util.Locale.ROOT))) {
            throw new IllegalArgumentException("only VirtualMachineInstanceReplicaSets can be scaled (vmirs NAME); got '" + type + "'");
        }
        if (name.isEmpty() || name.contains("/")) {
            throw new IllegalArgumentException("'" + name + "' is not a replica set name");
        }
        return name;
    }
}
