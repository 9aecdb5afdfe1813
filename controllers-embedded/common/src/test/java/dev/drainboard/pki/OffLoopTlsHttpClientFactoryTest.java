package dev.drainboard.pki;

import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.fabric8.kubernetes.client.utils.HttpClientUtils;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.net.PemKeyCertOptions;
import org.junit.jupiter.api.Test;

import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;
import java.net.URI;
import java.security.KeyStore;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every fabric8 client of the process checks the server's certificate (the TLS handshake's heavy part) on Vert.x's
 * worker pool, not on the event loop that serves its requests and watches.
 */
class OffLoopTlsHttpClientFactoryTest {

    @Test
    void fabric8PicksItForEveryClientBuilt() {
        assertThat(HttpClientUtils.getHttpClientFactory()).isInstanceOf(OffLoopTlsHttpClientFactory.class);
    }

    @Test
    void theServersCertificateIsCheckedOffTheEventLoop() throws Exception {
        CertificateAuthority ca = CertificateAuthority.generate("test-ca");
        IssuedCertificate serving = ca.issueServerCertificate("localhost", List.of("localhost"), List.of("127.0.0.1"));
        Vertx vertx = Vertx.vertx();
        try {
            HttpServer server = vertx.createHttpServer(new HttpServerOptions().setHost("127.0.0.1").setPort(0).setSsl(true)
                            .setKeyCertOptions(new PemKeyCertOptions().setKeyValue(Buffer.buffer(serving.privateKeyPem()))
                                    .setCertValue(Buffer.buffer(serving.certificatePem()))))
                    .requestHandler(r -> r.response().end("ok"))
                    .listen().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
            List<String> checkedOn = new CopyOnWriteArrayList<>();
            X509TrustManager trusting = recording(trustOnly(ca.certificate()), checkedOn);

            OffLoopTlsHttpClientFactory factory = new OffLoopTlsHttpClientFactory();
            try (HttpClient client = factory.newBuilder().sslContext(null, new TrustManager[]{trusting}).build()) {
                HttpRequest request = client.newHttpRequestBuilder()
                        .uri(URI.create("https://127.0.0.1:" + server.actualPort() + "/")).build();
                HttpResponse<String> response = client.sendAsync(request, String.class).get(30, TimeUnit.SECONDS);
                assertThat(response.body()).isEqualTo("ok");
            }
            assertThat(checkedOn).isNotEmpty().noneMatch(thread -> thread.startsWith("vert.x-eventloop"));
        } finally {
            vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        }
    }

    private static X509TrustManager trustOnly(X509Certificate ca) throws Exception {
        KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
        store.load(null, null);
        store.setCertificateEntry("ca", ca);
        TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        factory.init(store);
        return (X509TrustManager) factory.getTrustManagers()[0];
    }

    /** Checks as {@code delegate} does, noting the thread each check runs on. */
    private static X509TrustManager recording(X509TrustManager delegate, List<String> threads) {
        return new X509TrustManager() {
            @Override
            public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
                delegate.checkClientTrusted(chain, authType);
            }

            @Override
            public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
                threads.add(Thread.currentThread().getName());
                delegate.checkServerTrusted(chain, authType);
            }

            @Override
            public X509Certificate[] getAcceptedIssuers() {
                return delegate.getAcceptedIssuers();
            }
        };
    }
}
