package dev.drainboard.pki;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.util.concurrent.atomic.AtomicReference;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;

/** A JDK HTTPS server on 127.0.0.1 presenting an issued certificate and answering every path with a fixed JSON body. */
final class HttpsTestServer implements AutoCloseable {

    private static final char[] KEY_STORE_PASSWORD = "unused".toCharArray();

    private final HttpsServer server;
    private final AtomicReference<String> lastAuthorization = new AtomicReference<>();

    HttpsTestServer(IssuedCertificate serverCertificate, String jsonBody) throws IOException, GeneralSecurityException {
        server = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setHttpsConfigurator(new HttpsConfigurator(serverContext(serverCertificate)));
        server.createContext("/", exchange -> respond(exchange, jsonBody));
        server.start();
    }

    int port() {
        return server.getAddress().getPort();
    }

    String url(String host) {
        return "https://" + host + ":" + port();
    }

    /** The Authorization header of the most recent request, to see which credentials a client sent. */
    String lastAuthorization() {
        return lastAuthorization.get();
    }

    @Override
    public void close() {
        server.stop(0);
    }

    private void respond(HttpExchange exchange, String jsonBody) throws IOException {
        lastAuthorization.set(exchange.getRequestHeaders().getFirst("Authorization"));
        byte[] body = jsonBody.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(200, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }

    private static SSLContext serverContext(IssuedCertificate issued) throws IOException, GeneralSecurityException {
        KeyStore keyStore = KeyStore.getInstance("PKCS12");
        keyStore.load(null, null);
        keyStore.setKeyEntry("server", issued.privateKey(), KEY_STORE_PASSWORD,
                new X509Certificate[] {issued.certificate(), issued.issuer()});
        KeyManagerFactory keyManagers = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        keyManagers.init(keyStore, KEY_STORE_PASSWORD);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(keyManagers.getKeyManagers(), null, null);
        return context;
    }
}
