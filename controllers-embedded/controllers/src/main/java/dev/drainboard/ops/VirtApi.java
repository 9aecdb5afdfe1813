package dev.drainboard.ops;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * What {@link VmOps} and {@link VmiOps} both need: a VMI read with kubectl's "not found" wording, and a {@code PUT} of
 * one of virt-api's subresources ({@code /apis/subresources.kubevirt.io/v1/namespaces/{ns}/{resource}/{name}/{action}},
 * as {@code virtctl} sends it), whose refusal is shown with the message virt-api gave.
 */
final class VirtApi {

    static final ObjectMapper JSON = new ObjectMapper();

    private VirtApi() {
    }

    /** The VMI, or NOT_FOUND. */
    static VirtualMachineInstance vmi(KubernetesClient client, String namespace, String name) {
        VirtualMachineInstance vmi;
        try {
            vmi = client.resources(VirtualMachineInstance.class).inNamespace(namespace).withName(name).get();
        } catch (KubernetesClientException e) {
            throw OpsException.from("virtualmachineinstance \"" + name + "\"", e);
        }
        if (vmi == null) {
            throw new OpsException(OpsException.Kind.NOT_FOUND,
                    "virtualmachineinstance \"" + name + "\" not found in namespace " + namespace, null);
        }
        return vmi;
    }

    /** A subresource request's body: {@code {"apiVersion": "subresources.kubevirt.io/v1", "kind": kind}}. */
    static ObjectNode options(String kind) {
        ObjectNode body = JSON.createObjectNode();
        body.put("apiVersion", "subresources.kubevirt.io/v1").put("kind", kind);
        return body;
    }

    /**
     * PUTs {@code body} to the subresource and answers virt-api's response whatever its code; UNREACHABLE when there is
     * none. {@code kind} is the resource's singular name ({@code virtualmachine}).
     */
    static HttpResponse<String> put(KubernetesClient client, String namespace, String kind, String name, String action,
            ObjectNode body) {
        String master = client.getMasterUrl().toString();
        String url = (master.endsWith("/") ? master : master + "/") + "apis/subresources.kubevirt.io/v1/namespaces/"
                + encode(namespace) + "/" + kind + "s/" + encode(name) + "/" + action;
        try {
            HttpRequest request = client.getHttpClient().newHttpRequestBuilder().uri(url)
                    .put("application/json", body.toString()).build();
            return client.getHttpClient().sendAsync(request, String.class).get(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new OpsException(OpsException.Kind.UNREACHABLE, kind + " \"" + name + "\": interrupted", e);
        } catch (ExecutionException | TimeoutException | RuntimeException e) {
            throw new OpsException(OpsException.Kind.UNREACHABLE, "cannot reach the cluster: " + OpsException.rootMessage(e), e);
        }
    }

    /** The message of the Status virt-api refused with, or its body as it came. */
    static String message(HttpResponse<String> response) {
        String message = response.body() == null ? "" : response.body().strip();
        try {
            return JSON.readTree(message).path("message").asText(message);
        } catch (Exception e) {
            return message; // not a Status
        }
    }

    /** NOT_FOUND for a 404, REFUSED otherwise. */
    static OpsException.Kind refusalKind(HttpResponse<String> response) {
        return response.code() == 404 ? OpsException.Kind.NOT_FOUND : OpsException.Kind.REFUSED;
    }

    private static String encode(String segment) {
        return URLEncoder.encode(segment, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
