package dev.drainboard.controlplane;

import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.URI;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Where the cluster's API server is to call this process's eviction webhook: the host put in the webhook's URL and
 * the address its server listens on.
 *
 * <p>A cluster's API server on this machine (the embedded cluster, kind, minikube) reaches it on loopback. Any other
 * API server needs an address of this machine it can route to; without one, the API server's calls fail,
 * {@code failurePolicy: Ignore} lets every eviction through to the PDBs, and a drain of LiveMigrate VMIs waits on
 * them for ever (nothing marks the VMIs). {@link #forApiServer} guesses that address: the one this machine would
 * send from to reach the API server.
 *
 * @param host        the host in the webhook's URL, as the API server will resolve it
 * @param bindAddress where the webhook's server listens
 * @param how         a line for the console saying how it was chosen
 */
public record WebhookAddress(String host, String bindAddress, String how) {

    public static final WebhookAddress LOOPBACK = new WebhookAddress("127.0.0.1", "127.0.0.1", "loopback");

    private static final Pattern IP_LITERAL = Pattern.compile("[0-9A-Fa-f:.]+");
    private static final Pattern HOST_NAME = Pattern.compile(
            "[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?(\\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*");

    /**
     * A host given by the operator ({@code --webhook-host}, the console's field). The server listens on it when it is
     * an address of this machine; otherwise (a NAT's or a load balancer's address, a name that does not resolve here)
     * on every address, since listening on an address this machine does not have would fail.
     */
    public static WebhookAddress given(String host) {
        String h = host.trim();
        if (h.startsWith("[") && h.endsWith("]")) {
            h = h.substring(1, h.length() - 1); // the URL puts the brackets back
        }
        if (isLocal(h)) {
            return new WebhookAddress(h, h, "given with --webhook-host");
        }
        return new WebhookAddress(h, ALL_ADDRESSES, "given with --webhook-host; not an address of this machine, so the "
                + "webhook listens on all of them");
    }

    /** Where a server listens on every address of this machine. */
    public static final String ALL_ADDRESSES = "0.0.0.0";

    /** Whether {@code host} resolves to an address of this machine. */
    static boolean isLocal(String host) {
        if (isLoopback(host)) {
            return true;
        }
        try {
            InetAddress address = InetAddress.getByName(host);
            return address.isLoopbackAddress() || NetworkInterface.getByInetAddress(address) != null;
        } catch (IOException | SecurityException e) {
            return false;
        }
    }

    /**
     * Why {@code host} cannot be the webhook's host, or empty when it can: a DNS name, an IPv4 address or an IPv6
     * address (brackets allowed); not a URL, not with a port.
     */
    public static Optional<String> problem(String host) {
        String h = host == null ? "" : host.trim();
        if (h.isEmpty()) {
            return Optional.of("the webhook host is empty");
        }
        if (h.contains("://")) {
            return Optional.of("\"" + h + "\" is a URL: give only the host, e.g. 10.0.0.7 or drainboard.example.com");
        }
        if (h.matches("[^:\\[\\]]+:\\d+") || h.matches("\\[.*\\]:\\d+")) {
            return Optional.of("\"" + h + "\" has a port: give only the host (the port is chosen when the webhook starts)");
        }
        String bare = h.startsWith("[") && h.endsWith("]") ? h.substring(1, h.length() - 1) : h;
        boolean ipv6 = bare.contains(":") && IP_LITERAL.matcher(bare).matches();
        if (ipv6 || (HOST_NAME.matcher(bare).matches() && bare.length() <= 253)) {
            return Optional.empty();
        }
        return Optional.of("\"" + h + "\" is not a host name or an IP address");
    }

    /**
     * Loopback for an API server on this machine; otherwise this machine's address on the route to the API server
     * (no packet is sent: a UDP socket is only connected), or loopback when there is no such route.
     */
    public static WebhookAddress forApiServer(String apiServerUrl) {
        URI uri;
        try {
            uri = URI.create(apiServerUrl);
        } catch (IllegalArgumentException e) {
            return LOOPBACK;
        }
        String host = uri.getHost();
        if (host == null || isLoopback(host)) {
            return LOOPBACK;
        }
        int port = uri.getPort() > 0 ? uri.getPort() : 443;
        try (DatagramSocket probe = new DatagramSocket()) {
            probe.connect(InetAddress.getByName(host), port);
            InetAddress local = probe.getLocalAddress();
            if (local == null || local.isAnyLocalAddress()) {
                return new WebhookAddress(LOOPBACK.host(), LOOPBACK.bindAddress(), "no route to " + host + " found: loopback");
            }
            if (local.isLoopbackAddress()) {
                return LOOPBACK;
            }
            String address = local.getHostAddress();
            return new WebhookAddress(address, address, "this machine's address on the route to " + host);
        } catch (IOException | SecurityException e) {
            return new WebhookAddress(LOOPBACK.host(), LOOPBACK.bindAddress(), "no route to " + host + " found: loopback");
        }
    }

    /** Whether the API server at this URL runs on this machine (and so reaches a loopback webhook). */
    public static boolean onThisMachine(String apiServerUrl) {
        try {
            String host = URI.create(apiServerUrl).getHost();
            return host != null && isLoopback(host);
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** {@code localhost}, 127.0.0.0/8 and ::1, written as an API server URL may write them. */
    static boolean isLoopback(String host) {
        String h = host.toLowerCase(Locale.ROOT);
        if (h.startsWith("[") && h.endsWith("]")) {
            h = h.substring(1, h.length() - 1);
        }
        return h.equals("localhost") || h.endsWith(".localhost") || h.startsWith("127.") || h.equals("::1")
                || h.equals("0:0:0:0:0:0:0:1");
    }

    /** Whether the API server can only call this webhook if it runs on this machine. */
    public boolean loopback() {
        return isLoopback(host);
    }
}
