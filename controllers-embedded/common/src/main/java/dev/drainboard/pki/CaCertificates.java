package dev.drainboard.pki;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;

/**
 * CA certificates given as PEM (a webhook's trusted client CA, an operator's file): read strictly, with an error that
 * says what is wrong, and turned into the JDK's TLS trust and key managers.
 */
public final class CaCertificates {

    private static final Pattern BLOCK = Pattern.compile(
            "-----BEGIN ([A-Z0-9 ]+)-----\\s*([A-Za-z0-9+/=\\s]*?)-----END \\1-----");
    private static final char[] KEY_PASSWORD = "in-memory".toCharArray();

    private CaCertificates() {
    }

    /** A CA bundle that cannot be used, with the reason in words an operator can act on. */
    public static final class InvalidCaException extends Exception {
        public InvalidCaException(String message) {
            super(message);
        }
    }

    /**
     * The CA certificates of a PEM bundle: at least one {@code CERTIFICATE} block, every one a CA's (basic constraints
     * {@code CA:TRUE}), as a TLS server's client CA file must hold. Other blocks (a key by mistake) are refused too.
     */
    public static List<X509Certificate> parse(String pem) throws InvalidCaException {
        Objects.requireNonNull(pem, "pem");
        Matcher m = BLOCK.matcher(pem);
        List<X509Certificate> certificates = new ArrayList<>();
        CertificateFactory factory;
        try {
            factory = CertificateFactory.getInstance("X.509");
        } catch (CertificateException e) {
            throw new IllegalStateException("The JDK provides no X.509 certificate factory", e);
        }
        while (m.find()) {
            String label = m.group(1);
            if (!label.equals("CERTIFICATE")) {
                throw new InvalidCaException("found a PEM \"" + label + "\" block where a CA certificate was expected");
            }
            byte[] der;
            try {
                der = Base64.getMimeDecoder().decode(m.group(2));
            } catch (IllegalArgumentException e) {
                throw new InvalidCaException("certificate " + (certificates.size() + 1) + " is not valid base64");
            }
            X509Certificate certificate;
            try {
                certificate = (X509Certificate) factory.generateCertificate(new ByteArrayInputStream(der));
            } catch (CertificateException e) {
                throw new InvalidCaException("certificate " + (certificates.size() + 1) + " is not an X.509 certificate");
            }
            if (certificate.getBasicConstraints() < 0) {
                throw new InvalidCaException("certificate \"" + certificate.getSubjectX500Principal().getName()
                        + "\" is not a CA certificate (its basic constraints do not say CA:TRUE)");
            }
            certificates.add(certificate);
        }
        if (certificates.isEmpty()) {
            throw new InvalidCaException("no PEM certificate found (expected a block starting with "
                    + "-----BEGIN CERTIFICATE-----)");
        }
        return List.copyOf(certificates);
    }

    /** Trust managers that accept exactly the chains ending at one of these CAs (PKIX, with the JDK's checks). */
    public static TrustManager[] trustManagers(List<X509Certificate> cas) {
        try {
            KeyStore trustStore = KeyStore.getInstance(KeyStore.getDefaultType());
            trustStore.load(null, null);
            int index = 0;
            for (X509Certificate ca : cas) {
                trustStore.setCertificateEntry("ca-" + index++, ca);
            }
            TrustManagerFactory factory = TrustManagerFactory.getInstance("PKIX");
            factory.init(trustStore);
            return factory.getTrustManagers();
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException("Cannot build a trust store from the CA certificates", e);
        }
    }

    /** Key managers presenting this certificate (and its issuer) in a TLS handshake, as server or as client. */
    public static KeyManager[] keyManagers(IssuedCertificate issued) {
        try {
            KeyStore keys = KeyStore.getInstance("PKCS12");
            keys.load(null, null);
            keys.setKeyEntry("key", issued.privateKey(), KEY_PASSWORD,
                    new X509Certificate[] {issued.certificate(), issued.issuer()});
            KeyManagerFactory factory = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            factory.init(keys, KEY_PASSWORD);
            return factory.getKeyManagers();
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException("Cannot build a key store for " + issued, e);
        }
    }

    /**
     * A server's TLS context presenting {@code serving} and trusting client certificates from {@code clientCas}
     * only; the server must still ask for them ({@code SSLParameters.setNeedClientAuth(true)}).
     */
    public static SSLContext serverRequiringClientCertificates(IssuedCertificate serving, List<X509Certificate> clientCas) {
        try {
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(keyManagers(serving), trustManagers(clientCas), null);
            return context;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("Cannot set up TLS", e);
        }
    }
}
