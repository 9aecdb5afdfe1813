package dev.drainboard.benchmarks;

import dev.drainboard.cluster.pki.TrustedClients;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * A thin HTTPS client for the embedded API server: the JDK's HttpClient over HTTP/1.1 (a pool of
 * keep-alive connections), trusting only the cluster's CA, with the bearer token. Bodies stay bytes:
 * the benchmark times the server, not client-side object mapping.
 */
final class ApiClient {

    private final HttpClient http;
    private final String baseUrl;
    private final String authorization;

    ApiClient(String baseUrl, String token, String caPem) {
        this.http = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .sslContext(TrustedClients.trusting(caPem))
                .connectTimeout(Duration.ofSeconds(10))
                .build();
        this.baseUrl = baseUrl;
        this.authorization = "Bearer " + token;
    }

    byte[] get(String path) {
        return send(request(path).GET().build(), 200);
    }

    byte[] post(String path, String json) {
        return send(request(path).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)).build(), 201);
    }

    byte[] mergePatch(String path, String json) {
        return send(request(path).header("Content-Type", "application/merge-patch+json")
                .method("PATCH", HttpRequest.BodyPublishers.ofString(json)).build(), 200);
    }

    /** Opens a streaming GET (a watch); the caller reads lines from the stream and closes it. */
    InputStream stream(String path) {
        try {
            HttpResponse<InputStream> response = http.send(request(path).GET().build(), HttpResponse.BodyHandlers.ofInputStream());
            if (response.statusCode() != 200) {
                response.body().close();
                throw new IllegalStateException("GET " + path + " answered " + response.statusCode());
            }
            return response.body();
        } catch (IOException e) {
            throw new IllegalStateException("GET " + path + " failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(URI.create(baseUrl + path))
                .timeout(Duration.ofSeconds(60))
                .header("Authorization", authorization)
                .header("Accept", "application/json");
    }

    private byte[] send(HttpRequest request, int expected) {
        try {
            HttpResponse<byte[]> response = http.send(request, HttpResponse.BodyHandlers.ofByteArray());
            if (response.statusCode() != expected) {
                throw new IllegalStateException(request.method() + " " + request.uri().getPath() + " answered "
                        + response.statusCode() + ": " + new String(response.body()));
            }
            return response.body();
        } catch (IOException e) {
            throw new IllegalStateException(request.method() + " " + request.uri() + " failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
