package dev.drainboard.admission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.drainboard.pki.CaCertificates.InvalidCaException;
import dev.drainboard.pki.CertificateAuthority;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

class WebhookCallersTest {

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            0.0.0.0     | anyone on any network this machine is connected to (it listens on 0.0.0.0, every address)
            ::          | anyone on any network this machine is connected to (it listens on ::, every address)
            127.0.0.1   | any program or user on this machine (it listens on 127.0.0.1, loopback)
            ::1         | any program or user on this machine (it listens on ::1, loopback)
            10.0.0.7    | anyone who can reach 10.0.0.7 (where it listens)
            """)
    void whoCanReachTheBindAddress(String bind, String who) {
        assertThat(WebhookCallers.whoCanReach(bind)).isEqualTo(who);
        assertThat(WebhookCallers.anyone().describe(bind)).startsWith("The eviction webhook is unauthenticated: it answers "
                + "any caller that can connect to it, which is " + who + ". Such a caller can mark VMIs for evacuation");
    }

    @Test
    void aCaFileAuthenticates() throws Exception {
        Path file = Files.writeString(dir.resolve("apiserver-client-ca.crt"),
                CertificateAuthority.generate("front-proxy-ca").certificatePem());

        WebhookCallers callers = WebhookCallers.fromFile(file);

        assertThat(callers.authenticated()).isTrue();
        assertThat(callers.resolve(null)).hasSize(1);
        assertThat(callers.describe("0.0.0.0")).isEqualTo("callers need a TLS client certificate from " + file);
    }

    @Test
    void aMissingFileIsNamed() {
        Path missing = dir.resolve("nope.crt");
        assertThatThrownBy(() -> WebhookCallers.fromFile(missing))
                .isInstanceOf(InvalidCaException.class).hasMessage(missing + ": no such file");
    }

    @Test
    void aFileWithoutACaCertificateIsNamedWithTheReason() throws Exception {
        CertificateAuthority ca = CertificateAuthority.generate("ca");
        Path key = Files.writeString(dir.resolve("client.key"),
                ca.issueClientCertificate("kube-apiserver", List.of()).privateKeyPem());
        Path text = Files.writeString(dir.resolve("notes.txt"), "not a certificate\n");

        assertThatThrownBy(() -> WebhookCallers.fromFile(key)).isInstanceOf(InvalidCaException.class)
                .hasMessage(key + " is not a PEM CA certificate: found a PEM \"PRIVATE KEY\" block where a CA certificate was expected");
        assertThatThrownBy(() -> WebhookCallers.fromFile(text)).isInstanceOf(InvalidCaException.class)
                .hasMessageStartingWith(text + " is not a PEM CA certificate: no PEM certificate found");
    }

    @Test
    void anyoneIsNotAuthenticated() {
        assertThat(WebhookCallers.anyone().authenticated()).isFalse();
        assertThat(WebhookCallers.anyone().resolve(null)).isEmpty();
        assertThat(WebhookCallers.clusterClientCa().origin())
                .isEqualTo("the cluster's client CA (kube-system/extension-apiserver-authentication, client-ca-file)");
    }
}
