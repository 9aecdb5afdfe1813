package dev.drainboard.app;

import dev.drainboard.controlplane.WebhookAddress;
import dev.drainboard.ui.ConsoleApplication;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

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

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        checkWebhookHost(spec.commandLine(), webhookHost);
        return launch(scenario, webhookHost);
    }

    /** Opens the console (blocking until it closes). */
    static int launch(String scenario, String webhookHost) {
        ConsoleApplication.launchWith(scenario, webhookHost);
        return 0;
    }

    /** A bad {@code --webhook-host} is refused before the window opens (exit 2, like any bad option). */
    static void checkWebhookHost(CommandLine commandLine, String webhookHost) {
        if (webhookHost != null) {
            WebhookAddress.problem(webhookHost).ifPresent(problem -> {
                throw new ParameterException(commandLine, "Invalid value for option '--webhook-host': " + problem);
            });
        }
    }
}
