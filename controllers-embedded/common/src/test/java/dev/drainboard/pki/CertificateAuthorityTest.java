package dev.drainboard.pki;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.security.KeyFactory;
import java.security.cert.CertPath;
import java.security.cert.CertPathValidator;
import java.security.cert.CertPathValidatorException;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.PKIXParameters;
import java.security.cert.TrustAnchor;
import java.security.cert.X509Certificate;
import java.security.interfaces.ECKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Set;

import org.bouncycastle.asn1.ASN1OctetString;
import org.bouncycastle.asn1.x509.AuthorityKeyIdentifier;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.SubjectKeyIdentifier;
import org.junit.jupiter.api.Test;

class CertificateAuthorityTest {

    private static final String SERVER_AUTH = "1.3.6.1.5.5.7.3.1";
    private static final int SAN_DNS = 2;
    private static final int SAN_IP = 7;
    private static final int KEY_USAGE_DIGITAL_SIGNATURE = 0;
    private static final int KEY_USAGE_KEY_CERT_SIGN = 5;
    private static final int KEY_USAGE_CRL_SIGN = 6;

    private final CertificateAuthority ca = CertificateAuthority.generate("drainboard-ca");

    @Test
    void caIsSelfSignedP256WithCaExtensions() throws Exception {
        X509Certificate cert = ca.certificate();

        cert.verify(cert.getPublicKey());
        assertThat(cert.getSubjectX500Principal().getName()).isEqualTo("CN=drainboard-ca");
        assertThat(cert.getIssuerX500Principal()).isEqualTo(cert.getSubjectX500Principal());
        assertThat(cert.getSigAlgName()).isEqualTo("SHA256withECDSA");
        assertThat(((ECKey) cert.getPublicKey()).getParams().getCurve().getField().getFieldSize()).isEqualTo(256);
        assertThat(cert.getBasicConstraints()).as("CA with path length").isZero();
        assertThat(cert.getKeyUsage()[KEY_USAGE_KEY_CERT_SIGN]).isTrue();
        assertThat(cert.getKeyUsage()[KEY_USAGE_CRL_SIGN]).isTrue();
        assertThat(cert.getCriticalExtensionOIDs())
                .contains(Extension.basicConstraints.getId(), Extension.keyUsage.getId());
        assertThat(subjectKeyId(cert)).isNotEmpty();
        assertThat(validity(cert)).isBetween(Duration.ofDays(3652), Duration.ofDays(3654));
        assertThat(cert.getSerialNumber().signum()).isPositive();
    }

    @Test
    void serverCertificateHasSansServerAuthAndAuthorityKeyId() throws Exception {
        IssuedCertificate issued = ca.issueServerCertificate(
                "drainboard-apiserver", List.of("localhost", "drainboard.local"), List.of("127.0.0.1", "::1"));
        X509Certificate leaf = issued.certificate();

        assertThat(leaf.getSubjectX500Principal().getName()).isEqualTo("CN=drainboard-apiserver");
        assertThat(leaf.getIssuerX500Principal()).isEqualTo(ca.certificate().getSubjectX500Principal());
        assertThat(leaf.getSubjectAlternativeNames()).containsExactlyInAnyOrder(
                List.of(SAN_DNS, "localhost"),
                List.of(SAN_DNS, "drainboard.local"),
                List.of(SAN_IP, "127.0.0.1"),
                List.of(SAN_IP, "0:0:0:0:0:0:0:1"));
        assertThat(leaf.getExtendedKeyUsage()).containsExactly(SERVER_AUTH);
        assertThat(leaf.getKeyUsage()[KEY_USAGE_DIGITAL_SIGNATURE]).isTrue();
        assertThat(leaf.getBasicConstraints()).as("not a CA").isEqualTo(-1);
        assertThat(authorityKeyId(leaf)).isEqualTo(subjectKeyId(ca.certificate()));
        assertThat(subjectKeyId(leaf)).isNotEmpty().isNotEqualTo(subjectKeyId(ca.certificate()));
        assertThat(validity(leaf)).isBetween(Duration.ofDays(364), Duration.ofDays(366));
        assertThat(issued.issuer()).isEqualTo(ca.certificate());
    }

    @Test
    void issuedChainValidatesAgainstTheCaWithPkix() throws Exception {
        IssuedCertificate issued = ca.issueServerCertificate("api", List.of("localhost"), List.of("127.0.0.1"));

        CertPath path = CertificateFactory.getInstance("X.509").generateCertPath(List.of(issued.certificate()));
        PKIXParameters parameters = new PKIXParameters(Set.of(new TrustAnchor(ca.certificate(), null)));
        parameters.setRevocationEnabled(false); // our CA publishes no revocation data

        CertPathValidator.getInstance("PKIX").validate(path, parameters);
    }

