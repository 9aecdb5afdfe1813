package dev.drainboard.admission;

import dev.drainboard.pki.CaCertificates;
import dev.drainboard.pki.CaCertificates.InvalidCaException;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.KubernetesClient;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * Whom the eviction webhook answers: callers with a TLS client certificate from a trusted CA, or (unauthenticated)
 * anyone who can connect. An API server presents such a certificate when its AdmissionConfiguration names a
 * kubeconfig for the webhook (Kubernetes docs, "Dynamic Admission Control", "Authenticate apiservers").
 *
 * <ul>
 *   <li>{@link #clusterClientCa()}: the CA the cluster publishes in {@code kube-system/extension-apiserver-authentication}
 *       ({@code client-ca-file}), read through the API when the webhook starts: right for the embedded cluster, whose
 *       API server presents a certificate from it;</li>
 *   <li>{@link #fromFile(Path)}: a CA file the operator gives ({@code --webhook-client-ca}) for another cluster;</li>
 *   <li>{@link #anyone()}: no authentication; {@link #unauthenticatedWarning(String)} says what that means.</li>
 * </ul>
 */
public final class WebhookCallers {

    /** Where kube-apiserver publishes its client CA (its {@code clusterauthenticationtrust} controller). */
    public static final String CLIENT_CA_NAMESPACE = "kube-system";
    public static final String CLIENT_CA_CONFIG_MAP = "extension-apiserver-authentication";
    public static final String CLIENT_CA_KEY = "client-ca-file";

    private enum Kind { ANYONE, GIVEN, CLUSTER }

    private static final WebhookCallers ANYONE = new WebhookCallers(Kind.ANYONE, null, "");
    private static final WebhookCallers CLUSTER = new WebhookCallers(Kind.CLUSTER, null,
            "the cluster's client CA (" + CLIENT_CA_NAMESPACE + "/" + CLIENT_CA_CONFIG_MAP + ", " + CLIENT_CA_KEY + ")");

    private final Kind kind;
    private final List<X509Certificate> cas;
    private final String origin;

    private WebhookCallers(Kind kind, List<X509Certificate> cas, String origin) {
        this.kind = kind;
        this.cas = cas;
        this.origin = origin;
    }

    /** No client authentication: whoever reaches the port is answered. */
    public static WebhookCallers anyone() {
        return ANYONE;
    }

    /** The client CA the cluster publishes, read through its API when the webhook starts. */
    public static WebhookCallers clusterClientCa() {
        return CLUSTER;
    }

    /** Callers with a certificate from one of these CAs (PEM; {@code origin} names where they came from). */
    public static WebhookCallers trusting(String caPem, String origin) throws InvalidCaException {
        return new WebhookCallers(Kind.GIVEN, CaCertificates.parse(caPem), Objects.requireNonNull(origin));
    }

    /** The CA file an operator gives; the message of the exception names the file and what is wrong with it. */
    public static WebhookCallers fromFile(Path file) throws InvalidCaException {
        String pem;
        try {
            pem = Files.readString(file, StandardCharsets.US_ASCII);
        } catch (NoSuchFileException e) {
            throw new InvalidCaException(file + ": no such file");
        } catch (IOException | java.io.UncheckedIOException e) {
            throw new InvalidCaException(file + ": cannot be read (" + e.getClass().getSimpleName()
                    + (e.getMessage() == null ? "" : ": " + e.getMessage()) + ")");
        }
        try {
            return trusting(pem, file.toString());
        } catch (InvalidCaException e) {
            throw new InvalidCaException(file + " is not a PEM CA certificate: " + e.getMessage());
        }
    }

    /** Whether callers must present a client certificate. */
    public boolean authenticated() {
        return kind != Kind.ANYONE;
    }

    /** Where the trusted CA comes from (a file, the cluster's ConfigMap); empty for {@link #anyone()}. */
    public String origin() {
        return origin;
    }

    /**
     * The CAs a caller's certificate must chain to; empty for {@link #anyone()}.
     *
     * @throws IllegalStateException when the cluster publishes no usable client CA (the webhook then does not serve:
     *                               it never falls back to answering anyone)
     */
    public List<X509Certificate> resolve(KubernetesClient client) {
        return switch (kind) {
            case ANYONE -> List.of();
            case GIVEN -> cas;
            case CLUSTER -> {
                ConfigMap published = client.configMaps().inNamespace(CLIENT_CA_NAMESPACE).withName(CLIENT_CA_CONFIG_MAP).get();
                String pem = published == null || published.getData() == null ? null : published.getData().get(CLIENT_CA_KEY);
                if (pem == null || pem.isBlank()) {
                    throw new IllegalStateException("the cluster publishes no client CA (" + CLIENT_CA_KEY + " in ConfigMap "
                            + CLIENT_CA_NAMESPACE + "/" + CLIENT_CA_CONFIG_MAP + "): the eviction webhook cannot authenticate "
                            + "its callers");
                }
                try {
                    yield CaCertificates.parse(pem);
                } catch (InvalidCaException e) {
                    throw new IllegalStateException("the cluster's client CA (" + CLIENT_CA_KEY + " in ConfigMap "
                            + CLIENT_CA_NAMESPACE + "/" + CLIENT_CA_CONFIG_MAP + ") cannot be used: " + e.getMessage(), e);
                }
            }
        };
    }

    /** "callers need a client certificate from …" or the unauthenticated warning for this bind address. */
    public String describe(String bindAddress) {
        return authenticated() ? "callers need a TLS client certificate from " + origin : unauthenticatedWarning(bindAddress);
    }

    /**
     * What an unauthenticated webhook means, in plain words: who can reach it, what they can do, how to close it.
     * Shown by {@code drainboard controllers} and the console's Controllers screen.
     */
    public static String unauthenticatedWarning(String bindAddress) {
        return "The eviction webhook is unauthenticated: it answers any caller that can connect to it, which is "
                + whoCanReach(bindAddress) + ". Such a caller can mark VMIs for evacuation and make them live-migrate. "
                + "Give --webhook-client-ca FILE (the CA of the client certificate the cluster's API server presents to "
                + "webhooks) to refuse everyone else.";
    }

    /** Who can open a connection to a server listening on {@code bindAddress}. */
    static String whoCanReach(String bindAddress) {
        String a = bindAddress.trim().toLowerCase(Locale.ROOT);
        if (a.startsWith("[") && a.endsWith("]")) {
            a = a.substring(1, a.length() - 1);
        }
        if (a.equals("0.0.0.0") || a.equals("::") || a.equals("0:0:0:0:0:0:0:0") || a.isEmpty()) {
            return "anyone on any network this machine is connected to (it listens on " + bindAddress + ", every address)";
        }
        if (a.startsWith("127.") || a.equals("localhost") || a.equals("::1") || a.equals("0:0:0:0:0:0:0:1")) {
            return "any program or user on this machine (it listens on " + bindAddress + ", loopback)";
        }
        return "anyone who can reach " + bindAddress + " (where it listens)";
    }

    @Override
    public String toString() {
        return authenticated() ? "client certificates from " + origin : "anyone";
    }
}
