package dev.drainboard.controller.replicaset;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import dev.drainboard.pki.CertificateAuthority;
import dev.drainboard.pki.IssuedCertificate;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfiguration;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.util.Base64;
import java.util.List;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

/**
 * What a cluster admin installs to forbid an operation on VMIs: a validating webhook (HTTPS on 127.0.0.1, registered
 * with the cluster) that answers every AdmissionReview for that operation with 403 and a fixed message. Closing it
 * removes the registration and stops the server.
 */
final class DenyingWebhook implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final char[] PASSWORD = "unused".toCharArray();

    private final KubernetesClient client;
    private final String configName;
    private final String message;
    private final HttpsServer server;

    /**
     * @param operation {@code CREATE} or {@code DELETE}
     * @param webhook   the webhook's name, as the API server's error names it
     */
    DenyingWebhook(KubernetesClient client, String operation, String webhook, String message) throws Exception {
        this.client = client;
        this.configName = "deny-vmi-" + operation.toLowerCase();
        this.message = message;
        CertificateAuthority ca = CertificateAuthority.generate("deny-webhook-ca");
        IssuedCertificate cert = ca.issueServerCertificate("webhook", List.of(), List.of("127.0.0.1"));
        server = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setHttpsConfigurator(new HttpsConfigurator(ssl(cert)));
        server.createContext("/deny", this::answer);
        server.start();
        String caBundle = Base64.getEncoder().encodeToString(ca.certificatePem().getBytes(StandardCharsets.US_ASCII));
        client.admissionRegistration().v1().validatingWebhookConfigurations().resource(Serialization.unmarshal("""
                apiVersion: admissionregistration.k8s.io/v1
                kind: ValidatingWebhookConfiguration
                metadata: {name: %s}
                webhooks:
                - name: %s
                  admissionReviewVersions: ["v1"]
                  sideEffects: None
                  failurePolicy: Fail
                  timeoutSeconds: 5
                  clientConfig: {url: "https://127.0.0.1:%d/deny", caBundle: %s}
                  rules:
                  - operations: ["%s"]
                    apiGroups: ["kubevirt.io"]
                    apiVersions: ["v1"]
                    resources: ["virtualmachineinstances"]
                """.formatted(configName, webhook, server.getAddress().getPort(), caBundle, operation),
                ValidatingWebhookConfiguration.class)).create();
    }

    private void answer(HttpExchange exchange) throws IOException {
        JsonNode review = JSON.readTree(exchange.getRequestBody());
        ObjectNode answer = JSON.createObjectNode();
        answer.put("apiVersion", review.path("apiVersion").asText());
        answer.put("kind", "AdmissionReview");
        ObjectNode response = answer.putObject("response");
        response.put("uid", review.path("request").path("uid").asText());
        response.put("allowed", false);
        response.putObject("status").put("code", 403).put("message", message);
        byte[] body = JSON.writeValueAsBytes(answer);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(200, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }

    @Override
    public void close() {
        client.admissionRegistration().v1().validatingWebhookConfigurations().withName(configName).delete();
        server.stop(0);
    }

    private static SSLContext ssl(IssuedCertificate issued) throws Exception {
        KeyStore keys = KeyStore.getInstance("PKCS12");
        keys.load(null, null);
        keys.setKeyEntry("webhook", issued.privateKey(), PASSWORD, new X509Certificate[] {issued.certificate(), issued.issuer()});
        KeyManagerFactory factory = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        factory.init(keys, PASSWORD);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(factory.getKeyManagers(), null, null);
        return context;
    }
}
