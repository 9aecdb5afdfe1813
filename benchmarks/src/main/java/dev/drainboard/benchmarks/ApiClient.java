package dev.drainboard.benchmarks;

import dev.drainboard.pki.TrustedClients;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A deliberately lean HTTPS client for the embedded API server, so that the figures are the
 * server's: blocking HTTP/1.1 over one keep-alive TLS socket per calling thread (see
 * {@link HttpConnection}), trusting only the cluster's CA, with the bearer token. Bodies stay bytes.
 *
 * <p>The JDK's {@code java.net.http.HttpClient} was tried first: its asynchronous machinery cost
 * about as much CPU per request as the server itself, which on a 2-core machine halved the figures.
 */
final class ApiClient implements AutoCloseable {

    private final String host;
    private final int port;
    private final String authorization;
    private final javax.net.ssl.SSLSocketFactory sockets;
    private final ThreadLocal<HttpConnection> connection = new ThreadLocal<>();
    private final List<HttpConnection> opened = new CopyOnWriteArrayList<>();

    ApiClient(String baseUrl, String token, String caPem) {
        URI uri = URI.create(baseUrl);
        this.host = uri.getHost();
        this.port = uri.getPort();
        this.authorization = "Bearer " + token;
        this.sockets = TrustedClients.trusting(caPem).getSocketFactory();
    }

    byte[] get(String path) {
        return call("GET", path, null, null, 200);
    }

    byte[] post(String path, String json) {
        return call("POST", path, "application/json", json, 201);
    }

    byte[] mergePatch(String path, String json) {
        return call("PATCH", path, "application/merge-patch+json", json, 200);
    }

    /** Opens a streaming GET (a watch) on its own connection; the caller reads the body and closes it. */
    InputStream stream(String path) {
        try {
            HttpConnection watch = open();
            return watch.stream(path);
        } catch (IOException e) {
            throw new IllegalStateException("GET " + path + " failed", e);
        }
    }

    private byte[] call(String method, String path, String contentType, String body, int expected) {
        try {
            HttpConnection c = connection.get();
            if (c == null) {
                c = open();
                connection.set(c);
            }
            HttpConnection.Response response = c.exchange(method, path, contentType, body);
            if (response.status() != expected) {
                throw new IllegalStateException(method + " " + path + " answered " + response.status() + ": "
                        + new String(response.body(), java.nio.charset.StandardCharsets.UTF_8));
            }
            return response.body();
        } catch (IOException e) {
            connection.remove();
            throw new IllegalStateException(method + " " + path + " failed", e);
        }
    }

    private HttpConnection open() throws IOException {
        HttpConnection c = HttpConnection.open(sockets, host, port, authorization);
        opened.add(c);
        return c;
    }

    @Override
    public void close() {
        opened.forEach(HttpConnection::close);
    }
}
