package dev.drainboard.ui.controllers;

import static org.assertj.core.api.Assertions.assertThat;

import dev.drainboard.controlplane.WebhookAddress;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("controllers screen: whether the cluster can call the eviction webhook")
class WebhookReachabilityTest {

    @Test
    @DisplayName("nothing to say for the embedded cluster or an API server on this machine")
    void localClusters() {
        assertThat(ControllersView.reachability(true, "https://127.0.0.1:40000", WebhookAddress.LOOPBACK)).isEmpty();
        assertThat(ControllersView.reachability(false, "https://127.0.0.1:6443", WebhookAddress.LOOPBACK)).isEmpty();
        assertThat(ControllersView.reachability(false, "https://localhost:6443", WebhookAddress.LOOPBACK)).isEmpty();
    }

    @Test
    @DisplayName("a remote cluster: how the address was chosen, what happens if it is unreachable, and the way out")
    void remoteCluster() {
        WebhookAddress routed = new WebhookAddress("10.0.0.7", "10.0.0.7", "this machine's address on the route to 10.0.0.5");
        assertThat(ControllersView.reachability(false, "https://10.0.0.5:6443", routed))
                .contains("Address: this machine's address on the route to 10.0.0.5.")
                .contains("The API server at https://10.0.0.5:6443 must reach it")
                .contains("no VMI migrates")
                .contains("--webhook-host ADDRESS");
        assertThat(ControllersView.reachability(false, "https://10.0.0.5:6443", WebhookAddress.given("198.51.100.9")))
                .contains("Address: given with --webhook-host; not an address of this machine, so the webhook listens on all of them.");
    }
}
