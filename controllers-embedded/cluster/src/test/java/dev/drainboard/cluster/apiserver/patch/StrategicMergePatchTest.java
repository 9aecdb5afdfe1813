package dev.drainboard.cluster.apiserver.patch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/** The strategic merge patch rules and directives, one row each, against the Pod schema. */
class StrategicMergePatchTest {

    private static final PatchSchema POD = PatchSchemas.forKind("v1", "Pod");

    static Stream<Arguments> merges() {
        return Stream.of(
                arguments("a scalar replaces",
                        "{'spec':{'nodeName':'a'}}",
                        "{'spec':{'nodeName':'b'}}",
                        "{'spec':{'nodeName':'b'}}"),
                arguments("maps merge key by key",
                        "{'metadata':{'labels':{'a':'1','b':'2'}}}",
                        "{'metadata':{'labels':{'b':'3','c':'4'}}}",
                        "{'metadata':{'labels':{'a':'1','b':'3','c':'4'}}}"),
                arguments("null deletes a map key",
                        "{'metadata':{'labels':{'foo':'bar','keep':'me'}}}",
                        "{'metadata':{'labels':{'foo':null}}}",
                        "{'metadata':{'labels':{'keep':'me'}}}"),
                arguments("null for an absent key changes nothing",
                        "{'metadata':{'labels':{'keep':'me'}}}",
                        "{'metadata':{'labels':{'foo':null}}}",
                        "{'metadata':{'labels':{'keep':'me'}}}"),
                arguments("a value of another type replaces",
                        "{'spec':{'x':{'a':1}}}",
                        "{'spec':{'x':[1]}}",
                        "{'spec':{'x':[1]}}"),
                arguments("an atomic list is replaced",
                        "{'spec':{'tolerations':[{'key':'a','operator':'Exists'}]}}",
                        "{'spec':{'tolerations':[{'key':'b','operator':'Exists'}]}}",
                        "{'spec':{'tolerations':[{'key':'b','operator':'Exists'}]}}"),
                arguments("merge list elements merge by key",
                        "{'spec':{'containers':[{'name':'a','image':'x:1','tty':true},{'name':'b','image':'y:1'}]}}",
                        "{'spec':{'containers':[{'name':'a','image':'x:2'}]}}",
                        "{'spec':{'containers':[{'name':'a','image':'x:2','tty':true},{'name':'b','image':'y:1'}]}}"),
                arguments("a new element is placed before the server's elements",
                        "{'spec':{'containers':[{'name':'a'}]}}",
                        "{'spec':{'containers':[{'name':'b'}]}}",
                        "{'spec':{'containers':[{'name':'b'},{'name':'a'}]}}"),
                arguments("merged elements follow the patch order where the server's order allows",
                        "{'spec':{'containers':[{'name':'a'},{'name':'b'},{'name':'c'}]}}",
                        "{'spec':{'containers':[{'name':'c','tty':true},{'name':'a','tty':true}]}}",
                        "{'spec':{'containers':[{'name':'b'},{'name':'c','tty':true},{'name':'a','tty':true}]}}"),
                arguments("nested merge lists use their own key",
                        "{'spec':{'containers':[{'name':'a','env':[{'name':'X','value':'1'},{'name':'Y','value':'2'}],'ports':[{'containerPort':80,'protocol':'TCP'}]}]}}",
                        "{'spec':{'containers':[{'name':'a','env':[{'name':'Y','value':'3'}],'ports':[{'containerPort':80,'name':'http'}]}]}}",
                        "{'spec':{'containers':[{'name':'a','env':[{'name':'X','value':'1'},{'name':'Y','value':'3'}],'ports':[{'containerPort':80,'protocol':'TCP','name':'http'}]}]}}"),
                arguments("merge keys compare by value whatever the number's storage",
                        "{'spec':{'containers':[{'name':'a','ports':[{'containerPort':8080.0}]}]}}",
                        "{'spec':{'containers':[{'name':'a','ports':[{'containerPort':8080,'name':'web'}]}]}}",
                        "{'spec':{'containers':[{'name':'a','ports':[{'containerPort':8080,'name':'web'}]}]}}"),
                arguments("$patch: delete removes a list element by key",
                        "{'spec':{'containers':[{'name':'a'},{'name':'b'}]}}",
                        "{'spec':{'containers':[{'$patch':'delete','name':'b'}]}}",
                        "{'spec':{'containers':[{'name':'a'}]}}"),
                arguments("$patch: delete of an absent element changes nothing",
                        "{'spec':{'containers':[{'name':'a'}]}}",
                        "{'spec':{'containers':[{'$patch':'delete','name':'zzz'}]}}",
                        "{'spec':{'containers':[{'name':'a'}]}}"),
                arguments("$patch: replace in a list replaces it with the other elements",
                        "{'spec':{'containers':[{'name':'a','image':'x'},{'name':'b'}]}}",
                        "{'spec':{'containers':[{'name':'c','image':'z'},{'$patch':'replace'}]}}",
                        "{'spec':{'containers':[{'name':'c','image':'z'}]}}"),
                arguments("$patch: replace in a map replaces the map",
                        "{'spec':{'securityContext':{'runAsNonRoot':true,'fsGroup':2000}}}",
                        "{'spec':{'securityContext':{'$patch':'replace','runAsUser':1000}}}",
                        "{'spec':{'securityContext':{'runAsUser':1000}}}"),
                arguments("$patch: delete in a map empties it",
                        "{'spec':{'affinity':{'nodeAffinity':{}},'nodeName':'n'}}",
                        "{'spec':{'affinity':{'$patch':'delete'}}}",
                        "{'spec':{'affinity':{},'nodeName':'n'}}"),
                arguments("$patch: merge in a map merges",
                        "{'spec':{'securityContext':{'runAsNonRoot':true}}}",
                        "{'spec':{'securityContext':{'$patch':'merge','runAsUser':1000}}}",
                        "{'spec':{'securityContext':{'runAsNonRoot':true,'runAsUser':1000}}}"),
                arguments("$patch: merge in a list element merges that element",
                        "{'spec':{'containers':[{'name':'a','image':'x'}]}}",
                        "{'spec':{'containers':[{'$patch':'merge','name':'a','tty':true}]}}",
                        "{'spec':{'containers':[{'name':'a','image':'x','tty':true}]}}"),
                arguments("$retainKeys clears the keys it does not name",
                        "{'spec':{'volumes':[{'name':'data','emptyDir':{}}]}}",
                        "{'spec':{'volumes':[{'$retainKeys':['configMap','name'],'configMap':{'name':'cm'},'name':'data'}]}}",
                        "{'spec':{'volumes':[{'name':'data','configMap':{'name':'cm'}}]}}"),
                arguments("$retainKeys keeps and merges the keys it names",
                        "{'spec':{'volumes':[{'name':'data','configMap':{'name':'cm','defaultMode':420},'emptyDir':{}}]}}",
                        "{'spec':{'volumes':[{'$retainKeys':['configMap','name'],'configMap':{'name':'cm2'},'name':'data'}]}}",
                        "{'spec':{'volumes':[{'name':'data','configMap':{'name':'cm2','defaultMode':420}}]}}"),
                arguments("primitive merge lists add new values first and drop duplicates",
                        "{'metadata':{'finalizers':['a','b']}}",
                        "{'metadata':{'finalizers':['c','a','c']}}",
                        "{'metadata':{'finalizers':['c','a','b']}}"),
                arguments("$deleteFromPrimitiveList removes values",
                        "{'metadata':{'finalizers':['a','b','c']}}",
                        "{'metadata':{'$deleteFromPrimitiveList/finalizers':['b','zzz']}}",
                        "{'metadata':{'finalizers':['a','c']}}"),
                arguments("a $deleteFromPrimitiveList that is not a list is ignored, as kube-apiserver does",
                        "{'metadata':{'finalizers':['a']}}",
                        "{'metadata':{'$deleteFromPrimitiveList/finalizers':'a'}}",
                        "{'metadata':{'finalizers':['a']}}"),
                arguments("$deleteFromPrimitiveList on an absent list adds nothing",
                        "{'metadata':{'name':'p'}}",
                        "{'metadata':{'$deleteFromPrimitiveList/finalizers':['b']}}",
                        "{'metadata':{'name':'p'}}"),
                arguments("$setElementOrder orders a merged list",
                        "{'spec':{'containers':[{'name':'a'},{'name':'b'}]}}",
                        "{'spec':{'$setElementOrder/containers':[{'name':'b'},{'name':'a'}]}}",
                        "{'spec':{'containers':[{'name':'b'},{'name':'a'}]}}"),
                arguments("$setElementOrder places a new element where it says",
                        "{'spec':{'containers':[{'name':'a'},{'name':'c'}]}}",
                        "{'spec':{'$setElementOrder/containers':[{'name':'a'},{'name':'b'},{'name':'c'}],'containers':[{'name':'b','image':'y'}]}}",
                        "{'spec':{'containers':[{'name':'a'},{'name':'b','image':'y'},{'name':'c'}]}}"),
                arguments("$setElementOrder interleaves elements only the server has by their old positions",
                        "{'spec':{'containers':[{'name':'a'},{'name':'injected'},{'name':'b'}]}}",
                        "{'spec':{'$setElementOrder/containers':[{'name':'b'},{'name':'a'}],'containers':[{'name':'a','tty':true}]}}",
                        "{'spec':{'containers':[{'name':'injected'},{'name':'b'},{'name':'a','tty':true}]}}"),
                arguments("$setElementOrder orders primitive merge lists",
                        "{'metadata':{'finalizers':['a']}}",
                        "{'metadata':{'$setElementOrder/finalizers':['a','b'],'finalizers':['b']}}",
                        "{'metadata':{'finalizers':['a','b']}}"),
                arguments("$setElementOrder on an atomic list is ignored",
                        "{'spec':{'tolerations':[{'key':'a'}]}}",
                        "{'spec':{'$setElementOrder/tolerations':[{'key':'b'}],'tolerations':[{'key':'b'}]}}",
                        "{'spec':{'tolerations':[{'key':'b'}]}}"),
                arguments("directives inside newly added values are resolved, never stored",
                        "{'spec':{}}",
                        "{'spec':{'containers':[{'name':'a','$setElementOrder/env':[{'name':'X'}],'env':[{'name':'X','value':'1'},{'$patch':'delete','name':'Y'}],'securityContext':{'$patch':'replace','privileged':false,'gone':null}}]}}",
                        "{'spec':{'containers':[{'name':'a','env':[{'name':'X','value':'1'}],'securityContext':{'privileged':false}}]}}"),
                arguments("$patch: replace at the root replaces the whole object",
                        "{'kind':'Pod','spec':{'nodeName':'a'}}",
                        "{'$patch':'replace','kind':'Pod'}",
                        "{'kind':'Pod'}"),
                arguments("ownerReferences merge by uid",
                        "{'metadata':{'ownerReferences':[{'uid':'u1','name':'rs1'}]}}",
                        "{'metadata':{'ownerReferences':[{'uid':'u1','controller':true}]}}",
                        "{'metadata':{'ownerReferences':[{'uid':'u1','name':'rs1','controller':true}]}}"),
                arguments("an empty patch changes nothing",
                        "{'spec':{'containers':[{'name':'a'}]}}",
                        "{}",
                        "{'spec':{'containers':[{'name':'a'}]}}"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("merges")
    void merges(String description, String target, String patch, String expected) throws PatchException {
        assertThat(Patches.applyStrategicMergePatch(Json.object(target), Json.node(patch), POD)).isEqualTo(Json.node(expected));
    }

    static Stream<Arguments> failures() {
        return Stream.of(
                arguments("a list element without its merge key",
                        "{'spec':{'containers':[{'name':'a'}]}}",
                        "{'spec':{'containers':[{'image':'httpd'}]}}",
                        500, "map: map[image:httpd] does not contain declared merge key: name"),
                arguments("a delete directive without the merge key",
                        "{'spec':{'containers':[{'name':'a'}]}}",
                        "{'spec':{'containers':[{'$patch':'delete'}]}}",
                        500, "map: map[$patch:delete] does not contain declared merge key: name"),
                arguments("an unknown $patch in a map",
                        "{'spec':{}}",
                        "{'spec':{'$patch':'squash','a':1}}",
                        500, "unknown patch type: squash in map: map[$patch:squash a:1]"),
                arguments("an unknown $patch in a list",
                        "{'spec':{'containers':[{'name':'a'}]}}",
                        "{'spec':{'containers':[{'$patch':'squash','name':'a'}]}}",
                        500, "unknown patch type: squash in map: map[$patch:squash name:a]"),
                arguments("$retainKeys that is not a list",
                        "{'spec':{'volumes':[{'name':'v'}]}}",
                        "{'spec':{'volumes':[{'$retainKeys':'name','name':'v'}]}}",
                        400, "invalid patch format of retainKeys"),
                arguments("$retainKeys that leaves out a key the patch sets",
                        "{'spec':{'volumes':[{'name':'v'}]}}",
                        "{'spec':{'volumes':[{'$retainKeys':['name'],'name':'v','emptyDir':{}}]}}",
                        400, "invalid patch format of retainKeys"),
                arguments("$deleteFromPrimitiveList without a field",
                        "{'metadata':{'finalizers':['a']}}",
                        "{'metadata':{'$deleteFromPrimitiveList':['a']}}",
                        400, "invalid patch format of primitive list"),
                arguments("$setElementOrder that is not a list",
                        "{'spec':{'containers':[{'name':'a'}]}}",
                        "{'spec':{'$setElementOrder/containers':{'name':'a'}}}",
                        500, "expected a []interface {}, but received a map[string]interface {}"),
                arguments("$setElementOrder beside a list value that is not a list",
                        "{'spec':{'containers':[{'name':'a'}]}}",
                        "{'spec':{'$setElementOrder/containers':[{'name':'a'}],'containers':null}}",
                        500, "expected a []interface {}, but received a %!s(<nil>)"),
                arguments("$setElementOrder that contradicts the patch list",
                        "{'spec':{'containers':[{'name':'a'},{'name':'b'}]}}",
                        "{'spec':{'$setElementOrder/containers':[{'name':'a'},{'name':'b'}],'containers':[{'name':'b'},{'name':'a'}]}}",
                        500, "The order in patch list:\n[map[name:b] map[name:a]]\n doesn't match $setElementOrder list:\n[map[name:a] map[name:b]]\n"),
                arguments("a merge list mixing element types",
                        "{'spec':{'containers':[{'name':'a'}]}}",
                        "{'spec':{'containers':['a']}}",
                        500, "list element types are not identical: [[map[name:a]] [a]]"),
                arguments("a list joining a list of primitives",
                        "{'metadata':{'finalizers':['a']}}",
                        "{'metadata':{'finalizers':[['b']]}}",
                        500, "list element types are not identical: [[a] [[b]]]"),
                arguments("a list of lists",
                        "{'metadata':{}}",
                        "{'metadata':{'finalizers':[['b']]}}",
                        400, "lists of lists are not supported"),
                arguments("a patch body that is a list",
                        "{}",
                        "[{'op':'add'}]",
                        400, "json: cannot unmarshal array into Go value of type map[string]interface {}"),
                arguments("a patch body that is a string",
                        "{}",
                        "'spec'",
                        400, "json: cannot unmarshal string into Go value of type map[string]interface {}"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("failures")
    void fails(String description, String target, String patch, int code, String message) {
        assertThatThrownBy(() -> Patches.applyStrategicMergePatch(Json.object(target), Json.node(patch), POD))
                .isInstanceOfSatisfying(PatchException.class, e -> {
                    assertThat(e.code()).isEqualTo(code);
                    assertThat(e.getMessage()).isEqualTo(message);
                    assertThat(e.reason()).isEqualTo(code == 400 ? "BadRequest" : "");
                });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("merges")
    void neverChangesItsInputs(String description, String target, String patch, String expected) throws PatchException {
        ObjectNode targetNode = Json.object(target);
        JsonNode patchNode = Json.node(patch);
        Patches.applyStrategicMergePatch(targetNode, patchNode, POD);
        assertThat(targetNode).isEqualTo(Json.node(target));
        assertThat(patchNode).isEqualTo(Json.node(patch));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("merges")
    void returnsAnObjectSharingNothingWithItsInputs(String description, String target, String patch, String expected)
            throws PatchException {
        ObjectNode targetNode = Json.object(target);
        JsonNode patchNode = Json.node(patch);
        ObjectNode result = Patches.applyStrategicMergePatch(targetNode, patchNode, POD);
        result.removeAll();
        assertThat(targetNode).isEqualTo(Json.node(target));
        assertThat(patchNode).isEqualTo(Json.node(patch));
    }

    @org.junit.jupiter.api.Test
    void aNullBodyIsAnEmptyPatch() throws PatchException {
        assertThat(Patches.applyStrategicMergePatch(Json.object("{'a':1}"), Json.node("null"), POD)).isEqualTo(Json.node("{'a':1}"));
    }
}
