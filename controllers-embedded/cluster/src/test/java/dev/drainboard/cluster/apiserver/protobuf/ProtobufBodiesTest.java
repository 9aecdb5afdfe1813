package dev.drainboard.cluster.apiserver.protobuf;

import static dev.drainboard.cluster.apiserver.protobuf.Envelopes.envelope;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.protobuf.ByteString;
import io.kubernetes.client.proto.IntStr.IntOrString;
import io.kubernetes.client.proto.Meta;
import io.kubernetes.client.proto.Resource.Quantity;
import io.kubernetes.client.proto.Runtime.RawExtension;
import io.kubernetes.client.proto.V1;
import io.kubernetes.client.proto.V1Apps;
import io.kubernetes.client.proto.V1Authorization;
import io.kubernetes.client.proto.V1Networking;
import io.kubernetes.client.proto.V1Policy;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Objects built with the generated builders decode to their Kubernetes JSON form. */
class ProtobufBodiesTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** 2026-11-22T10:00:00Z */
    private static final long NOV_22_2026_10H = 1_795_341_600L;

    @Test
    void namespaceWithLabels() throws Exception {
        V1.Namespace namespace = V1.Namespace.newBuilder()
                .setMetadata(Meta.ObjectMeta.newBuilder().setName("demo").putLabels("team", "a").putLabels("env", ""))
                .build();

        assertDecodes(envelope("v1", "Namespace", namespace), """
                {"apiVersion": "v1", "kind": "Namespace",
                 "metadata": {"name": "demo", "labels": {"team": "a", "env": ""}}}""");
    }

    @Test
    void configMapWithDataAndBinaryData() throws Exception {
        V1.ConfigMap configMap = V1.ConfigMap.newBuilder()
                .setMetadata(Meta.ObjectMeta.newBuilder().setName("cfg").setNamespace("default"))
                .putData("a", "b")
                .putBinaryData("bin", ByteString.copyFrom(new byte[] {0, 1, (byte) 0xff}))
                .setImmutable(false)
                .build();

        assertDecodes(envelope("v1", "ConfigMap", configMap), """
                {"apiVersion": "v1", "kind": "ConfigMap",
                 "metadata": {"name": "cfg", "namespace": "default"},
                 "data": {"a": "b"}, "binaryData": {"bin": "AAH/"}, "immutable": false}""");
    }

    @Test
    void secretDataIsBase64() throws Exception {
        V1.Secret secret = V1.Secret.newBuilder()
                .setMetadata(Meta.ObjectMeta.newBuilder().setName("s"))
                .putData("password", ByteString.copyFromUtf8("hunter2"))
                .setType("Opaque")
                .build();

        assertDecodes(envelope("v1", "Secret", secret), """
                {"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "s"},
                 "data": {"password": "aHVudGVyMg=="}, "type": "Opaque"}""");
    }

    @Test
    void deploymentWithTemplateContainersPortsResourcesAndEnv() throws Exception {
        V1.Container container = V1.Container.newBuilder()
                .setName("web")
                .setImage("nginx:1.27")
                .addArgs("--port=8080")
                .addPorts(V1.ContainerPort.newBuilder().setName("http").setContainerPort(8080).setProtocol("TCP"))
                .setResources(V1.ResourceRequirements.newBuilder()
                        .putRequests("cpu", Quantity.newBuilder().setString("250m").build())
                        .putLimits("memory", Quantity.newBuilder().setString("128Mi").build()))
                .addEnv(V1.EnvVar.newBuilder().setName("MODE").setValue("prod"))
                .addEnv(V1.EnvVar.newBuilder().setName("POD").setValueFrom(V1.EnvVarSource.newBuilder()
                        .setFieldRef(V1.ObjectFieldSelector.newBuilder().setFieldPath("metadata.name"))))
                .setStdin(false)
                .build();
        V1Apps.Deployment deployment = V1Apps.Deployment.newBuilder()
                .setMetadata(Meta.ObjectMeta.newBuilder().setName("web").setGeneration(0))
                .setSpec(V1Apps.DeploymentSpec.newBuilder()
                        .setReplicas(3)
                        .setSelector(Meta.LabelSelector.newBuilder().putMatchLabels("app", "web"))
                        .setStrategy(V1Apps.DeploymentStrategy.newBuilder()
                                .setType("RollingUpdate")
                                .setRollingUpdate(V1Apps.RollingUpdateDeployment.newBuilder()
                                        .setMaxSurge(IntOrString.newBuilder().setType(1).setStrVal("25%"))
                                        .setMaxUnavailable(IntOrString.newBuilder().setType(0).setIntVal(0))))
                        .setTemplate(V1.PodTemplateSpec.newBuilder()
                                .setMetadata(Meta.ObjectMeta.newBuilder().putLabels("app", "web"))
                                .setSpec(V1.PodSpec.newBuilder()
                                        .addContainers(container)
                                        .setHostNetwork(false)
                                        .setAutomountServiceAccountToken(false)
                                        .setTerminationGracePeriodSeconds(0))))
                .build();

        assertDecodes(envelope("apps/v1", "Deployment", deployment), """
                {"apiVersion": "apps/v1", "kind": "Deployment",
                 "metadata": {"name": "web"},
                 "spec": {
                   "replicas": 3,
                   "selector": {"matchLabels": {"app": "web"}},
                   "template": {
                     "metadata": {"labels": {"app": "web"}},
                     "spec": {
                       "containers": [{
                         "name": "web", "image": "nginx:1.27", "args": ["--port=8080"],
                         "ports": [{"name": "http", "containerPort": 8080, "protocol": "TCP"}],
                         "env": [{"name": "MODE", "value": "prod"},
                                 {"name": "POD", "valueFrom": {"fieldRef": {"fieldPath": "metadata.name"}}}],
                         "resources": {"limits": {"memory": "128Mi"}, "requests": {"cpu": "250m"}}
                       }],
                       "terminationGracePeriodSeconds": 0,
                       "automountServiceAccountToken": false
                     }
                   },
                   "strategy": {"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": 0, "maxSurge": "25%"}}
                 }}""");
    }

    @Test
    void podDisruptionBudgetWithIntOrString() throws Exception {
        V1Policy.PodDisruptionBudget pdb = V1Policy.PodDisruptionBudget.newBuilder()
                .setMetadata(Meta.ObjectMeta.newBuilder().setName("pdb"))
                .setSpec(V1Policy.PodDisruptionBudgetSpec.newBuilder()
                        .setMinAvailable(IntOrString.newBuilder().setType(1).setStrVal("50%"))
                        .setMaxUnavailable(IntOrString.newBuilder().setIntVal(1)))
                .build();

        assertDecodes(envelope("policy/v1", "PodDisruptionBudget", pdb), """
                {"apiVersion": "policy/v1", "kind": "PodDisruptionBudget", "metadata": {"name": "pdb"},
                 "spec": {"minAvailable": "50%", "maxUnavailable": 1}}""");
    }

    @Test
    void podTimesAreRfc3339AndZeroTimeIsNull() throws Exception {
        V1.Pod pod = V1.Pod.newBuilder()
                .setMetadata(Meta.ObjectMeta.newBuilder()
                        .setName("p")
                        .setCreationTimestamp(Meta.Time.newBuilder().setSeconds(NOV_22_2026_10H).setNanos(999))
                        .setDeletionTimestamp(Meta.Time.getDefaultInstance())
                        .setDeletionGracePeriodSeconds(30))
                .build();

        assertDecodes(envelope("v1", "Pod", pod), """
                {"apiVersion": "v1", "kind": "Pod",
                 "metadata": {"name": "p", "creationTimestamp": "2026-11-22T10:00:00Z",
                              "deletionTimestamp": null, "deletionGracePeriodSeconds": 30}}""");
    }

    @Test
    void eventTimeHasMicroseconds() throws Exception {
        V1.Event event = V1.Event.newBuilder()
                .setMetadata(Meta.ObjectMeta.newBuilder().setName("e"))
                .setEventTime(Meta.MicroTime.newBuilder().setSeconds(NOV_22_2026_10H).setNanos(123_456_789))
                .setCount(0)
                .build();

        assertDecodes(envelope("v1", "Event", event), """
                {"apiVersion": "v1", "kind": "Event", "metadata": {"name": "e"},
                 "eventTime": "2026-11-22T10:00:00.123456Z"}""");
    }

    @Test
    void embeddedJsonAndManagedFieldsAreParsed() throws Exception {
        V1Apps.ControllerRevision revision = V1Apps.ControllerRevision.newBuilder()
                .setMetadata(Meta.ObjectMeta.newBuilder()
                        .setName("r")
                        .addManagedFields(Meta.ManagedFieldsEntry.newBuilder()
                                .setManager("kubectl")
                                .setFieldsType("FieldsV1")
                                .setFieldsV1(Meta.FieldsV1.newBuilder().setRaw(utf8("{\"f:data\":{}}")))))
                .setData(RawExtension.newBuilder().setRaw(utf8("{\"spec\":{\"replicas\":1}}")))
                .setRevision(0)
                .build();

        assertDecodes(envelope("apps/v1", "ControllerRevision", revision), """
                {"apiVersion": "apps/v1", "kind": "ControllerRevision",
                 "metadata": {"name": "r", "managedFields": [
                   {"manager": "kubectl", "fieldsType": "FieldsV1", "fieldsV1": {"f:data": {}}}]},
                 "data": {"spec": {"replicas": 1}}, "revision": 0}""");
    }

    @Test
    void stringListWrappersAreArrays() throws Exception {
        V1Authorization.SubjectAccessReview review = V1Authorization.SubjectAccessReview.newBuilder()
                .setSpec(V1Authorization.SubjectAccessReviewSpec.newBuilder()
                        .setUser("ann")
                        .putExtra("scopes", V1Authorization.ExtraValue.newBuilder().addItems("a").addItems("b").build()))
                .build();

        assertDecodes(envelope("authorization.k8s.io/v1", "SubjectAccessReview", review), """
                {"apiVersion": "authorization.k8s.io/v1", "kind": "SubjectAccessReview",
                 "spec": {"user": "ann", "extra": {"scopes": ["a", "b"]}}}""");
    }

    @Test
    void protoNamesThatDifferFromJsonNamesAreRenamed() throws Exception {
        V1Networking.IngressClass ingressClass = V1Networking.IngressClass.newBuilder()
                .setSpec(V1Networking.IngressClassSpec.newBuilder()
                        .setController("example.com/ingress")
                        .setParameters(V1Networking.IngressClassParametersReference.newBuilder()
                                .setAPIGroup("k8s.example.com")
                                .setKind("Params")
                                .setName("p")))
                .build();

        assertDecodes(envelope("networking.k8s.io/v1", "IngressClass", ingressClass), """
                {"apiVersion": "networking.k8s.io/v1", "kind": "IngressClass",
                 "spec": {"controller": "example.com/ingress",
                          "parameters": {"apiGroup": "k8s.example.com", "kind": "Params", "name": "p"}}}""");
    }

    @Test
    void int64BeyondIntRangeStaysExact() throws Exception {
        V1.Pod pod = V1.Pod.newBuilder()
                .setMetadata(Meta.ObjectMeta.newBuilder().setName("p").setGeneration(Long.MAX_VALUE))
                .build();

        JsonNode decoded = ProtobufBodies.decode(envelope("v1", "Pod", pod));

        assertThat(decoded.at("/metadata/generation").longValue()).isEqualTo(Long.MAX_VALUE);
    }

    private static ByteString utf8(String text) {
        return ByteString.copyFrom(text, StandardCharsets.UTF_8);
    }

    private static void assertDecodes(byte[] body, String expectedJson) throws Exception {
        assertThat(ProtobufBodies.decode(body)).isEqualTo(JSON.readTree(expectedJson));
    }
}
