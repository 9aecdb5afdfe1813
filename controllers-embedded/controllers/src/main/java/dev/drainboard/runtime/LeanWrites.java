package dev.drainboard.runtime;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Creates and patches whose answers the caller does not read. fabric8's typed operations decode every answer into a
 * model object (a whole pod, a whole VMI); a controller that only needs "it worked" (or, after a create with
 * {@code generateName}, the name) pays for that on every write. These go through the same client (its HTTP
 * connections, authentication, retries and timeouts) and fail the same way: a non-2xx answer is a
 * {@link KubernetesClientException} with the code and the server's Status, so callers check {@code getCode()} as
 * before.
 */
public final class LeanWrites {

    private static final JsonFactory JSON = new JsonFactory();

    private final KubernetesClient client;
    private final String base;
    private final long timeoutMillis;

    public LeanWrites(KubernetesClient client) {
        this.client = client;
        String url = client.getMasterUrl().toString();
        this.base = url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
        int timeout = client.getConfiguration().getRequestTimeout();
        this.timeoutMillis = timeout > 0 ? timeout : TimeUnit.SECONDS.toMillis(30);
    }

    /** Patches {@code type} {@code namespace/name} (or its {@code subresource}, e.g. "status"; null for none). */
    public void patch(Class<? extends HasMetadata> type, String namespace, String name, String subresource,
                      PatchType patchType, String patch) {
        String url = url(type, namespace) + "/" + name + (subresource == null ? "" : "/" + subresource);
        HttpRequest request = client.getHttpClient().newHttpRequestBuilder().uri(url)
                .method("PATCH", patchType.getContentType(), patch)
                .timeout(timeoutMillis, TimeUnit.MILLISECONDS)
                .build();
        send(request);
    }

    /** Creates the object in its namespace; returns its name as the server stored it (generateName filled in). */
    public String create(HasMetadata object) {
        String url = url(object.getClass(), object.getMetadata().getNamespace());
        byte[] body = client.getKubernetesSerialization().asJson(object).getBytes(StandardCharsets.UTF_8);
        HttpRequest request = client.getHttpClient().newHttpRequestBuilder().uri(url)
                .post("application/json", body)
                .timeout(timeoutMillis, TimeUnit.MILLISECONDS)
                .build();
        return metadataName(send(request));
    }

    /** The collection URL of the type, in the namespace when the type is namespaced. */
    String url(Class<? extends HasMetadata> type, String namespace) {
        Path path = PATHS.get(type);
        if (path.namespaced()) {
            if (namespace == null || namespace.isEmpty()) {
                throw new KubernetesClientException("a namespace is required to write " + path.plural());
            }
            return base + path.root() + "/namespaces/" + namespace + "/" + path.plural();
        }
        return base + path.root() + "/" + path.plural();
    }

    /** {@code /api/v1} or {@code /apis/group/version}, the plural, and whether it is namespaced. */
    private record Path(String root, String plural, boolean namespaced) {
    }

    /** Worked out once per type: fabric8 derives the plural by rules each time it is asked. */
    private static final ClassValue<Path> PATHS = new ClassValue<>() {
        @Override
        protected Path computeValue(Class<?> type) {
            @SuppressWarnings("unchecked")
            Class<? extends HasMetadata> t = (Class<? extends HasMetadata>) type;
            String apiVersion = HasMetadata.getApiVersion(t);
            String root = apiVersion.contains("/") ? "/apis/" + apiVersion : "/api/" + apiVersion;
            return new Path(root, HasMetadata.getPlural(t), Namespaced.class.isAssignableFrom(t));
        }
    };

    private byte[] send(HttpRequest request) {
        HttpResponse<byte[]> response;
        try {
            response = client.getHttpClient().sendAsync(request, byte[].class).get(timeoutMillis * 2, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KubernetesClientException("interrupted: " + request.method() + " " + request.uri(), e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            if (cause instanceof KubernetesClientException k) {
                throw k;
            }
            throw new KubernetesClientException(request.method() + " " + request.uri() + " failed: " + cause, cause);
        } catch (TimeoutException e) {
            throw new KubernetesClientException(request.method() + " " + request.uri() + " timed out", e);
        }
        byte[] body = response.body() == null ? new byte[0] : response.body();
        if (!response.isSuccessful()) {
            throw failure(request, response.code(), body);
        }
        return body;
    }

    /** As fabric8 reports a failed request: the code and, when the server sent one, its Status. */
    private KubernetesClientException failure(HttpRequest request, int code, byte[] body) {
        Status status = null;
        try {
            status = client.getKubernetesSerialization().unmarshal(new String(body, StandardCharsets.UTF_8), Status.class);
        } catch (RuntimeException notJson) {
            // status stays null: the message says what came back
        }
        if (status == null || status.getCode() == null) {
            status = new Status();
            status.setCode(code);
            status.setMessage(new String(body, StandardCharsets.UTF_8));
        }
        String message = "Failure executing: " + request.method() + " at: " + request.uri() + ". Message: " + status.getMessage() + ".";
        return new KubernetesClientException(message, null, code, status, request);
    }

    /** {@code metadata.name} of a JSON object, read without building the object. */
    static String metadataName(byte[] json) {
        try (JsonParser p = JSON.createParser(json)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return null;
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                JsonToken value = p.nextToken();
                if (field.equals("metadata") && value == JsonToken.START_OBJECT) {
                    while (p.nextToken() == JsonToken.FIELD_NAME) {
                        String inner = p.currentName();
                        JsonToken v = p.nextToken();
                        if (inner.equals("name") && v == JsonToken.VALUE_STRING) {
                            return p.getText();
                        }
                        p.skipChildren();
                    }
                    return null;
                }
                p.skipChildren();
            }
            return null;
        } catch (IOException e) {
            return null;
        }
    }
}
