package dev.drainboard.pki;

import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.Objects;

/** A leaf certificate with its private key and the CA certificate that signed it. */
public record IssuedCertificate(X509Certificate certificate, PrivateKey privateKey, X509Certificate issuer) {

    public IssuedCertificate {
        Objects.requireNonNull(certificate, "certificate");
        Objects.requireNonNull(privateKey, "privateKey");
        Objects.requireNonNull(issuer, "issuer");
    }

    /** Leaf then issuer, the order a TLS server presents its chain in. */
    public String certificatePem() {
        return Pem.certificate(certificate) + Pem.certificate(issuer);
    }

    /** Unencrypted PKCS#8 ("BEGIN PRIVATE KEY"), which both Go and the JDK read. */
    public String privateKeyPem() {
        return Pem.encode("PRIVATE KEY", privateKey.getEncoded());
    }

    /** Leaves the private key out so the record can be logged safely. */
    @Override
    public String toString() {
        return "IssuedCertificate[subject=" + certificate.getSubjectX500Principal()
                + ", issuer=" + issuer.getSubjectX500Principal() + "]";
    }
}
