package dev.drainboard.app;

import dev.drainboard.controlplane.Kubeconfigs;
import dev.drainboard.kubevirt.crd.CrdInstaller;
import dev.drainboard.kubevirt.crd.CrdInstaller.Outcome;
import dev.drainboard.kubevirt.crd.CrdInstaller.Result;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code drainboard install-crds}: puts every CRD of a KubeVirt installation ({@link dev.drainboard.kubevirt.crd.KubeVirtCrds}) into a cluster that lacks them, so Drainboard's
 * controllers can run there without KubeVirt installed. Exit code 0 when every CRD is in place, 1 when the cluster
 * refused or could not be reached, 2 for a wrong invocation (missing kubeconfig, unknown context).
 */
@Command(name = "install-crds", mixinStandardHelpOptions = true,
        description = {
                "Install the KubeVirt CRDs into a cluster.",
                "Installs every CRD KubeVirt " + dev.drainboard.kubevirt.crd.KubeVirtCrds.RELEASE
                        + " installs (kubevirt.io VMIs, VMs, migrations, replica sets, presets, KubeVirt; instancetypes, "
                        + "preferences, pools, migration policies, snapshots, exports, clones, backups, plugins), "
                        + "with KubeVirt's schemas, and Drainboard's own (drainrecords.drainboard.dev: the drain history; maintenanceplans.drainboard.dev: maintenance plans). "
                        + "CRDs already there are left alone unless --force is given."})
public final class InstallCrdsCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--kubeconfig", paramLabel = "FILE", required = true,
            description = "Kubeconfig of the cluster to install into.")
    Path kubeconfig;

    @Option(names = "--context", paramLabel = "NAME",
            description = "Context of the kubeconfig to use (default: its current context).")
    String context;

    @Option(names = "--force",
            description = "Replace CRDs that already exist with Drainboard's (careful: on a cluster running KubeVirt "
                    + "this replaces KubeVirt's own CRDs).")
    boolean force;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Config config;
        try {
            config = clientConfig();
        } catch (UsageException e) {
            err.println("drainboard install-crds: " + e.getMessage());
            return 2;
        }
        try (KubernetesClient client = new KubernetesClientBuilder().withConfig(config).build()) {
            try {
                client.getKubernetesVersion();
            } catch (KubernetesClientException e) {
                err.println("drainboard install-crds: cannot reach the cluster at " + config.getMasterUrl() + ": "
                        + rootMessage(e));
                return 1;
            }
            if (force) {
                err.println("--force: existing CRDs are replaced by Drainboard's.");
            }
            List<Result> results = new java.util.ArrayList<>(new CrdInstaller(client).installKubeVirtCrds(force));
            // Drainboard's own (its drain history, docs/drain.md "History").
            results.addAll(new CrdInstaller(client).installDrainboardCrds(force));
            for (Result result : results) {
                out.println(describe(result));
            }
            long failed = results.stream().filter(r -> r.outcome() == Outcome.FAILED).count();
            out.println(summary(results));
            out.flush();
            return failed == 0 ? 0 : 1;
        }
    }

    private Config clientConfig() throws UsageException {
        Config config;
        try {
            config = Kubeconfigs.load(kubeconfig, context);
        } catch (Kubeconfigs.InvalidKubeconfigException e) {
            throw new UsageException(e.getMessage());
        }
        // A one-shot command: say "unreachable" after one retry instead of fabric8's default ten.
        config.setRequestRetryBackoffLimit(1);
        return config;
    }

    static String describe(Result result) {
        return switch (result.outcome()) {
            case CREATED -> "created  " + result.name();
            case UPDATED -> "replaced " + result.name();
            case SKIPPED -> "present  " + result.name() + " (left as it is; --force replaces it)";
            case FAILED -> "FAILED   " + result.name() + ": " + result.message();
        };
    }

    static String summary(List<Result> results) {
        long created = results.stream().filter(r -> r.outcome() == Outcome.CREATED).count();
        long replaced = results.stream().filter(r -> r.outcome() == Outcome.UPDATED).count();
        long present = results.stream().filter(r -> r.outcome() == Outcome.SKIPPED).count();
        long failed = results.stream().filter(r -> r.outcome() == Outcome.FAILED).count();
        return "%d created, %d replaced, %d already present, %d failed".formatted(created, replaced, present, failed);
    }

    private static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t == e ? String.valueOf(e.getMessage()) : e.getMessage() + " (" + t.getMessage() + ")";
    }

    private static final class UsageException extends Exception {
        UsageException(String message) {
            super(message);
        }
    }
}
