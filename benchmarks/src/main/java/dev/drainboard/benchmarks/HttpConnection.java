package dev.drainboard.benchmarks;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;

/**
 * One keep-alive HTTP/1.1 connection over TLS, used by one thread at a time: just the subset of
 * HTTP the API server's answers need (Content-Length bodies, and chunked bodies for watches).
 */
final class HttpConnection implements AutoCloseable {

    record Response(int status, byte[] body) {
    }

    private final SSLSocket socket;
    private final InputStream in;
    private final OutputStream out;
    private final String hostHeader;
    private final String authorization;

    private HttpConnection(SSLSocket socket, String hostHeader, String authorization) throws IOException {
        this.socket = socket;
        this.in = new BufferedInputStream(socket.getInputStream(), 64 * 1024);
        this.out = new BufferedOutputStream(socket.getOutputStream(), 16 * 1024);
        this.hostHeader = hostHeader;
        this.authorization = authorization;
    }

    static HttpConnection open(SSLSocketFactory factory, String host, int port, String authorization) throws IOException {
        SSLSocket socket = (SSLSocket) factory.createSocket(host, port);
        SSLParameters parameters = socket.getSSLParameters();
        parameters.setEndpointIdentificationAlgorithm("HTTPS");
        socket.setSSLParameters(parameters);
        socket.setTcpNoDelay(true);
        socket.startHandshake();
        return new HttpConnection(socket, host + ":" + port, authorization);
    }

    Response exchange(String method, String path, String contentType, String body) throws IOException {
        sendRequest(method, path, contentType, body);
        int status = readStatus();
        Headers headers = readHeaders();
        byte[] bytes;
        if (headers.chunked) {
            bytes = new ChunkedBody(in).readAllBytes();
        } else {
            bytes = in.readNBytes((int) headers.contentLength);
            if (bytes.length != headers.contentLength) {
                throw new EOFException("connection closed inside a response body");
            }
        }
        return new Response(status, bytes);
    }

    /** Sends a GET and returns its (de-chunked) body as a stream; the connection is the stream's from then on. */
    InputStream stream(String path) throws IOException {
        sendRequest("GET", path, null, null);
        int status = readStatus();
        Headers headers = readHeaders();
        if (status != 200 || !headers.chunked) {
            close();
            throw new IOException("GET " + path + " answered " + status + (headers.chunked ? "" : " without a chunked body"));
        }
        ChunkedBody body = new ChunkedBody(in);
        return new InputStream() {
            @Override
            public int read() throws IOException {
                return body.read();
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                return body.read(b, off, len);
            }

            @Override
            public void close() {
                HttpConnection.this.close();
            }
        };
    }

    private void sendRequest(String method, String path, String contentType, String body) throws IOException {
        byte[] payload = body == null ? null : body.getBytes(StandardCharsets.UTF_8);
        StringBuilder head = new StringBuilder(256)
                .append(method).append(' ').append(path).append(" HTTP/1.1\r\n")
                .append("Host: ").append(hostHeader).append("\r\n")
                .append("Authorization: ").append(authorization).append("\r\n")
                .append("Accept: application/json\r\n");
        if (payload != null) {
            head.append("Content-Type: ").append(contentType).append("\r\n")
                    .append("Content-Length: ").append(payload.length).append("\r\n");
        }
        head.append("\r\n");
        out.write(head.toString().getBytes(StandardCharsets.US_ASCII));
        if (payload != null) {
            out.write(payload);
        }
        out.flush();
    }

    private int readStatus() throws IOException {
        String line = readLine(in);
        // "HTTP/1.1 200 OK"
        if (line.length() < 12 || !line.startsWith("HTTP/1.1 ")) {
            throw new IOException("not an HTTP/1.1 status line: " + line);
        }
        return Integer.parseInt(line.substring(9, 12));
    }

    private record Headers(long contentLength, boolean chunked) {
    }

    private Headers readHeaders() throws IOException {
        long length = 0;
        boolean chunked = false;
        String line;
        while (!(line = readLine(in)).isEmpty()) {
            int colon = line.indexOf(':');
            String name = line.substring(0, colon).trim().toLowerCase(Locale.ROOT);
            String value = line.substring(colon + 1).trim();
            if (name.equals("content-length")) {
                length = Long.parseLong(value);
            } else if (name.equals("transfer-encoding") && value.toLowerCase(Locale.ROOT).contains("chunked")) {
                chunked = true;
            }
        }
        return new Headers(length, chunked);
    }

    static String readLine(InputStream in) throws IOException {
        StringBuilder line = new StringBuilder(64);
        int c;
        while ((c = in.read()) != '\n') {
            if (c < 0) {
                throw new EOFException("connection closed");
            }
            if (c != '\r') {
                line.append((char) c);
            }
        }
        return line.toString();
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException ignored) {
            // closing anyway
        }
    }

    /** The body of a chunked response, read chunk by chunk as it arrives. */
    private static final class ChunkedBody extends InputStream {
        private final InputStream in;
        private long left;
        private boolean done;

        ChunkedBody(InputStream in) {
            this.in = in;
        }

        private boolean nextChunk() throws IOException {
            while (left == 0 && !done) {
                String size = readLine(in);
                int semicolon = size.indexOf(';');
                left = Long.parseLong((semicolon < 0 ? size : size.substring(0, semicolon)).trim(), 16);
                if (left == 0) {
                    done = true;
                    while (!readLine(in).isEmpty()) {
                        // trailers
                    }
                }
            }
            return !done;
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (!nextChunk()) {
                return -1;
            }
            int n = in.read(b, off, (int) Math.min(len, left));
            if (n < 0) {
                throw new EOFException("connection closed inside a chunk");
            }
            left -= n;
            if (left == 0) {
                readLine(in); // the CRLF after each chunk
            }
            return n;
        }

        @Override
        public byte[] readAllBytes() throws IOException {
            ByteArrayOutputStream all = new ByteArrayOutputStream();
            byte[] buffer = new byte[8192];
            int n;
            while ((n = read(buffer, 0, buffer.length)) > 0) {
                all.write(buffer, 0, n);
            }
            return all.toByteArray();
        }
    }
}
