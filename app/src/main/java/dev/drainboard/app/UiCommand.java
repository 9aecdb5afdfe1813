package dev.drainboard.app;

import dev.drainboard.ui.ConsoleApplication;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.util.concurrent.Callable;

/** {@code drainboard ui}: the console window (also what plain {@code drainboard} runs). */
@Command(name = "ui", mixinStandardHelpOptions = true,
        description = "Open the console window on the embedded demo cluster.")
public final class UiCommand implements Callable<Integer> {

    @Option(names = "--scenario", paramLabel = "demo|pressure|FILE|DIR", defaultValue = "demo",
            description = "Scenario for the embedded cluster (default: ${DEFAULT-VALUE}).")
    String scenario;

    @Option(names = "--webhook-host", paramLabel = "HOST",
            description = {"Address at which a cluster connected to in Control mode calls the eviction webhook "
                    + "(the webhook listens there too).",
                    "Default: loopback for an API server on this machine, else this machine's address on the route to it."})
    String webhookHost;

    public UiCommand() {
    }

    UiCommand(String scenario, String webhookHost) {
        this.scenario = scenario;
        this.webhookHost = webhookHost;
    }

    @Override
    public Integer call() {
        ConsoleApplication.launchWith(scenario, webhookHost);
        return 0;
    }
}
