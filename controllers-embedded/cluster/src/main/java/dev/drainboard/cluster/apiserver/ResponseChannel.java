package dev.drainboard.cluster.apiserver;

/**
 * Where a request's answer goes: one complete response, or a stream of watch frames. The HTTP front
 * end implements it for chunked HTTP and for WebSocket; writes are safe from any thread.
 */
public interface ResponseChannel {

    void respond(int code, String contentType, byte[] body);

    /** Adds a {@code Warning} header to the response that has not been sent yet (see {@link Warnings}). */
    default void warning(String text) {
    }

    /** Starts a streamed 200 response (a watch). */
    void startStream(String contentType);

    /** Sends watch events on a started stream: one or more, each newline-terminated JSON. */
    void sendFrame(byte[] frame);

    void endStream();

    /** Runs when the client goes away (or the stream is ended). */
    void onClose(Runnable action);
}
