package dev.drainboard.cluster.apiserver;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * How many requests the API server answered, by verb and resource ({@code patch virtualmachineinstances},
 * {@code patch pods/status}, {@code create events}…): what benchmarks divide by the objects they moved to get
 * round trips per object. Counting is a map lookup and an add per request.
 */
public final class RequestCounts {

    private final Map<String, LongAdder> counts = new ConcurrentHashMap<>();

    void count(String method, boolean watch, ResourcePath path) {
        String verb = switch (method) {
            case "GET" -> watch ? "watch" : path.isCollection() ? "list" : "get";
            case "POST" -> "create";
            case "PUT" -> "update";
            case "PATCH" -> "patch";
            case "DELETE" -> path.isCollection() ? "deletecollection" : "delete";
            default -> method.toLowerCase(java.util.Locale.ROOT);
        };
        String resource = path.type().plural() + (path.subresource().isEmpty() ? "" : "/" + path.subresource());
        counts.computeIfAbsent(verb + " " + resource, k -> new LongAdder()).increment();
    }

    /** The counts so far, sorted by {@code "verb resource"}. */
    public Map<String, Long> snapshot() {
        Map<String, Long> copy = new TreeMap<>();
        counts.forEach((k, v) -> copy.put(k, v.sum()));
        return copy;
    }
}
