package dev.drainboard.pki;

import java.security.cert.CertificateEncodingException;
import java.security.cert.X509Certificate;
import java.util.Base64;

/** RFC 7468 text encoding of DER structures. */
final class Pem {

    private static final Base64.Encoder BODY_ENCODER = Base64.getMimeEncoder(64, new byte[] {'\n'});

    private Pem() {
    }

    static String encode(String label, byte[] der) {
        return "-----BEGIN " + label + "-----\n"
                + BODY_ENCODER.encodeToString(der) + "\n"
                + "-----END " + label + "-----\n";
    }

    static String certificate(X509Certificate certificate) {
        try {
            return encode("CERTIFICATE", certificate.getEncoded());
        } catch (CertificateEncodingException e) {
            throw new IllegalStateException("Cannot encode certificate " + certificate.getSubjectX500Principal(), e);
        }
    }
}
