package dev.drainboard.pki;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLHandshakeException;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Real TLS handshakes against a JDK HTTPS server presenting a certificate from our CA. */
class TlsHandshakeTest {

    private static final String BODY = "{\"ok\":true}";

    private final CertificateAuthority ca = CertificateAuthority.generate("drainboard-ca");
    private HttpsTestServer server;

    @BeforeEach
    void startServer() throws Exception {
        server = new HttpsTestServer(
                ca.issueServerCertificate("drainboard-apiserver", List.of("localhost"), List.of("127.0.0.1")), BODY);
    }

    @AfterEach
    void stopServer() {
        server.close();
    }

    @Test
    void clientTrustingTheCaConnectsByIpAndByName() throws Exception {
        SSLContext trust = TrustedClients.trusting(ca.certificatePem());

        for (String host : List.of("127.0.0.1", "localhost")) {
            HttpResponse<String> response = get(trust, server.url(host));
            assertThat(response.statusCode()).as(host).isEqualTo(200);
            assertThat(response.body()).isEqualTo(BODY);
        }
    }

    @Test
    void clientWithDefaultTrustIsRejected() throws Exception {
        assertHandshakeFails(SSLContext.getDefault(), server.url("127.0.0.1"));
    }

    @Test
    void clientTrustingAnotherCaIsRejected() {
        SSLContext otherTrust = TrustedClients.trusting(CertificateAuthority.generate("drainboard-ca").certificatePem());

        assertHandshakeFails(otherTrust, server.url("127.0.0.1"));
    }

    @Test
    void hostMissingFromTheSansIsRejected() throws Exception {
        try (HttpsTestServer elsewhere = new HttpsTestServer(
                ca.issueServerCertificate("elsewhere", List.of("elsewhere.test"), List.of()), BODY)) {
            assertHandshakeFails(TrustedClients.trusting(ca.certificatePem()), elsewhere.url("127.0.0.1"));
        }
    }

    private static HttpResponse<String> get(SSLContext trust, String url) throws IOException, InterruptedException {
        try (HttpClient client = HttpClient.newBuilder().sslContext(trust).connectTimeout(Duration.ofSeconds(5)).build()) {
            return client.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).build(),
                    HttpResponse.BodyHandlers.ofString());
        }
    }

    private static void assertHandshakeFails(SSLContext trust, String url) {
        assertThatThrownBy(() -> get(trust, url)).isInstanceOf(SSLHandshakeException.class);
    }
}
