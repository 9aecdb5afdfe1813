package dev.drainboard.testing;

import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Date;
import java.util.List;

/**
 * A kubeconfig as an operator's often is: a bearer token and a client certificate with its RSA key (the key type
 * every kubeconfig reader accepts). The embedded API server asks for no client certificate, so only the token
 * authenticates; the key is there to be leaked, or not.
 */
public record OperatorKubeconfig(Path file, String token, String clientKeyPem) {

    public static OperatorKubeconfig write(Path file, String server, String caPem, String token) throws Exception {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(2048);
        KeyPair keys = generator.generateKeyPair();
        Instant now = Instant.now();
        X500Name subject = new X500Name("CN=operator");
        X509Certificate certificate = new JcaX509CertificateConverter().getCertificate(new JcaX509v3CertificateBuilder(
                subject, BigInteger.valueOf(now.toEpochMilli()), Date.from(now.minus(Duration.ofMinutes(1))),
                Date.from(now.plus(Duration.ofDays(1))), subject, keys.getPublic())
                .build(new JcaContentSignerBuilder("SHA256withRSA").build(keys.getPrivate())));
        String certificatePem = pem("CERTIFICATE", certificate.getEncoded());
        String keyPem = pem("PRIVATE KEY", keys.getPrivate().getEncoded());
        Files.writeString(file, """
                apiVersion: v1
                kind: Config
                clusters: [{name: embedded, cluster: {server: "%s", certificate-authority-data: %s}}]
                users: [{name: operator, user: {token: "%s", client-certificate-data: %s, client-key-data: %s}}]
                contexts: [{name: embedded, context: {cluster: embedded, user: operator}}]
                current-context: embedded
                """.formatted(server, base64(caPem), token, base64(certificatePem), base64(keyPem)));
        return new OperatorKubeconfig(file, token, keyPem);
    }

    /** The token, "Bearer <token>", the key's PEM, its base64 as in client-key-data, and each line of its body. */
    public List<String> secrets() {
        List<String> secrets = new ArrayList<>(List.of(token, "Bearer " + token, clientKeyPem.strip(), base64(clientKeyPem)));
        clientKeyPem.lines().filter(l -> !l.startsWith("-----") && l.length() >= 16).forEach(secrets::add);
        return secrets;
    }

    /** The lines of {@code text} that hold a secret, each secret in them replaced by its number in the list. */
    public static List<String> leaks(String text, List<String> secrets) {
        List<String> leaks = new ArrayList<>();
        if (secrets.stream().anyMatch(text::contains)) {
            text.lines().forEach(line -> {
                String shown = line;
                for (int i = 0; i < secrets.size(); i++) {
                    shown = shown.replace(secrets.get(i), "<secret " + i + ">");
                }
                if (!shown.equals(line)) {
                    leaks.add(shown.length() > 300 ? shown.substring(0, 300) + "…" : shown);
                }
            });
            if (leaks.isEmpty()) {
                leaks.add("a secret spans lines (a PEM block)"); // the whole key PEM, say
            }
        }
        return leaks.size() > 20 ? List.copyOf(leaks.subList(0, 20)) : leaks;
    }

    public static String base64(String text) {
        return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
    }

    private static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n" + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                .encodeToString(der) + "\n-----END " + type + "-----\n";
    }
}
