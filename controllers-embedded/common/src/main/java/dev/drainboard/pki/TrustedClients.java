package dev.drainboard.pki;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.util.Collection;
import java.util.Objects;

import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/** TLS client contexts whose trust comes from an explicit CA bundle rather than the JDK's cacerts. */
public final class TrustedClients {

    private TrustedClients() {
    }

    /**
     * An SSLContext that trusts only the given PEM CA bundle (for calling webhooks with their caBundle).
     * Host names are still checked by the client using it (HttpClient does so by default).
     *
     * @throws IllegalArgumentException if the bundle holds no parsable certificate
     */
    public static SSLContext trusting(String caBundlePem) {
        Objects.requireNonNull(caBundlePem, "caBundlePem");
        try {
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, trustManagers(parseCertificates(caBundlePem)).getTrustManagers(), null);
            return context;
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException("Cannot build a TLS context from the CA bundle", e);
        }
    }

    /**
     * As {@link #trusting(String)}, presenting {@code clientCertificate} when the server asks for one (a webhook that
     * authenticates the API server calling it). An empty bundle trusts the JDK's default CAs.
     */
    public static SSLContext trusting(String caBundlePem, IssuedCertificate clientCertificate) {
        Objects.requireNonNull(caBundlePem, "caBundlePem");
        Objects.requireNonNull(clientCertificate, "clientCertificate");
        try {
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(CaCertificates.keyManagers(clientCertificate),
                    caBundlePem.isBlank() ? null : trustManagers(parseCertificates(caBundlePem)).getTrustManagers(), null);
            return context;
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException("Cannot build a TLS context from the CA bundle", e);
        }
    }

    private static Collection<? extends Certificate> parseCertificates(String pem) {
        try {
            Collection<? extends Certificate> certificates = CertificateFactory.getInstance("X.509")
                    .generateCertificates(new ByteArrayInputStream(pem.getBytes(StandardCharsets.US_ASCII)));
            if (certificates.isEmpty()) {
                throw new IllegalArgumentException("The CA bundle contains no certificate");
            }
            return certificates;
        } catch (CertificateException e) {
            throw new IllegalArgumentException("The CA bundle is not valid PEM", e);
        }
    }

    private static TrustManagerFactory trustManagers(Collection<? extends Certificate> anchors)
            throws GeneralSecurityException, IOException {
        KeyStore trustStore = KeyStore.getInstance(KeyStore.getDefaultType());
        trustStore.load(null, null);
        int index = 0;
        for (Certificate anchor : anchors) {
            trustStore.setCertificateEntry("ca-" + index++, anchor);
        }
        TrustManagerFactory factory = TrustManagerFactory.getInstance("PKIX");
        factory.init(trustStore);
        return factory;
    }
}