    @Test
    void chainDoesNotValidateAgainstAnotherCa() throws Exception {
        IssuedCertificate issued = ca.issueServerCertificate("api", List.of("localhost"), List.of());
        CertificateAuthority otherCa = CertificateAuthority.generate("drainboard-ca");

        CertPath path = CertificateFactory.getInstance("X.509").generateCertPath(List.of(issued.certificate()));
        PKIXParameters parameters = new PKIXParameters(Set.of(new TrustAnchor(otherCa.certificate(), null)));
        parameters.setRevocationEnabled(false);

        assertThatThrownBy(() -> CertPathValidator.getInstance("PKIX").validate(path, parameters))
                .isInstanceOf(CertPathValidatorException.class);
    }

    @Test
    void pemEncodingsParseBack() throws Exception {
        IssuedCertificate issued = ca.issueServerCertificate("api", List.of("localhost"), List.of("127.0.0.1"));

        assertThat(parseCertificates(ca.certificatePem())).containsExactly(ca.certificate());
        assertThat(parseCertificates(issued.certificatePem())).containsExactly(issued.certificate(), ca.certificate());
        assertThat(issued.certificatePem()).startsWith("-----BEGIN CERTIFICATE-----\n").endsWith("-----END CERTIFICATE-----\n");
        assertThat(issued.certificatePem().lines()).allSatisfy(line -> assertThat(line.length()).isLessThanOrEqualTo(64));

        String keyPem = issued.privateKeyPem();
        assertThat(keyPem).startsWith("-----BEGIN PRIVATE KEY-----\n").endsWith("-----END PRIVATE KEY-----\n");
        byte[] der = Base64.getMimeDecoder().decode(keyPem.replaceAll("-----[A-Z ]+-----", ""));
        assertThat(KeyFactory.getInstance("EC").generatePrivate(new PKCS8EncodedKeySpec(der)))
                .isEqualTo(issued.privateKey());
    }

    @Test
    void toStringDoesNotRevealThePrivateKey() {
        IssuedCertificate issued = ca.issueServerCertificate("api", List.of("localhost"), List.of());

        assertThat(issued.toString()).contains("CN=api").doesNotContain("private", "PRIVATE");
    }

    @Test
    void rejectsServerCertificateWithoutSubjectAlternativeNames() {
        assertThatThrownBy(() -> ca.issueServerCertificate("api", List.of(), List.of()))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void rejectsMalformedIpAddress() {
        assertThatThrownBy(() -> ca.issueServerCertificate("api", List.of(), List.of("localhost")))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void issuedKeysAreP256AsTheCasSoStartingTakesNoSlowKeyGeneration() {
        // What keeps a start quick is the key type, checked here instead of timing it: a P-256 key pair is made in
        // about a millisecond, an RSA 4096 one can take seconds. Both the CA's and the server's.
        IssuedCertificate issued = ca.issueServerCertificate("api", List.of("localhost"), List.of("127.0.0.1"));

        for (X509Certificate cert : List.of(ca.certificate(), issued.certificate())) {
            assertThat(cert.getPublicKey().getAlgorithm()).isEqualTo("EC");
            assertThat(((ECKey) cert.getPublicKey()).getParams().getCurve().getField().getFieldSize()).isEqualTo(256);
            assertThat(cert.getSigAlgName()).isEqualTo("SHA256withECDSA");
        }
        assertThat(issued.privateKey().getAlgorithm()).isEqualTo("EC");
        assertThat(((ECKey) issued.privateKey()).getParams().getCurve().getField().getFieldSize()).isEqualTo(256);
    }

    private static List<Certificate> parseCertificates(String pem) throws Exception {
        return List.copyOf(CertificateFactory.getInstance("X.509")
                .generateCertificates(new ByteArrayInputStream(pem.getBytes(StandardCharsets.US_ASCII))));
    }

    private static Duration validity(X509Certificate cert) {
        return Duration.between(cert.getNotBefore().toInstant(), cert.getNotAfter().toInstant());
    }

    private static byte[] subjectKeyId(X509Certificate cert) {
        byte[] extension = cert.getExtensionValue(Extension.subjectKeyIdentifier.getId());
        return SubjectKeyIdentifier.getInstance(ASN1OctetString.getInstance(extension).getOctets()).getKeyIdentifier();
    }

    private static byte[] authorityKeyId(X509Certificate cert) {
        byte[] extension = cert.getExtensionValue(Extension.authorityKeyIdentifier.getId());
        return AuthorityKeyIdentifier.getInstance(ASN1OctetString.getInstance(extension).getOctets())
                .getKeyIdentifierObject().getOctets();
    }
}
