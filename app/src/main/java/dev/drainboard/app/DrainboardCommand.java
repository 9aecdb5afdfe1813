package dev.drainboard.app;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.util.concurrent.Callable;

/** {@code drainboard} with no subcommand opens the console window. */
@Command(name = "drainboard",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = {
                "Operations console for draining KubeVirt nodes.",
                "Without a command it opens the console on the embedded demo cluster."},
        subcommands = {ServeCommand.class, UiCommand.class, InstallCrdsCommand.class, ControllersCommand.class,
                DrainCommand.class, NodeCommands.Cordon.class, NodeCommands.Uncordon.class, NodeCommands.Taint.class,
                EvictCommand.class, VmiCommands.CancelEvacuation.class, VmiCommands.Migrate.class,
                VmiCommands.CancelMigration.class, ScaleCommand.class, HistoryCommand.class, MaintainCommand.class,
                SnapshotCommand.class})
public final class DrainboardCommand implements Callable<Integer> {

    /** The scenario the console's embedded cluster starts from unless --scenario says otherwise. */
    static final String DEFAULT_SCENARIO = "demo";

    @Option(names = "--scenario", paramLabel = "demo|pressure|maintenance|FILE|DIR", defaultValue = DEFAULT_SCENARIO,
            description = "Scenario for the embedded cluster (default: ${DEFAULT-VALUE}).")
    String scenario;

    @Option(names = "--webhook-host", paramLabel = "HOST",
            description = "Where a cluster connected to in Control mode calls the eviction webhook (see `drainboard ui --help`).")
    String webhookHost;

    @Option(names = "--webhook-client-ca", paramLabel = "FILE",
            description = "CA of the client certificate such a cluster's API server presents to webhooks; the eviction "
                    + "webhook then answers no one else (see `drainboard ui --help`).")
    java.nio.file.Path webhookClientCa;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        UiCommand.checkWebhookHost(spec.commandLine(), webhookHost);
        return UiCommand.launch(scenario, webhookHost, UiCommand.webhookCallers(spec.commandLine(), webhookClientCa));
    }
}
