package dev.drainboard.pki;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;

import javax.net.ssl.SSLContext;

import org.junit.jupiter.api.Test;

class TrustedClientsTest {

    @Test
    void everyCertificateOfABundleIsTrusted() throws Exception {
        CertificateAuthority first = CertificateAuthority.generate("first-ca");
        CertificateAuthority second = CertificateAuthority.generate("second-ca");
        SSLContext context = TrustedClients.trusting(first.certificatePem() + second.certificatePem());

        for (CertificateAuthority ca : List.of(first, second)) {
            IssuedCertificate issued = ca.issueServerCertificate("webhook", List.of("localhost"), List.of("127.0.0.1"));
            try (HttpsTestServer server = new HttpsTestServer(issued, "{}");
                 HttpClient client = HttpClient.newBuilder().sslContext(context).build()) {
                HttpResponse<Void> response = client.send(
                        HttpRequest.newBuilder(URI.create(server.url("127.0.0.1"))).build(),
                        HttpResponse.BodyHandlers.discarding());
                assertThat(response.statusCode()).as(ca.certificate().getSubjectX500Principal().getName()).isEqualTo(200);
            }
        }
    }

    @Test
    void rejectsEmptyBundle() {
        assertThatThrownBy(() -> TrustedClients.trusting("")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void rejectsBundleThatIsNotACertificate() {
        String notACertificate = "-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydA==\n-----END CERTIFICATE-----\n";

        assertThatThrownBy(() -> TrustedClients.trusting(notACertificate)).isInstanceOf(IllegalArgumentException.class);
    }
}
