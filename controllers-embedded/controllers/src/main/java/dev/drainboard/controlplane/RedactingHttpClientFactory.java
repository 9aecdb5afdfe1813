package dev.drainboard.controlplane;

import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpLoggingInterceptor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Comparator;
import java.util.ServiceLoader;

/**
 * The HTTP client factory of every fabric8 client in this process, so that no credential reaches a log.
 *
 * <p>With the logger {@code io.fabric8.kubernetes.client.http.HttpLoggingInterceptor} at TRACE, fabric8 installs that
 * interceptor (under the name {@value #FABRIC8_LOGGING_INTERCEPTOR}, in {@code StandardHttpClientBuilder}'s constructor)
 * and it writes every request header: {@code Authorization: Bearer <token>} included. This factory builds the clients
 * of the next HTTP client implementation on the class path (Vert.x) and puts the same interceptor in that place,
 * writing through a logger that redacts credentials ({@link Redaction}); the bodies and other headers are logged as
 * before. fabric8 picks the factory of highest {@link #priority()} among those registered with {@link ServiceLoader}
 * ({@code HttpClientUtils.getHttpClientFactory}); this one is registered in
 * {@code META-INF/services/io.fabric8.kubernetes.client.http.HttpClient$Factory} one above the one it wraps.
 */
public final class RedactingHttpClientFactory implements HttpClient.Factory {

    /** The name fabric8 gives its HTTP logging interceptor. */
    static final String FABRIC8_LOGGING_INTERCEPTOR = "HttpLogging";

    private static final Logger HTTP_LOG = LoggerFactory.getLogger(HttpLoggingInterceptor.class);

    private final HttpClient.Factory delegate;
    private final Logger httpLog;

    /** For {@link ServiceLoader}: wraps the highest-priority other factory. */
    public RedactingHttpClientFactory() {
        this(next(), HTTP_LOG);
    }

    /** Wraps this factory (one not found by {@link ServiceLoader}, e.g. on a Vert.x instance of the caller's). */
    public static RedactingHttpClientFactory over(HttpClient.Factory delegate) {
        return new RedactingHttpClientFactory(delegate, HTTP_LOG);
    }

    RedactingHttpClientFactory(HttpClient.Factory delegate, Logger httpLog) {
        this.delegate = delegate;
        this.httpLog = httpLog;
    }

    @Override
    public HttpClient.Builder newBuilder() {
        HttpClient.Builder builder = delegate.newBuilder();
        // As fabric8 decides: only at TRACE, since the interceptor copies every response body it sees.
        if (httpLog.isTraceEnabled()) {
            builder.addOrReplaceInterceptor(FABRIC8_LOGGING_INTERCEPTOR, new HttpLoggingInterceptor(new RedactingLogger(httpLog)));
        }
        return builder;
    }

    @Override
    public int priority() {
        return delegate.priority() + 1;
    }

    private static HttpClient.Factory next() {
        return ServiceLoader.load(HttpClient.Factory.class, RedactingHttpClientFactory.class.getClassLoader()).stream()
                .filter(provider -> provider.type() != RedactingHttpClientFactory.class)
                .map(ServiceLoader.Provider::get)
                .max(Comparator.comparingInt(HttpClient.Factory::priority))
                .orElseThrow(() -> new KubernetesClientException("no HTTP client implementation for fabric8 on the class path"));
    }
}
