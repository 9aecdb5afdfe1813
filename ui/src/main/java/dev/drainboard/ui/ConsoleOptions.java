package dev.drainboard.ui;

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
 */
public record ConsoleOptions(String scenario, List<Path> kubeconfigs, boolean defaultKubeconfig, Preferences prefs,
                             Optional<ConnectTarget> autoConnect, Optional<String> webhookHost) {

    public ConsoleOptions {
        kubeconfigs = List.copyOf(kubeconfigs);
    }

    public static ConsoleOptions defaults() {
        return new ConsoleOptions("demo", List.of(), true, Preferences.userRoot().node("dev/drainboard/ui"), Optional.empty(),
                Optional.empty());
    }

    public ConsoleOptions withScenario(String s) {
        return new ConsoleOptions(s, kubeconfigs, defaultKubeconfig, prefs, autoConnect, webhookHost);
    }

    public ConsoleOptions withKubeconfigs(List<Path> files, boolean includeDefault) {
        return new ConsoleOptions(scenario, files, includeDefault, prefs, autoConnect, webhookHost);
    }

    public ConsoleOptions withPrefs(Preferences p) {
        return new ConsoleOptions(scenario, kubeconfigs, defaultKubeconfig, p, autoConnect, webhookHost);
    }

    public ConsoleOptions withAutoConnect(ConnectTarget target) {
        return new ConsoleOptions(scenario, kubeconfigs, defaultKubeconfig, prefs, Optional.of(target), webhookHost);
    }

    public ConsoleOptions withWebhookHost(String host) {
        return new ConsoleOptions(scenario, kubeconfigs, defaultKubeconfig, prefs, autoConnect,
                host == null || host.isBlank() ? Optional.empty() : Optional.of(host.trim()));
    }
}
