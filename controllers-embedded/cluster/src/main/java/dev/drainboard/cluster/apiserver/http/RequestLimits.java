package dev.drainboard.cluster.apiserver.http;

import dev.drainboard.cluster.apiserver.ApiException;
import dev.drainboard.cluster.apiserver.Json;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;

import java.time.Duration;
import java.util.function.Consumer;

/**
 * What one client may hold of the server: a body of at most {@code maxBodyBytes}, read within
 * {@code bodyReadTimeout}, and a connection that waits for its next request at most {@code idleTimeout}.
 *
 * <p>kube-apiserver's numbers (k8s.io/apiserver pkg/server/secure_serving.go: {@code IdleTimeout: 90s},
 * {@code ReadHeaderTimeout: 32s}; pkg/server/options/server_run_options.go: {@code --request-timeout} 60s,
 * {@code MaxRequestBodyBytes} 3 MiB). A body that has not arrived when the request times out is answered as
 * kube-apiserver's timeout filter answers (pkg/server/filters/timeout.go): 504 {@code Timeout}, "request did not
 * complete within requested timeout - context deadline exceeded"; then the connection is closed, as Go's server
 * closes one whose body was left unread.
 *
 * @param maxBodyBytes    larger bodies are 413 {@code RequestEntityTooLarge}, announced or counted while they stream
 * @param bodyReadTimeout from the request's headers to the last byte of its body
 * @param idleTimeout     a connection without a request in flight (before its first, between keep-alive requests)
 */
public record RequestLimits(int maxBodyBytes, Duration bodyReadTimeout, Duration idleTimeout) {

    public static RequestLimits defaults(int maxBodyBytes) {
        return new RequestLimits(maxBodyBytes, Duration.ofSeconds(60), Duration.ofSeconds(90));
    }

    /** Per-connection bookkeeping; all of it runs on the connection's event loop. */
    static final class Enforcer {
        /** How long a connection answered 413 or 504 still takes (and drops) the client's body before it closes. */
        private static final java.time.Duration LINGER = java.time.Duration.ofMillis(500);
        private final Vertx vertx;
        private final RequestLimits limits;

        Enforcer(Vertx vertx, RequestLimits limits) {
            this.vertx = vertx;
            this.limits = limits;
        }

        /** A new connection is idle until its first request's headers have arrived. */
        void connected(HttpConnection connection) {
            ConnectionState state = new ConnectionState(connection);
            states.put(connection, state);
            connection.closeHandler(v -> {
                state.cancelIdle();
                states.remove(connection);
            });
            state.startIdle();
        }

        /** The request is in flight until its response has ended (a watch: until its stream does). */
        void requestStarted(HttpServerRequest request, boolean upgrade) {
            ConnectionState state = states.get(request.connection());
            if (state == null) {
                return;
            }
            state.inFlight++;
            state.cancelIdle();
            if (upgrade) {
                state.upgraded = true; // a WebSocket: long-running, never idle by our measure
                return;
            }
            Handler<Void> done = v -> {
                if (state.inFlight > 0) {
                    state.inFlight--;
                }
                if (state.inFlight == 0 && !state.upgraded) {
                    state.startIdle();
                }
            };
            // bodyEndHandler: the channel's endHandler belongs to watches (ApiHttpServer.HttpChannel.onClose).
            request.response().bodyEndHandler(done);
        }

        /**
         * Reads the body within the limits: {@code onBody} gets it whole; otherwise the client has been answered
         * 413 or 504 and the connection closes.
         */
        void readBody(HttpServerRequest request, Consumer<byte[]> onBody, Handler<Throwable> onFailure) {
            Buffer body = Buffer.buffer();
            boolean[] finished = {false};
            long timer = vertx.setTimer(Math.max(1, limits.bodyReadTimeout().toMillis()), id -> {
                if (!finished[0]) {
                    finished[0] = true;
                    answerAndClose(request, new ApiException(504, "Timeout",
                            "Timeout: request did not complete within requested timeout - context deadline exceeded", null));
                }
            });
            request.handler(chunk -> {
                if (finished[0]) {
                    return;
                }
                if ((long) body.length() + chunk.length() > limits.maxBodyBytes()) {
                    finished[0] = true;
                    vertx.cancelTimer(timer);
                    tooLarge(request);
                    return;
                }
                body.appendBuffer(chunk);
            });
            request.exceptionHandler(e -> {
                if (!finished[0]) {
                    finished[0] = true;
                    vertx.cancelTimer(timer);
                    onFailure.handle(e);
                }
            });
            request.endHandler(v -> {
                if (!finished[0]) {
                    finished[0] = true;
                    vertx.cancelTimer(timer);
                    onBody.accept(body.getBytes());
                }
            });
        }

        /** 413 as kube-apiserver's limitedReadBody (k8s.io/apiserver pkg/endpoints/handlers/rest.go). */
        void tooLarge(HttpServerRequest request) {
            answerAndClose(request, new ApiException(413, "RequestEntityTooLarge",
                    "Request entity too large: limit is " + limits.maxBodyBytes(), null));
        }

        private void answerAndClose(HttpServerRequest request, ApiException error) {
            HttpServerResponse response = request.response();
            if (response.ended() || response.closed()) {
                request.connection().close();
                return;
            }
            // The rest of the body is never used: the connection cannot carry another request. Closing while the
            // client still sends it resets the connection, and the client may lose the answer with it: what still
            // comes is discarded, and the connection closes once the body has ended or LINGER after the answer.
            boolean[] closed = {false};
            Runnable close = () -> {
                if (!closed[0]) {
                    closed[0] = true;
                    request.connection().close();
                }
            };
            if (!request.isEnded()) {
                try {
                    request.handler(ignored -> { });
                    request.endHandler(v -> close.run());
                } catch (IllegalStateException alreadyRead) {
                    // ended meanwhile: closed after the answer below
                }
            }
            response.setStatusCode(error.code()).putHeader("Content-Type", "application/json")
                    .putHeader("Connection", "close")
                    .end(Buffer.buffer(Json.bytes(error.toStatus())))
                    .onComplete(done -> {
                        if (request.isEnded()) {
                            close.run();
                        } else {
                            vertx.setTimer(LINGER.toMillis(), id -> close.run());
                        }
                    });
        }

        private final java.util.Map<HttpConnection, ConnectionState> states = new java.util.concurrent.ConcurrentHashMap<>();

        private final class ConnectionState {
            private final HttpConnection connection;
            private int inFlight;
            private boolean upgraded;
            private long idleTimer = -1;

            ConnectionState(HttpConnection connection) {
                this.connection = connection;
            }

            void startIdle() {
                cancelIdle();
                idleTimer = vertx.setTimer(Math.max(1, limits.idleTimeout().toMillis()), id -> {
                    idleTimer = -1;
                    if (inFlight == 0 && !upgraded) {
                        connection.close();
                    }
                });
            }

            void cancelIdle() {
                if (idleTimer >= 0) {
                    vertx.cancelTimer(idleTimer);
                    idleTimer = -1;
                }
            }
        }
    }
}
