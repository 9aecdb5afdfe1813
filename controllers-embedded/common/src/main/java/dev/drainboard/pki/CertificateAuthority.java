package dev.drainboard.pki;

import java.io.IOException;
import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Objects;

import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x500.X500NameBuilder;
import org.bouncycastle.asn1.x500.style.BCStyle;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * A self-signed certificate authority held in memory, issuing ECDSA P-256 server and client certificates.
 * BouncyCastle only builds the ASN.1; keys, signatures and parsing use the JDK providers,
 * so no security provider has to be registered.
 */
public final class CertificateAuthority {

    private static final Duration CA_VALIDITY = Duration.ofDays(3653);
    private static final Duration LEAF_VALIDITY = Duration.ofDays(365);
    /** Backdating tolerates small clock differences between signer and verifier. */
    private static final Duration BACKDATE = Duration.ofMinutes(5);
    private static final String SIGNATURE_ALGORITHM = "SHA256withECDSA";
    private static final SecureRandom RANDOM = new SecureRandom();

    private final KeyPair keyPair;
    private final X509Certificate certificate;

    private CertificateAuthority(KeyPair keyPair, X509Certificate certificate) {
        this.keyPair = keyPair;
        this.certificate = certificate;
    }

    public static CertificateAuthority generate(String commonName) {
        requireText(commonName, "commonName");
        KeyPair keyPair = newKeyPair();
        X500Name subject = distinguishedName(commonName);
        Instant now = Instant.now();
        try {
            JcaX509ExtensionUtils extensions = new JcaX509ExtensionUtils();
            X509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(
                    subject, newSerialNumber(), notBefore(now), notAfter(now, CA_VALIDITY), subject, keyPair.getPublic())
                    // Path length 0: this CA signs leaves only, never intermediates.
                    .addExtension(Extension.basicConstraints, true, new BasicConstraints(0))
                    .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign))
                    .addExtension(Extension.subjectKeyIdentifier, false,
                            extensions.createSubjectKeyIdentifier(keyPair.getPublic()));
            return new CertificateAuthority(keyPair, sign(builder, keyPair.getPrivate()));
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException("Cannot create CA certificate for " + commonName, e);
        }
    }

    /**
     * Issues a TLS server certificate. Go clients such as kubectl ignore the common name and match
     * the host only against the subject alternative names, so at least one DNS name or IP is required.
     *
     * @throws IllegalArgumentException if both lists are empty or an entry is not a valid name or IP literal
     */
    public IssuedCertificate issueServerCertificate(String commonName, List<String> dnsNames, List<String> ipAddresses) {
        requireText(commonName, "commonName");
        GeneralNames subjectAlternativeNames = subjectAlternativeNames(dnsNames, ipAddresses);
        KeyPair leafKeyPair = newKeyPair();
        Instant now = Instant.now();
        try {
            JcaX509ExtensionUtils extensions = new JcaX509ExtensionUtils();
            X509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(
                    certificate, newSerialNumber(), notBefore(now), notAfter(now, LEAF_VALIDITY),
                    distinguishedName(commonName), leafKeyPair.getPublic())
                    .addExtension(Extension.basicConstraints, true, new BasicConstraints(false))
                    // ECDHE key exchange only needs signatures; keyEncipherment applies to RSA keys.
                    .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature))
                    .addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(KeyPurposeId.id_kp_serverAuth))
                    .addExtension(Extension.subjectAlternativeName, false, subjectAlternativeNames)
                    .addExtension(Extension.subjectKeyIdentifier, false,
                            extensions.createSubjectKeyIdentifier(leafKeyPair.getPublic()))
                    .addExtension(Extension.authorityKeyIdentifier, false,
                            extensions.createAuthorityKeyIdentifier(keyPair.getPublic()));
            return new IssuedCertificate(sign(builder, keyPair.getPrivate()), leafKeyPair.getPrivate(), certificate);
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException("Cannot issue server certificate for " + commonName, e);
        }
    }

    /**
     * Issues a TLS client certificate (extended key usage clientAuth), as kube-apiserver presents to admission
     * webhooks that authenticate it (Kubernetes docs, "Dynamic Admission Control", "Authenticate apiservers").
     * Kubernetes reads the common name as the user and each organization as a group.
     */
    public IssuedCertificate issueClientCertificate(String commonName, List<String> organizations) {
        requireText(commonName, "commonName");
        Objects.requireNonNull(organizations, "organizations");
        KeyPair leafKeyPair = newKeyPair();
        Instant now = Instant.now();
        X500NameBuilder subject = new X500NameBuilder(BCStyle.INSTANCE);
        for (String organization : organizations) {
            requireText(organization, "organization");
            subject.addRDN(BCStyle.O, organization);
        }
        subject.addRDN(BCStyle.CN, commonName);
        try {
            JcaX509ExtensionUtils extensions = new JcaX509ExtensionUtils();
            X509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(
                    certificate, newSerialNumber(), notBefore(now), notAfter(now, LEAF_VALIDITY),
                    subject.build(), leafKeyPair.getPublic())
                    .addExtension(Extension.basicConstraints, true, new BasicConstraints(false))
                    .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature))
                    .addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(KeyPurposeId.id_kp_clientAuth))
                    .addExtension(Extension.subjectKeyIdentifier, false,
                            extensions.createSubjectKeyIdentifier(leafKeyPair.getPublic()))
                    .addExtension(Extension.authorityKeyIdentifier, false,
                            extensions.createAuthorityKeyIdentifier(keyPair.getPublic()));
            return new IssuedCertificate(sign(builder, keyPair.getPrivate()), leafKeyPair.getPrivate(), certificate);
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException("Cannot issue client certificate for " + commonName, e);
        }
    }

    public String certificatePem() {
        return Pem.certificate(certificate);
    }

    public X509Certificate certificate() {
        return certificate;
    }

    private static GeneralNames subjectAlternativeNames(List<String> dnsNames, List<String> ipAddresses) {
        Objects.requireNonNull(dnsNames, "dnsNames");
        Objects.requireNonNull(ipAddresses, "ipAddresses");
        if (dnsNames.isEmpty() && ipAddresses.isEmpty()) {
            throw new IllegalArgumentException("A server certificate needs at least one DNS name or IP address");
        }
        List<GeneralName> names = new ArrayList<>();
        for (String dnsName : dnsNames) {
            requireText(dnsName, "dnsName");
            names.add(new GeneralName(GeneralName.dNSName, dnsName));
        }
        for (String ipAddress : ipAddresses) {
            requireText(ipAddress, "ipAddress");
            // Throws IllegalArgumentException for anything that is not an IPv4 or IPv6 literal.
            names.add(new GeneralName(GeneralName.iPAddress, ipAddress));
        }
        return new GeneralNames(names.toArray(GeneralName[]::new));
    }

    private static X509Certificate sign(X509v3CertificateBuilder builder, PrivateKey signingKey)
            throws GeneralSecurityException {
        try {
            return new JcaX509CertificateConverter()
                    .getCertificate(builder.build(new JcaContentSignerBuilder(SIGNATURE_ALGORITHM).build(signingKey)));
        } catch (OperatorCreationException e) {
            throw new GeneralSecurityException("Cannot create " + SIGNATURE_ALGORITHM + " signer", e);
        }
    }

    private static KeyPair newKeyPair() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
            generator.initialize(new ECGenParameterSpec("secp256r1"), RANDOM);
            return generator.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("The JDK provides no P-256 key generator", e);
        }
    }

    private static X500Name distinguishedName(String commonName) {
        return new X500NameBuilder(BCStyle.INSTANCE).addRDN(BCStyle.CN, commonName).build();
    }

    /** Random and positive, under the 20-octet limit RFC 5280 sets. */
    private static BigInteger newSerialNumber() {
        return new BigInteger(159, RANDOM).setBit(0);
    }

    private static Date notBefore(Instant now) {
        return Date.from(now.minus(BACKDATE));
    }

    private static Date notAfter(Instant now, Duration validity) {
        return Date.from(now.plus(validity));
    }

    private static void requireText(String value, String name) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException(name + " must not be blank");
        }
    }
}
