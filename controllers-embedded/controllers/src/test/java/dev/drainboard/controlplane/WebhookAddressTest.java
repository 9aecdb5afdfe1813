package dev.drainboard.controlplane;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

@DisplayName("where the API server calls the eviction webhook")
class WebhookAddressTest {

    @ParameterizedTest(name = "{0} → loopback {1}")
    @CsvSource({
            "localhost,          true",
            "LOCALHOST,          true",
            "kind.localhost,     true",
            "127.0.0.1,          true",
            "127.3.2.1,          true",
            "::1,                true",
            "[::1],              true",
            "0:0:0:0:0:0:0:1,    true",
            "10.0.0.5,           false",
            "api.example.com,    false",
            "128.0.0.1,          false",
    })
    @DisplayName("loopback hosts as API server URLs write them")
    void loopbackHosts(String host, boolean loopback) {
        assertThat(WebhookAddress.isLoopback(host)).isEqualTo(loopback);
    }

    @ParameterizedTest(name = "{0} → on this machine {1}")
    @CsvSource({
            "https://127.0.0.1:36443,       true",
            "https://localhost:6443,        true",
            "https://[::1]:6443,            true",
            "https://10.0.0.5:6443,         false",
            "https://api.example.com,       false",
            "not a url,                     false",
    })
    @DisplayName("whether an API server runs on this machine")
    void onThisMachine(String url, boolean local) {
        assertThat(WebhookAddress.onThisMachine(url)).isEqualTo(local);
    }

    @Test
    @DisplayName("an API server on this machine (the embedded cluster, kind) calls the webhook on loopback")
    void localApiServer() {
        assertThat(WebhookAddress.forApiServer("https://127.0.0.1:36443")).isEqualTo(WebhookAddress.LOOPBACK);
        assertThat(WebhookAddress.forApiServer("https://localhost:6443/")).isEqualTo(WebhookAddress.LOOPBACK);
        assertThat(WebhookAddress.forApiServer("https://[::1]:6443")).isEqualTo(WebhookAddress.LOOPBACK);
    }

    @Test
    @DisplayName("a remote API server gets this machine's address on the route to it, or loopback with the reason")
    void remoteApiServer() {
        // TEST-NET-1 (RFC 5737): never routed anywhere, but a default route still picks a local source address.
        WebhookAddress address = WebhookAddress.forApiServer("https://192.0.2.10:6443");
        if (address.loopback()) {
            assertThat(address.how()).startsWith("no route to 192.0.2.10");
        } else {
            assertThat(address.host()).isEqualTo(address.bindAddress()).doesNotStartWith("127.");
            assertThat(address.how()).isEqualTo("this machine's address on the route to 192.0.2.10");
        }
    }

    @Test
    @DisplayName("an API server URL that cannot be read falls back to loopback")
    void unreadableUrl() {
        assertThat(WebhookAddress.forApiServer("not a url at all")).isEqualTo(WebhookAddress.LOOPBACK);
        assertThat(WebhookAddress.forApiServer("https://no-such-host.invalid:6443").loopback()).isTrue();
    }

    @ParameterizedTest(name = "\"{0}\" → {1}")
    @CsvSource(delimiter = '|', value = {
            "10.0.0.7                  | ",
            "drainboard.example.com    | ",
            "localhost                 | ",
            "fd00::7                   | ",
            "[fd00::7]                 | ",
            "''                        | the webhook host is empty",
            "https://10.0.0.7          | is a URL",
            "10.0.0.7:8443             | has a port",
            "[fd00::7]:8443            | has a port",
            "my host                   | is not a host name or an IP address",
            "-bad.example.com          | is not a host name or an IP address",
            "10.0.0.7/24               | is not a host name or an IP address",
    })
    @DisplayName("a host the operator gives is checked before anything starts")
    void givenHostsAreChecked(String host, String problem) {
        if (problem == null) {
            assertThat(WebhookAddress.problem(host)).isEmpty();
        } else {
            assertThat(WebhookAddress.problem(host)).hasValueSatisfying(p -> assertThat(p).contains(problem));
        }
    }

    @Test
    @DisplayName("a bracketed IPv6 host loses its brackets (the URL adds them back)")
    void bracketedIpv6() {
        assertThat(WebhookAddress.given("[fd00::7]").host()).isEqualTo("fd00::7");
    }

    @Test
    @DisplayName("a host given by the operator that is this machine's: the URL's host and where the webhook listens")
    void givenLocal() {
        WebhookAddress address = WebhookAddress.given("localhost");
        assertThat(address.host()).isEqualTo("localhost");
        assertThat(address.bindAddress()).isEqualTo("localhost");
        assertThat(address.how()).isEqualTo("given with --webhook-host");
    }

    @Test
    @DisplayName("a host given by the operator that this machine does not have (NAT, load balancer): listen on all addresses")
    void givenElsewhere() {
        // TEST-NET-2 (RFC 5737): assigned to no machine.
        WebhookAddress address = WebhookAddress.given("198.51.100.7");
        assertThat(address.host()).isEqualTo("198.51.100.7");
        assertThat(address.bindAddress()).isEqualTo(WebhookAddress.ALL_ADDRESSES);
        assertThat(address.loopback()).isFalse();
        assertThat(address.how()).contains("not an address of this machine");
    }
}
