package dev.drainboard.pki;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

class CaCertificatesTest {

    private static final CertificateAuthority CA = CertificateAuthority.generate("cluster-ca");
    private static final CertificateAuthority OTHER = CertificateAuthority.generate("front-proxy-ca");

    @Test
    void aBundleOfCasWithTextAroundIsRead() throws Exception {
        String bundle = "# cluster CA\n" + CA.certificatePem() + "\nsome note\n" + OTHER.certificatePem();

        assertThat(CaCertificates.parse(bundle)).containsExactly(CA.certificate(), OTHER.certificate());
    }

    static List<Arguments> refused() {
        IssuedCertificate leaf = CA.issueClientCertificate("kube-apiserver", List.of());
        return List.of(
                Arguments.of("empty", "", "no PEM certificate found"),
                Arguments.of("not PEM", "hello: world\n", "no PEM certificate found"),
                Arguments.of("a private key", leaf.privateKeyPem(), "found a PEM \"PRIVATE KEY\" block where a CA certificate was expected"),
                Arguments.of("a leaf certificate", Pem.certificate(leaf.certificate()),
                        "certificate \"CN=kube-apiserver\" is not a CA certificate (its basic constraints do not say CA:TRUE)"),
                Arguments.of("a CA then a leaf", CA.certificatePem() + Pem.certificate(leaf.certificate()),
                        "certificate \"CN=kube-apiserver\" is not a CA certificate"),
                Arguments.of("garbage inside", "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n",
                        "certificate 1 is not an X.509 certificate"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("refused")
    void refusedWithTheReason(String what, String pem, String message) {
        assertThatThrownBy(() -> CaCertificates.parse(pem))
                .isInstanceOf(CaCertificates.InvalidCaException.class)
                .hasMessageStartingWith(message);
    }
}
