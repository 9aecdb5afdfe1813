package dev.drainboard.cluster.apiserver;

import java.util.List;
import java.util.Map;

/** One HTTP request, independent of the HTTP library that received it. */
public record ApiRequest(String method, String path, Map<String, List<String>> query,
                         String accept, String contentType, byte[] body) {

    public String param(String name) {
        List<String> values = query.get(name);
        return values == null || values.isEmpty() ? null : values.getFirst();
    }

    public boolean flag(String name) {
        String v = param(name);
        return v != null && (v.isEmpty() || v.equals("true") || v.equals("1"));
    }

    public boolean dryRun() {
        List<String> values = query.get("dryRun");
        return values != null && values.contains("All");
    }

    public boolean wantsTable() {
        return accept != null && accept.contains("as=Table");
    }
}
