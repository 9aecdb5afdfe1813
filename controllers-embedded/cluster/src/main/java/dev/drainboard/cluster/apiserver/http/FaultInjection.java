package dev.drainboard.cluster.apiserver.http;

import dev.drainboard.cluster.apiserver.ApiException;
import dev.drainboard.cluster.apiserver.ApiRequest;
import dev.drainboard.cluster.apiserver.Json;
import dev.drainboard.cluster.apiserver.ResponseChannel;

import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;

/**
 * Answers a share of the API's writes over HTTPS with the errors a loaded kube-apiserver gives, for chaos tests
 * ({@code drainboard serve --inject-faults SHARE}; docs/reliability.md). Off (share 0) unless asked for. Three faults,
 * chosen evenly:
 * <ul>
 *   <li>{@link Fault#CONFLICT}: 409 before the write, as an update that lost a race (updates and patches only; a
 *       create gets {@link Fault#INTERNAL} instead);</li>
 *   <li>{@link Fault#INTERNAL}: 500 before the write (an etcd hiccup);</li>
 *   <li>{@link Fault#TIMEOUT_AFTER_WRITE}: the write is done, and the client gets 504 anyway, the case a client must
 *       not take for "nothing happened".</li>
 * </ul>
 * Reads, watches, access reviews and token requests are never touched, nor the cluster's own in-process work.
 */
public final class FaultInjection {

    /** What a faulted request gets. */
    public enum Fault { CONFLICT, INTERNAL, TIMEOUT_AFTER_WRITE }

    private static final Set<String> WRITES = Set.of("POST", "PUT", "PATCH", "DELETE");

    private volatile double share;
    private final Random random;
    private final Map<Fault, LongAdder> injected = new ConcurrentHashMap<>();
    private final LongAdder writes = new LongAdder();

    public FaultInjection(long seed) {
        this.random = new Random(seed);
    }

    /** Injects into this share of writes from now on (0 turns it off, 1 faults every write). */
    public void setShare(double share) {
        if (!(share >= 0 && share <= 1)) {
            throw new IllegalArgumentException("the share of faulted writes must be between 0 and 1, got " + share);
        }
        this.share = share;
    }

    public double share() {
        return share;
    }

    /** A fault for the next write of this method whose path matches, whatever the share (a test's exact case). */
    private record Once(String method, java.util.function.Predicate<String> path, Fault fault) {
    }

    private final java.util.List<Once> once = new java.util.concurrent.CopyOnWriteArrayList<>();

    /** The next write with {@code method} whose path matches {@code path} gets {@code fault}, once. */
    public void faultNext(String method, java.util.function.Predicate<String> path, Fault fault) {
        once.add(new Once(method, path, fault));
    }

    /** How many writes got each fault so far. */
    public long injected(Fault fault) {
        LongAdder count = injected.get(fault);
        return count == null ? 0 : count.sum();
    }

    public long injectedTotal() {
        return injected.values().stream().mapToLong(LongAdder::sum).sum();
    }

    /** Writes seen (faulted or not) while injecting. */
    public long writesSeen() {
        return writes.sum();
    }

    /** The fault for this request, if it gets one. */
    Optional<Fault> decide(ApiRequest request) {
        for (Once o : once) {
            if (o.method().equals(request.method()) && faultable(request.path()) && o.path().test(request.path())
                    && once.remove(o)) {
                injected.computeIfAbsent(o.fault(), f -> new LongAdder()).increment();
                return Optional.of(o.fault());
            }
        }
        double s = share;
        if (s <= 0 || !WRITES.contains(request.method()) || !faultable(request.path())) {
            return Optional.empty();
        }
        writes.increment();
        double draw;
        int which;
        synchronized (random) {
            draw = random.nextDouble();
            which = random.nextInt(3);
        }
        if (draw >= s) {
            return Optional.empty();
        }
        Fault fault = Fault.values()[which];
        if (fault == Fault.CONFLICT && !(request.method().equals("PUT") || request.method().equals("PATCH"))) {
            fault = Fault.INTERNAL;
        }
        injected.computeIfAbsent(fault, f -> new LongAdder()).increment();
        return Optional.of(fault);
    }

    /** Resource writes only: not the access reviews, token reviews and token requests a client reads with. */
    private static boolean faultable(String path) {
        return (path.startsWith("/api/") || path.startsWith("/apis/"))
                && !path.contains("accessreviews") && !path.contains("tokenreviews") && !path.endsWith("/token");
    }

    /** Has {@code handle} answer the request on the channel, or answers it with a fault instead of (or after) it. */
    void apply(ApiRequest request, ResponseChannel channel, Consumer<ResponseChannel> handle) {
        Optional<Fault> fault = decide(request);
        if (fault.isEmpty()) {
            handle.accept(channel);
            return;
        }
        switch (fault.get()) {
            case CONFLICT -> respond(channel, new ApiException(409, "Conflict", "Operation cannot be fulfilled on "
                    + request.path() + ": the object has been modified; please apply your changes to the latest version "
                    + "and try again", null));
            case INTERNAL -> respond(channel, new ApiException(500, "InternalError",
                    "Internal error occurred: injected fault (drainboard serve --inject-faults)", null));
            case TIMEOUT_AFTER_WRITE -> {
                handle.accept(DISCARD);
                respond(channel, new ApiException(504, "Timeout",
                        "Timeout: request did not complete within requested timeout - context deadline exceeded", null));
            }
        }
    }

    /** Where the answer of a write that "timed out" goes: nowhere. */
    private static final ResponseChannel DISCARD = new ResponseChannel() {
        @Override
        public void respond(int code, String contentType, byte[] body) {
        }

        @Override
        public void startStream(String contentType) {
        }

        @Override
        public void sendFrame(byte[] frame) {
        }

        @Override
        public void endStream() {
        }

        @Override
        public void onClose(Runnable action) {
        }
    };

    private static void respond(ResponseChannel channel, ApiException e) {
        channel.respond(e.code(), "application/json", Json.bytes(e.toStatus()));
    }
}
