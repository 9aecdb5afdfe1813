package dev.drainboard.ui.connect;

import io.fabric8.kubernetes.client.KubernetesClientException;

import javax.net.ssl.SSLException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.util.Objects;
import java.util.concurrent.TimeoutException;

/** Turns what went wrong while connecting into a {@link ConnectError}. Pure. */
public final class ConnectErrors {

    private ConnectErrors() {
    }

    /**
     * @param server the API server URL tried, for the message
     * @param user   the kubeconfig user, for the message (may be empty)
     */
    public static ConnectError classify(Throwable failure, String server, String user) {
        KubernetesClientException api = find(failure, KubernetesClientException.class);
        if (api != null && api.getCode() == 401) {
            return new ConnectError(ConnectError.Kind.UNAUTHORIZED,
                    "The API server at " + server + " rejected the credentials (401 Unauthorized).",
                    "The token or client certificate" + (user.isEmpty() ? "" : " of user \"" + user + "\"")
                            + " is expired or invalid. Log in again or refresh the kubeconfig, then reconnect.");
        }
        if (api != null && api.getCode() == 403) {
            return new ConnectError(ConnectError.Kind.FORBIDDEN,
                    "Forbidden (403): " + (user.isEmpty() ? "this user" : "user \"" + user + "\"") + " may not read the cluster's nodes.",
                    "Drainboard needs at least get/list/watch on nodes, pods, PDBs, events and kubevirt.io objects.\n"
                            + "API server said: " + firstLine(api.getStatus() != null && api.getStatus().getMessage() != null
                            ? api.getStatus().getMessage() : api.getMessage()));
        }
        Throwable cause;
        if ((cause = find(failure, UnknownHostException.class)) != null) {
            return unreachable(server, "Unknown host " + Objects.toString(cause.getMessage(), "") + " (DNS lookup failed).");
        }
        if ((cause = find(failure, ConnectException.class)) != null) {
            return unreachable(server, describe(cause));
        }
        if ((cause = find(failure, NoRouteToHostException.class)) != null) {
            return unreachable(server, describe(cause));
        }
        if ((cause = find(failure, SocketTimeoutException.class)) != null
                || (cause = find(failure, TimeoutException.class)) != null) {
            return unreachable(server, "No answer in time: " + describe(cause));
        }
        if ((cause = find(failure, SSLException.class)) != null) {
            return new ConnectError(ConnectError.Kind.TLS, "TLS handshake with " + server + " failed.",
                    describe(cause) + "\nCheck the cluster's certificate-authority data in the kubeconfig.");
        }
        if (api != null && api.getCode() > 0) {
            return new ConnectError(ConnectError.Kind.OTHER,
                    "The API server at " + server + " answered " + api.getCode() + ".", firstLine(api.getMessage()));
        }
        return new ConnectError(ConnectError.Kind.OTHER, "Could not connect to " + server + ".",
                describe(KubeconfigCatalog.rootCause(failure)));
    }

    private static ConnectError unreachable(String server, String cause) {
        return new ConnectError(ConnectError.Kind.UNREACHABLE, "Cannot reach the API server at " + server + ".",
                "Cause: " + cause + "\nIs the cluster up, and is this machine on its network (VPN)?");
    }

    private static String describe(Throwable t) {
        String message = t.getMessage();
        return message == null || message.isBlank() ? t.getClass().getSimpleName() : firstLine(message);
    }

    private static String firstLine(String s) {
        if (s == null) {
            return "";
        }
        int newline = s.indexOf('\n');
        return newline > 0 ? s.substring(0, newline) : s;
    }

    private static <T extends Throwable> T find(Throwable t, Class<T> type) {
        for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (type.isInstance(c)) {
                return type.cast(c);
            }
        }
        return null;
    }
}
