package dev.drainboard.pki;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsParameters;
import com.sun.net.httpserver.HttpsServer;

/** Real TLS handshakes against a server that requires a client certificate from one CA, as the eviction webhook does. */
class ClientCertificateHandshakeTest {

    private final CertificateAuthority serverCa = CertificateAuthority.generate("webhook-ca");
    private final CertificateAuthority clientCa = CertificateAuthority.generate("cluster-ca");
    private final AtomicInteger handled = new AtomicInteger();
    private HttpsServer server;

    @BeforeEach
    void start() throws Exception {
        IssuedCertificate serving = serverCa.issueServerCertificate("webhook", List.of(), List.of("127.0.0.1"));
        SSLContext context = CaCertificates.serverRequiringClientCertificates(serving,
                CaCertificates.parse(clientCa.certificatePem()));
        server = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setHttpsConfigurator(new HttpsConfigurator(context) {
            @Override
            public void configure(HttpsParameters params) {
                SSLParameters p = getSSLContext().getDefaultSSLParameters();
                p.setNeedClientAuth(true);
                params.setSSLParameters(p);
            }
        });
        server.createContext("/", exchange -> {
            handled.incrementAndGet();
            byte[] body = "ok".getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    @Test
    void aClientCertificateFromTheTrustedCaIsServed() throws Exception {
        IssuedCertificate client = clientCa.issueClientCertificate("kube-apiserver", List.of("system:masters"));

        HttpResponse<String> response = post(TrustedClients.trusting(serverCa.certificatePem(), client));

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(client.certificate().getExtendedKeyUsage()).containsExactly("1.3.6.1.5.5.7.3.2");
        assertThat(client.certificate().getSubjectX500Principal().getName()).isEqualTo("CN=kube-apiserver,O=system:masters");
    }

    @Test
    void noClientCertificateIsRefusedBeforeAnyRequestIsHandled() {
        assertThatThrownBy(() -> post(TrustedClients.trusting(serverCa.certificatePem()))).isInstanceOf(IOException.class);
        assertThat(handled).hasValue(0);
    }

    @Test
    void aClientCertificateFromAnotherCaIsRefused() {
        IssuedCertificate foreign = CertificateAuthority.generate("cluster-ca")
                .issueClientCertificate("kube-apiserver", List.of());

        assertThatThrownBy(() -> post(TrustedClients.trusting(serverCa.certificatePem(), foreign)))
                .isInstanceOf(IOException.class);
        assertThat(handled).hasValue(0);
    }

    @Test
    void aServerCertificateOfTheTrustedCaIsNoClientCertificate() {
        IssuedCertificate serving = clientCa.issueServerCertificate("apiserver", List.of("localhost"), List.of());

        assertThatThrownBy(() -> post(TrustedClients.trusting(serverCa.certificatePem(), serving)))
                .isInstanceOf(IOException.class);
        assertThat(handled).hasValue(0);
    }

    private HttpResponse<String> post(SSLContext context) throws Exception {
        try (HttpClient http = HttpClient.newBuilder().sslContext(context).connectTimeout(Duration.ofSeconds(5)).build()) {
            return http.send(HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + server.getAddress().getPort() + "/"))
                    .timeout(Duration.ofSeconds(10)).POST(HttpRequest.BodyPublishers.ofString("{}")).build(),
                    HttpResponse.BodyHandlers.ofString());
        }
    }
}
