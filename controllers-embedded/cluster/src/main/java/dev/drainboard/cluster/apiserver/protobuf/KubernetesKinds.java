package dev.drainboard.cluster.apiserver.protobuf;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Descriptors.FileDescriptor;
import io.kubernetes.client.proto.Meta;
import io.kubernetes.client.proto.V1;
import io.kubernetes.client.proto.V1Admissionregistration;
import io.kubernetes.client.proto.V1Apps;
import io.kubernetes.client.proto.V1Authentication;
import io.kubernetes.client.proto.V1Authorization;
import io.kubernetes.client.proto.V1Autoscaling;
import io.kubernetes.client.proto.V1Batch;
import io.kubernetes.client.proto.V1Certificates;
import io.kubernetes.client.proto.V1Networking;
import io.kubernetes.client.proto.V1Policy;
import io.kubernetes.client.proto.V1Rbac;
import io.kubernetes.client.proto.V1Scheduling;
import io.kubernetes.client.proto.V1Storage;
import java.util.HashMap;
import java.util.Map;

/** Finds the protobuf message type of an (apiVersion, kind), among the GA API groups of the generated classes. */
final class KubernetesKinds {

    /**
     * The API group served from each generated proto file. Only GA (v1) groups: the zero-value rules in
     * explicit-zero-fields.txt are written for them, and kubectl talks to GA versions for what it creates.
     */
    private static final Map<FileDescriptor, String> GROUP_OF_PROTO_FILE = Map.ofEntries(
            Map.entry(V1.getDescriptor(), ""),
            Map.entry(V1Admissionregistration.getDescriptor(), "admissionregistration.k8s.io"),
            Map.entry(V1Apps.getDescriptor(), "apps"),
            Map.entry(V1Authentication.getDescriptor(), "authentication.k8s.io"),
            Map.entry(V1Authorization.getDescriptor(), "authorization.k8s.io"),
            Map.entry(V1Autoscaling.getDescriptor(), "autoscaling"),
            Map.entry(V1Batch.getDescriptor(), "batch"),
            Map.entry(V1Certificates.getDescriptor(), "certificates.k8s.io"),
            Map.entry(V1Networking.getDescriptor(), "networking.k8s.io"),
            Map.entry(V1Policy.getDescriptor(), "policy"),
            Map.entry(V1Rbac.getDescriptor(), "rbac.authorization.k8s.io"),
            Map.entry(V1Scheduling.getDescriptor(), "scheduling.k8s.io"),
            Map.entry(V1Storage.getDescriptor(), "storage.k8s.io"));

    private static final Map<String, Descriptor> MESSAGE_TYPE_BY_API_VERSION_AND_KIND = index();

    private KubernetesKinds() {
    }

    static Descriptor messageType(String apiVersion, String kind) throws ProtobufDecodeException {
        Descriptor type = MESSAGE_TYPE_BY_API_VERSION_AND_KIND.get(key(apiVersion, kind));
        if (type == null) {
            throw new ProtobufDecodeException(
                    "Cannot decode protobuf body of kind " + kind + " in " + apiVersion + ": no protobuf schema for it");
        }
        return type;
    }

    private static Map<String, Descriptor> index() {
        Map<String, Descriptor> index = new HashMap<>();
        GROUP_OF_PROTO_FILE.forEach((file, group) -> {
            String version = file.getPackage().substring(file.getPackage().lastIndexOf('.') + 1);
            String apiVersion = group.isEmpty() ? version : group + "/" + version;
            for (Descriptor message : file.getMessageTypes()) {
                if (isKind(message)) {
                    index.put(key(apiVersion, message.getName()), message);
                }
            }
            // Typed clients send delete options as a body in the group version of the resource.
            index.put(key(apiVersion, "DeleteOptions"), Meta.DeleteOptions.getDescriptor());
        });
        return Map.copyOf(index);
    }

    /**
     * Objects and lists carry ObjectMeta or ListMeta, helper structures (specs, statuses, sources) do not. A few
     * embedded templates carry ObjectMeta too and so are indexed as well; no client sends them as a kind.
     */
    private static boolean isKind(Descriptor message) {
        FieldDescriptor metadata = message.findFieldByName("metadata");
        return metadata != null
                && metadata.getType() == FieldDescriptor.Type.MESSAGE
                && (metadata.getMessageType() == Meta.ObjectMeta.getDescriptor()
                        || metadata.getMessageType() == Meta.ListMeta.getDescriptor());
    }

    private static String key(String apiVersion, String kind) {
        return apiVersion + " " + kind;
    }
}
