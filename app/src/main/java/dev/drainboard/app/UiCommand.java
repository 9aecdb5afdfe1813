package dev.drainboard.app;

import dev.drainboard.admission.WebhookCallers;
import dev.drainboard.controlplane.WebhookAddress;
import dev.drainboard.pki.CaCertificates;
import dev.drainboard.ui.ConsoleApplication;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.nio.file.Path;
import java.util.concurrent.Callable;

/** {@code drainboard ui}: the console window (also what plain {@code drainboard} runs). */
@Command(name = "ui", mixinStandardHelpOptions = true,
        description = "Open the console window on the embedded demo cluster.")
public final class UiCommand implements Callable<Integer> {

    @Option(names = "--scenario", paramLabel = "demo|pressure|maintenance|FILE|DIR", defaultValue = DrainboardCommand.DEFAULT_SCENARIO,
            description = "Scenario for the embedded cluster (default: ${DEFAULT-VALUE}).")
    String scenario;

    @Option(names = "--webhook-host", paramLabel = "HOST",
            description = {"Address at which a cluster connected to in Control mode calls the eviction webhook "
                    + "(the webhook listens there too).",
                    "Default: loopback for an API server on this machine, else this machine's address on the route to it."})
    String webhookHost;

    @Option(names = "--webhook-client-ca", paramLabel = "FILE",
            description = {"CA (PEM) of the client certificate the API server of a cluster connected to in Control mode "
                    + "presents to webhooks (its AdmissionConfiguration's kubeconfig): the eviction webhook then refuses "
                    + "every other caller in the TLS handshake.",
                    "Without it the webhook answers anyone who can reach it, and the Controllers screen says so. The "
                            + "embedded cluster's webhook always answers only its own API server."})
    Path webhookClientCa;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        checkWebhookHost(spec.commandLine(), webhookHost);
        return launch(scenario, webhookHost, webhookCallers(spec.commandLine(), webhookClientCa));
    }

    /** Opens the console (blocking until it closes). */
    static int launch(String scenario, String webhookHost, WebhookCallers callers) {
        var noDisplay = DisplayRequirement.missing(System.getenv(), System.getProperty("os.name"),
                System.getProperty("glass.platform"));
        if (noDisplay.isPresent()) {
            System.err.println(noDisplay.get());
            return 1;
        }
        ConsoleApplication.launchWith(scenario, webhookHost, callers);
        return 0;
    }

    /**
     * Whom the eviction webhook answers, from {@code --webhook-client-ca} (anyone without it). A file that is missing or
     * holds no PEM CA certificate is refused before anything starts (exit 2, like any bad option).
     */
    static WebhookCallers webhookCallers(CommandLine commandLine, Path clientCa) {
        if (clientCa == null) {
            return WebhookCallers.anyone();
        }
        try {
            return WebhookCallers.fromFile(clientCa);
        } catch (CaCertificates.InvalidCaException e) {
            throw new ParameterException(commandLine, "Invalid value for option '--webhook-client-ca': " + e.getMessage());
        }
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
