package dev.drainboard.cluster.apiserver.http;

import dev.drainboard.cluster.apiserver.ApiException;
import dev.drainboard.cluster.apiserver.ApiRequest;
import dev.drainboard.cluster.apiserver.ApiServer;
import dev.drainboard.cluster.apiserver.Authenticator;
import dev.drainboard.cluster.apiserver.Json;
import dev.drainboard.cluster.apiserver.ResponseChannel;
import dev.drainboard.cluster.apiserver.Warnings;
import dev.drainboard.cluster.apiserver.rbac.UserInfo;
import dev.drainboard.pki.IssuedCertificate;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.http.ServerWebSocket;
import io.vertx.core.net.JdkSSLEngineOptions;
import io.vertx.core.net.PemKeyCertOptions;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The HTTPS front end: TLS with our own CA, bearer-token authentication ({@link Authenticator}), body limits, and the
 * hand-over of each request to {@link ApiServer} on a virtual thread. Watches stream as chunked
 * HTTP or, when the client upgrades, as WebSocket text messages.
 */
public final class ApiHttpServer implements AutoCloseable {

    private final ApiServer api;
    private final Authenticator authenticator;
    private final int maxBodyBytes;
    private final Vertx vertx;
    private final RequestLimits.Enforcer limits;
    private final ExecutorService workers = Executors.newVirtualThreadPerTaskExecutor();
    /** Watch streams now open, so that a test can cut them all. */
    private final Set<WatchConnection> openWatches = ConcurrentHashMap.newKeySet();
    private HttpServer server;
    /** Off until a chaos test (or {@code serve --inject-faults}) turns it on. */
    private final FaultInjection faults = new FaultInjection(System.nanoTime());

    public ApiHttpServer(ApiServer api, String token) {
        this(api, token, RequestLimits.defaults(api.options().maxBodyBytes()));
    }

