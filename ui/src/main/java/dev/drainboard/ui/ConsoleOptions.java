package dev.drainboard.ui;

import dev.drainboard.admission.WebhookCallers;
import dev.drainboard.ui.connect.ConnectTarget;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.prefs.Preferences;

/**
 * How the console starts.
 *
 * @param scenario          the embedded cluster's preselected scenario ({@code demo}, a file or a folder)
 * @param kubeconfigs       kubeconfig files to list besides the default one
 * @param defaultKubeconfig list {@code KUBECONFIG} / {@code ~/.kube/config} (tests turn it off)
 * @param prefs             where theme and recent connections are remembered
 * @param autoConnect       connect at once (e.g. {@code drainboard ui --connect})
 * @param webhookHost       where a cluster calls the eviction webhook in Control mode ({@code --webhook-host});
 *                          empty: loopback for a local API server, else this machine's address on the route to it
 * @param webhookCallers    whom the eviction webhook answers on a cluster other than the embedded one
 *                          ({@code --webhook-client-ca}; default anyone, which the Controllers screen warns about); the
 *                          embedded cluster's webhook always answers only its API server
 */
public record ConsoleOptions(String scenario, List<Path> kubeconfigs, boolean defaultKubeconfig, Preferences prefs,
                             Optional<ConnectTarget> autoConnect, Optional<String> webhookHost,
                             WebhookCallers webhookCallers) {

    public ConsoleOptions {
        kubeconfigs = List.copyOf(kubeconfigs);
    }

    public static ConsoleOptions defaults() {
        return new ConsoleOptions("demo", List.of(), true, Preferences.userRoot().node("dev/drainboard/ui"), Optional.empty(),
                Optional.empty(), WebhookCallers.anyone());
    }

    public ConsoleOptions withScenario(String s) {
        return new ConsoleOptions(s, kubeconfigs, defaultKubeconfig, prefs, autoConnect, webhookHost, webhookCallers);
    }

    public ConsoleOptions withKubeconfigs(List<Path> files, boolean includeDefault) {
        return new ConsoleOptions(scenario, files, includeDefault, prefs, autoConnect, webhookHost, webhookCallers);
    }

    public ConsoleOptions withPrefs(Preferences p) {
        return new ConsoleOptions(scenario, kubeconfigs, defaultKubeconfig, p, autoConnect, webhookHost, webhookCallers);
    }

    public ConsoleOptions withAutoConnect(ConnectTarget target) {
        return new ConsoleOptions(scenario, kubeconfigs, defaultKubeconfig, prefs, Optional.of(target), webhookHost, webhookCallers);
    }

    public ConsoleOptions withWebhookHost(String host) {
        return new ConsoleOptions(scenario, kubeconfigs, defaultKubeconfig, prefs, autoConnect,
                host == null || host.isBlank() ? Optional.empty() : Optional.of(host.trim()), webhookCallers);
    }

    public ConsoleOptions withWebhookCallers(WebhookCallers callers) {
        return new ConsoleOptions(scenario, kubeconfigs, defaultKubeconfig, prefs, autoConnect, webhookHost, callers);
    }
}
