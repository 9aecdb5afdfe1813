package dev.drainboard.cluster.apiserver.patch;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.params.provider.Arguments.arguments;

class ServerSideApplyTest {

    static Stream<Arguments> applies() {
        return Stream.of(
                arguments("nothing there yet: the applied configuration is created, nulls dropped",
                        null,
                        "{'apiVersion':'v1','kind':'ConfigMap','metadata':{'name':'c','labels':null},'data':{'a':'1'}}",
                        "{'apiVersion':'v1','kind':'ConfigMap','metadata':{'name':'c'},'data':{'a':'1'}}"),
                arguments("fields the configuration leaves out are kept",
                        "{'apiVersion':'v1','kind':'ConfigMap','metadata':{'name':'c','uid':'u','labels':{'x':'1'}},'data':{'a':'1','b':'2'}}",
                        "{'apiVersion':'v1','kind':'ConfigMap','metadata':{'name':'c','labels':{'y':'2'}},'data':{'a':'9'}}",
                        "{'apiVersion':'v1','kind':'ConfigMap','metadata':{'name':'c','uid':'u','labels':{'x':'1','y':'2'}},'data':{'a':'9','b':'2'}}"),
                arguments("nulls are ignored",
                        "{'apiVersion':'v1','kind':'ConfigMap','metadata':{'name':'c'},'data':{'a':'1'}}",
                        "{'apiVersion':'v1','kind':'ConfigMap','metadata':{'name':'c'},'data':{'a':null}}",
                        "{'apiVersion':'v1','kind':'ConfigMap','metadata':{'name':'c'},'data':{'a':'1'}}"),
                arguments("containers and env merge by name; new elements go last",
                        "{'apiVersion':'v1','kind':'Pod','metadata':{'name':'p'},'spec':{'containers':[{'name':'a','image':'a:1','imagePullPolicy':'IfNotPresent','env':[{'name':'X','value':'1'}]}]}}",
                        "{'apiVersion':'v1','kind':'Pod','metadata':{'name':'p'},'spec':{'containers':[{'name':'b','image':'b:1'},{'name':'a','image':'a:2','env':[{'name':'Y','value':'2'}]}]}}",
                        "{'apiVersion':'v1','kind':'Pod','metadata':{'name':'p'},'spec':{'containers':[{'name':'a','image':'a:2','imagePullPolicy':'IfNotPresent','env':[{'name':'X','value':'1'},{'name':'Y','value':'2'}]},{'name':'b','image':'b:1'}]}}"),
                arguments("atomic lists are replaced",
                        "{'apiVersion':'v1','kind':'Node','metadata':{'name':'n'},'spec':{'taints':[{'key':'a','effect':'NoSchedule'}]}}",
                        "{'apiVersion':'v1','kind':'Node','metadata':{'name':'n'},'spec':{'taints':[{'key':'b','effect':'NoSchedule'}]}}",
                        "{'apiVersion':'v1','kind':'Node','metadata':{'name':'n'},'spec':{'taints':[{'key':'b','effect':'NoSchedule'}]}}"),
                arguments("finalizers are a set",
                        "{'apiVersion':'v1','kind':'ConfigMap','metadata':{'name':'c','finalizers':['a','b']}}",
                        "{'apiVersion':'v1','kind':'ConfigMap','metadata':{'name':'c','finalizers':['b','c']}}",
                        "{'apiVersion':'v1','kind':'ConfigMap','metadata':{'name':'c','finalizers':['a','b','c']}}"),
                arguments("service ports are keyed by port and protocol, protocol defaulting to TCP",
                        "{'apiVersion':'v1','kind':'Service','metadata':{'name':'dns'},'spec':{'ports':[{'name':'dns-tcp','port':53,'protocol':'TCP'},{'name':'dns','port':53,'protocol':'UDP'}]}}",
                        "{'apiVersion':'v1','kind':'Service','metadata':{'name':'dns'},'spec':{'ports':[{'name':'dns-udp','port':53,'protocol':'UDP'},{'port':53,'targetPort':5353}]}}",
                        "{'apiVersion':'v1','kind':'Service','metadata':{'name':'dns'},'spec':{'ports':[{'name':'dns-tcp','port':53,'protocol':'TCP','targetPort':5353},{'name':'dns-udp','port':53,'protocol':'UDP'}]}}"),
                arguments("a volume switched to another source keeps one source only",
                        "{'apiVersion':'apps/v1','kind':'Deployment','metadata':{'name':'d'},'spec':{'template':{'spec':{'volumes':[{'name':'data','emptyDir':{}}]}}}}",
                        "{'apiVersion':'apps/v1','kind':'Deployment','metadata':{'name':'d'},'spec':{'template':{'spec':{'volumes':[{'name':'data','configMap':{'name':'cm'}}]}}}}",
                        "{'apiVersion':'apps/v1','kind':'Deployment','metadata':{'name':'d'},'spec':{'template':{'spec':{'volumes':[{'name':'data','configMap':{'name':'cm'}}]}}}}"),
                arguments("an unchanged volume keeps its server defaults",
                        "{'apiVersion':'v1','kind':'Pod','metadata':{'name':'p'},'spec':{'volumes':[{'name':'cfg','configMap':{'name':'cm','defaultMode':420}}]}}",
                        "{'apiVersion':'v1','kind':'Pod','metadata':{'name':'p'},'spec':{'volumes':[{'name':'cfg','configMap':{'name':'cm'}}]}}",
                        "{'apiVersion':'v1','kind':'Pod','metadata':{'name':'p'},'spec':{'volumes':[{'name':'cfg','configMap':{'name':'cm','defaultMode':420}}]}}"),
                arguments("a deployment switched to Recreate loses its rollingUpdate",
                        "{'apiVersion':'apps/v1','kind':'Deployment','metadata':{'name':'d'},'spec':{'strategy':{'type':'RollingUpdate','rollingUpdate':{'maxSurge':'25%'}}}}",
                        "{'apiVersion':'apps/v1','kind':'Deployment','metadata':{'name':'d'},'spec':{'strategy':{'type':'Recreate'}}}",
                        "{'apiVersion':'apps/v1','kind':'Deployment','metadata':{'name':'d'},'spec':{'strategy':{'type':'Recreate'}}}"),
                arguments("a deployment re-applying RollingUpdate keeps its defaulted rollingUpdate",
                        "{'apiVersion':'apps/v1','kind':'Deployment','metadata':{'name':'d'},'spec':{'strategy':{'type':'RollingUpdate','rollingUpdate':{'maxSurge':'25%'}}}}",
                        "{'apiVersion':'apps/v1','kind':'Deployment','metadata':{'name':'d'},'spec':{'strategy':{'type':'RollingUpdate'}}}",
                        "{'apiVersion':'apps/v1','kind':'Deployment','metadata':{'name':'d'},'spec':{'strategy':{'type':'RollingUpdate','rollingUpdate':{'maxSurge':'25%'}}}}"),
                arguments("a custom resource's lists are atomic, its metadata lists are not",
                        "{'apiVersion':'example.com/v1','kind':'Widget','metadata':{'name':'w','finalizers':['a']},'spec':{'items':[{'name':'x'}]}}",
                        "{'apiVersion':'example.com/v1','kind':'Widget','metadata':{'name':'w','finalizers':['b']},'spec':{'items':[{'name':'y'}]}}",
                        "{'apiVersion':'example.com/v1','kind':'Widget','metadata':{'name':'w','finalizers':['a','b']},'spec':{'items':[{'name':'y'}]}}"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("applies")
    void applies(String description, String existing, String applied, String expected) throws PatchException {
        ObjectNode existingNode = existing == null ? null : Json.object(existing);
        ObjectNode appliedNode = Json.object(applied);
        ObjectNode result = Patches.applyServerSideApply(existingNode, appliedNode, schemaOf(appliedNode));
        assertThat(result).isEqualTo(Json.node(expected));
        if (existing != null) {
            assertThat(existingNode).isEqualTo(Json.node(existing));
        }
        assertThat(appliedNode).isEqualTo(Json.node(applied));
    }

    static Stream<Arguments> rejects() {
        return Stream.of(
                arguments("a strategic merge directive",
                        "{'apiVersion':'v1','kind':'Pod','metadata':{'name':'p'},'spec':{'containers':[{'name':'a','$patch':'delete'}]}}",
                        "failed to create typed patch object (/v1, Kind=Pod): .spec.containers[name=\"a\"].$patch: field not declared in schema"),
                arguments("a keyed element without its key",
                        "{'apiVersion':'apps/v1','kind':'Deployment','metadata':{'name':'d'},'spec':{'template':{'spec':{'containers':[{'image':'x'}]}}}}",
                        "failed to create typed patch object (apps/v1, Kind=Deployment): .spec.template.spec.containers: element 0: associative list with keys has an element that omits key field \"name\" (and doesn't have default value)"),
                arguments("duplicate keys",
                        "{'apiVersion':'v1','kind':'Pod','metadata':{'name':'p'},'spec':{'containers':[{'name':'a'},{'name':'a'}]}}",
                        "failed to create typed patch object (/v1, Kind=Pod): .spec.containers: duplicate entries for key [name=\"a\"]"),
                arguments("managed fields",
                        "{'apiVersion':'v1','kind':'Pod','metadata':{'name':'p','managedFields':[{'manager':'me'}]}}",
                        "metadata.managedFields must be nil"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rejects")
    void rejectsWhatRealServerSideApplyRejects(String description, String applied, String message) {
        ObjectNode appliedNode = Json.object(applied);
        assertThatThrownBy(() -> Patches.applyServerSideApply(Json.object("{'metadata':{'name':'p'}}"), appliedNode, schemaOf(appliedNode)))
                .isInstanceOfSatisfying(PatchException.class, e -> {
                    assertThat(e.code()).isEqualTo(400);
                    assertThat(e.getMessage()).isEqualTo(message);
                });
    }

    @Test
    void theResultSharesNoNodesWithTheAppliedConfiguration() throws PatchException {
        ObjectNode applied = Json.object("{'apiVersion':'v1','kind':'ConfigMap','metadata':{'name':'c','labels':{'a':'1'}}}");
        ObjectNode result = Patches.applyServerSideApply(null, applied, schemaOf(applied));
        ((ObjectNode) result.path("metadata").path("labels")).put("a", "changed");
        assertThat(applied.path("metadata").path("labels").path("a").asText()).isEqualTo("1");
    }

    private static PatchSchema schemaOf(ObjectNode object) {
        return PatchSchemas.forKind(object.path("apiVersion").asText(), object.path("kind").asText());
    }
}