    /** With other body and connection limits than kube-apiserver's (tests). */
    public ApiHttpServer(ApiServer api, String token, RequestLimits requestLimits) {
        this.api = api;
        this.authenticator = new Authenticator(api, token);
        this.maxBodyBytes = requestLimits.maxBodyBytes();
        this.vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(2).setPreferNativeTransport(false));
        this.limits = new RequestLimits.Enforcer(vertx, requestLimits);
    }

    /** Listens on 127.0.0.1 (port 0 picks a free one) and returns the bound port. */
    public int start(int port, IssuedCertificate certificate) {
        HttpServerOptions options = new HttpServerOptions()
                .setHost("127.0.0.1")
                .setPort(port)
                .setSsl(true)
                .setUseAlpn(false)
                // Netty otherwise allocates a fresh 16 KiB heap buffer for every TLS record it writes; and runs the
                // handshake's delegated tasks (signatures, certificate checks) on the event loop, which a cold start on
                // a loaded machine held for more than Vert.x's 2 s limit: they go to the worker pool.
                .setSslEngineOptions(new JdkSSLEngineOptions().setPooledHeapBuffers(true).setUseWorkerThread(true))
                .setMaxWebSocketFrameSize(maxBodyBytes)
                .setMaxWebSocketMessageSize(maxBodyBytes * 4)
                .setKeyCertOptions(new PemKeyCertOptions()
                        .setKeyValue(Buffer.buffer(certificate.privateKeyPem()))
                        .setCertValue(Buffer.buffer(certificate.certificatePem())));
        server = vertx.createHttpServer(options).connectionHandler(limits::connected).requestHandler(this::onRequest);
        try {
            server = server.listen().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("cannot listen on 127.0.0.1:" + port + ": " + rootMessage(e), e);
        }
        api.setServerAddress("127.0.0.1:" + server.actualPort());
        return server.actualPort();
    }

    /** The faults injected into writes that come over HTTPS (none unless given a share). */
    public FaultInjection faults() {
        return faults;
    }

    private static String rootMessage(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null) {
            root = root.getCause();
        }
        return root.getMessage();
    }

    private void onRequest(HttpServerRequest request) {
        UserInfo user = authenticator.authenticate(request.getHeader("Authorization"), request.path());
        if (user == null) {
            ApiException unauthorized = new ApiException(401, "Unauthorized", "Unauthorized", null);
            request.response().setStatusCode(401).putHeader("Content-Type", "application/json")
                    .end(Buffer.buffer(Json.bytes(unauthorized.toStatus())));
            return;
        }
        boolean upgrade = "websocket".equalsIgnoreCase(request.getHeader("Upgrade"));
        limits.requestStarted(request, upgrade);
        String length = request.getHeader("Content-Length");
        if (length != null && parseLength(length) > maxBodyBytes) {
            limits.tooLarge(request);
            return;
        }
        if (upgrade) {
            request.toWebSocket().onSuccess(ws -> workers.execute(() -> api.handle(toApiRequest(request, new byte[0]), new WebSocketChannel(ws, openWatches), user)))
                    .onFailure(e -> request.response().setStatusCode(400).end());
            return;
        }
        limits.readBody(request, body -> {
            ApiRequest apiRequest = toApiRequest(request, body);
            HttpChannel channel = new HttpChannel(request, openWatches);
            workers.execute(() -> faults.apply(apiRequest, channel, answer -> api.handle(apiRequest, answer, user)));
        }, e -> {
            if (!request.response().ended() && !request.response().closed()) {
                request.response().setStatusCode(400).end();
            }
        });
    }

    private static long parseLength(String text) {
        try {
            return Long.parseLong(text.trim());
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private static ApiRequest toApiRequest(HttpServerRequest request, byte[] body) {
        Map<String, List<String>> query = new QueryStringDecoder(request.uri()).parameters();
        return new ApiRequest(request.method().name(), request.path(), query,
                request.getHeader("Accept"), request.getHeader("Content-Type"), body);
    }

    /**
     * Closes the connection under every open watch without ending its stream properly, as a network
     * failure or a restarting server would. Returns how many were cut.
     */
    public int dropWatchConnections() {
        int dropped = 0;
        for (WatchConnection watch : List.copyOf(openWatches)) {
            openWatches.remove(watch);
            watch.drop();
            dropped++;
        }
        return dropped;
    }

    @Override
    public void close() {
        if (server != null) {
            try {
                server.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
            } catch (Exception ignored) {
                // closing anyway
            }
        }
        workers.shutdownNow();
        try {
            vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        } catch (Exception ignored) {
            // closing anyway
        }
    }

    /** Our byte arrays are never reused after sending, so Netty may send them without a copy. */
    private static Buffer wrap(byte[] bytes) {
        return Buffer.buffer(Unpooled.wrappedBuffer(bytes));
    }

    /** An open watch stream whose connection can be cut. */
    private interface WatchConnection {
        void drop();
    }

    /** A plain response, or a chunked watch stream. */
    private static final class HttpChannel implements ResponseChannel, WatchConnection {
        private final HttpServerRequest request;
        private final HttpServerResponse response;
        private final Set<WatchConnection> openWatches;
        private final AtomicBoolean ended = new AtomicBoolean();
        private final Set<String> warnings = ConcurrentHashMap.newKeySet();

        HttpChannel(HttpServerRequest request, Set<WatchConnection> openWatches) {
            this.request = request;
            this.response = request.response();
            this.openWatches = openWatches;
        }

        @Override
        public void drop() {
            ended.set(true);
            request.connection().close();
        }

        @Override
        public void warning(String text) {
            if (!ended.get() && warnings.add(text)) {
                response.headers().add("Warning", Warnings.headerValue(text));
            }
        }

        @Override
        public void respond(int code, String contentType, byte[] body) {
            if (ended.compareAndSet(false, true)) {
                response.setStatusCode(code).putHeader("Content-Type", contentType)
                        .putHeader("Cache-Control", "no-cache, private")
                        .end(wrap(body));
            }
        }

        @Override
        public void startStream(String contentType) {
            response.setStatusCode(200).setChunked(true)
                    .putHeader("Content-Type", contentType)
                    .putHeader("Cache-Control", "no-cache, private")
                    .putHeader("Transfer-Encoding", "chunked");
            // Send the headers now: clients wait for them before they consider the watch open.
            response.write(Buffer.buffer());
            openWatches.add(this);
        }

        @Override
        public void sendFrame(byte[] frame) {
            if (!ended.get()) {
                response.write(wrap(frame));
            }
        }

        @Override
        public void endStream() {
            openWatches.remove(this);
            if (ended.compareAndSet(false, true)) {
                response.end();
            }
        }

        @Override
        public void onClose(Runnable action) {
            response.closeHandler(v -> {
                openWatches.remove(this);
                action.run();
            });
            response.endHandler(v -> action.run());
            if (response.closed()) {
                // The client left before the handler was in place: its close event has passed.
                openWatches.remove(this);
                action.run();
            }
        }
    }

    /** A watch over WebSocket: one text message per event. */
    private static final class WebSocketChannel implements ResponseChannel, WatchConnection {
        private final ServerWebSocket socket;
        private final Set<WatchConnection> openWatches;
        private final AtomicBoolean ended = new AtomicBoolean();

        WebSocketChannel(ServerWebSocket socket, Set<WatchConnection> openWatches) {
            this.socket = socket;
            this.openWatches = openWatches;
        }

        @Override
        public void drop() {
            ended.set(true);
            socket.close((short) 1001, "server going away");
        }

        @Override
        public void respond(int code, String contentType, byte[] body) {
            // Only watches upgrade; anything else is answered as an error event, then closed.
            if (ended.compareAndSet(false, true)) {
                if (code >= 400) {
                    String frame = "{\"type\":\"ERROR\",\"object\":" + new String(body, StandardCharsets.UTF_8) + "}";
                    socket.writeTextMessage(frame);
                }
                socket.close();
            }
        }

        @Override
        public void startStream(String contentType) {
            openWatches.add(this);
        }

        /** One text message per event: the frames may hold several newline-terminated events. */
        @Override
        public void sendFrame(byte[] frame) {
            if (ended.get()) {
                return;
            }
            int start = 0;
            for (int i = 0; i < frame.length; i++) {
                if (frame[i] == '\n') {
                    if (i > start) {
                        socket.writeTextMessage(new String(frame, start, i - start, StandardCharsets.UTF_8));
                    }
                    start = i + 1;
                }
            }
            if (start < frame.length) {
                socket.writeTextMessage(new String(frame, start, frame.length - start, StandardCharsets.UTF_8).stripTrailing());
            }
        }

        @Override
        public void endStream() {
            openWatches.remove(this);
            if (ended.compareAndSet(false, true)) {
                socket.close();
            }
        }

        @Override
        public void onClose(Runnable action) {
            try {
                socket.closeHandler(v -> {
                    openWatches.remove(this);
                    action.run();
                });
            } catch (IllegalStateException closedMeanwhile) {
                // Vert.x refuses a handler on a socket already closed: handled just below, as one closed before
            }
            if (socket.isClosed()) {
                // The client left before the handler was in place: its close event has passed.
                openWatches.remove(this);
                action.run();
            }
        }
    }
}
